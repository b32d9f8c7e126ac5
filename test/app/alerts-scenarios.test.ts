// End to end: the scheduled watch opens "not reporting" and "not reconciling" issues for persistent
// conditions only, closes them when the condition ends, reopens rather than duplicates, and keeps
// the one dashboard issue current (golden bodies).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { FILES, liveProd } from './plan-scenario.js';
import {
  commentsOn,
  drain,
  expectGolden,
  issuesTitled,
  runWatch,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';
import { sqliteOf } from '../support/sqlite-file.js';

let h: Harness;
const at = (time: string): void => void (h.clock.now = new Date(time));

/** A Flux Kustomization applying clusters/prod, ready or failing its build. */
function fluxKustomization(failing: boolean): KubeObject {
  const ready = failing
    ? {
        type: 'Ready',
        status: 'False',
        reason: 'BuildFailed',
        lastTransitionTime: '2026-12-02T15:00:00Z',
        message: 'kustomize build failed: accumulating resources',
      }
    : {
        type: 'Ready',
        status: 'True',
        reason: 'ReconciliationSucceeded',
        lastTransitionTime: '2026-12-02T08:00:00Z',
        message: 'Applied revision: main@sha1:abc',
      };
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'prod', namespace: 'flux-system' },
    spec: {
      path: './clusters/prod',
      interval: '10m',
      prune: true,
      sourceRef: { kind: 'GitRepository', name: 'platform' },
    },
    status: { lastAppliedRevision: 'main@sha1:abc', lastAttemptedRevision: 'main@sha1:abc', conditions: [ready] },
  };
}

const live = (failing: boolean): KubeObject[] => [...liveProd(), fluxKustomization(failing)];

beforeAll(async () => {
  h = await startHarness(FILES, '2026-12-02T12:00:00Z');
}, 60_000);
afterAll(async () => h?.close());

describe('a cluster that stops reporting', () => {
  it('creates the dashboard on the first snapshot, then opens, keeps, closes and reopens one alert issue', async () => {
    expect(await uploadSnapshot(h, 'prod', live(false), '2026-12-02T11:55:00Z')).toBe(202);
    await drain(h); // the reconcile has written the cluster's state before the watch reads it
    await runWatch(h);
    const dashboards = issuesTitled(h, 'driftback dashboard');
    expect(dashboards).toHaveLength(1);
    expectGolden('dashboard.md', dashboards[0].body!);
    expect(issuesTitled(h, 'driftback: prod is not reporting')).toEqual([]);

    at('2026-12-02T12:40:00Z');
    await runWatch(h);
    const [alert] = issuesTitled(h, 'driftback: prod is not reporting');
    expect(alert.state).toBe('open');
    expect(alert.labels).toEqual(['driftback', 'driftback-alert']);
    expectGolden('alert-not-reporting.md', alert.body!);

    // Still stale a few minutes later: nothing is written (no alert per check).
    at('2026-12-02T12:45:00Z');
    h.standIn.resetCalls();
    await runWatch(h);
    expect(h.standIn.calls().writes).toBe(0);

    at('2026-12-02T12:50:00Z');
    expect(await uploadSnapshot(h, 'prod', live(false))).toBe(202);
    await runWatch(h);
    expect(issuesTitled(h, 'driftback: prod is not reporting').map((i) => i.state)).toEqual(['closed']);
    expect(commentsOn(h, alert.number).at(-1)).toContain('Snapshots of `prod` resumed');

    at('2026-12-02T14:00:00Z');
    await runWatch(h);
    const again = issuesTitled(h, 'driftback: prod is not reporting');
    expect(again.map((i) => [i.number, i.state])).toEqual([[alert.number, 'open']]);
    expect(issuesTitled(h, 'driftback dashboard')).toHaveLength(1);
  });
});

describe('a GitOps controller that stops reconciling', () => {
  it('alerts only once the condition has lasted an hour, and closes when it reconciles again', async () => {
    const title = 'driftback: prod: flux-system/prod is not reconciling';
    at('2026-12-02T15:00:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await runWatch(h);
    expect(issuesTitled(h, title)).toEqual([]);

    // Failing for 35 minutes: longer than staleAfter, not yet what wakes people.
    at('2026-12-02T15:35:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await runWatch(h);
    expect(issuesTitled(h, title)).toEqual([]);

    at('2026-12-02T16:05:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await runWatch(h);
    const [alert] = issuesTitled(h, title);
    expect(alert?.state).toBe('open');
    expectGolden('alert-not-reconciling.md', alert.body!);
    expect(issuesTitled(h, 'driftback dashboard')[0].body).toContain('Kustomization/flux-system/prod');

    at('2026-12-02T16:10:00Z');
    expect(await uploadSnapshot(h, 'prod', live(false))).toBe(202);
    await runWatch(h);
    expect(issuesTitled(h, title).map((i) => i.state)).toEqual(['closed']);
    expect(commentsOn(h, alert.number).at(-1)).toContain('reconciles again');
  });

  it('closes an alert that a version 1 watch state recorded, once the controller reconciles again', async () => {
    const title = 'driftback: prod: flux-system/prod is not reconciling';
    at('2026-12-02T17:00:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await runWatch(h);
    at('2026-12-02T18:05:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await runWatch(h);
    expect(issuesTitled(h, title).map((i) => i.state)).toEqual(['open']);
    // The row as an App before versioned state left it: reconcilers keyed `<cluster>/<namespace>/<name>`.
    const db = sqliteOf(h.app.store);
    const row = db.prepare(`SELECT value FROM state WHERE cluster = '~watch'`).get() as { value: string };
    const current = JSON.parse(row.value);
    const [entry] = current.notReconciling.prod;
    const notReconciling = {
      'prod/flux-system/prod': { since: entry.since, reason: entry.reason, issue: entry.issue },
    };
    const v1 = JSON.stringify({ ...current, notReconciling });
    db.prepare(`UPDATE state SET value = ?, version = 1 WHERE cluster = '~watch'`).run(v1);

    at('2026-12-02T18:10:00Z');
    expect(await uploadSnapshot(h, 'prod', live(false))).toBe(202);
    await runWatch(h);
    expect(issuesTitled(h, title).map((i) => i.state)).toEqual(['closed']);
  });
});

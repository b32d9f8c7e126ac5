// /metrics scraped after a scenario (snapshots accepted and refused, a watch, a plan): every metric
// the App exports is asserted, and no label carries a resource name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { FILES, liveProd, SETTINGS } from './plan-scenario.js';
import { drain, proposePullRequest, runWatch, startHarness, uploadSnapshot, type Harness } from './plan-harness.js';

let h: Harness;
let text = '';

/** prod with the api Deployment past its progress deadline and its Flux Kustomization suspended. */
function troubledProd(): KubeObject[] {
  const items = liveProd();
  const api = items.find((o) => o.kind === 'Deployment' && o.metadata.name === 'api')!;
  api.metadata.generation = 1;
  api.status = {
    observedGeneration: 1,
    replicas: 2,
    updatedReplicas: 1,
    conditions: [
      {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: 'ReplicaSet "api-5d8c" has timed out progressing.',
      },
    ],
  };
  items.push({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'prod', namespace: 'flux-system' },
    spec: { path: './clusters/prod', suspend: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ReconciliationSucceeded',
          lastTransitionTime: '2026-12-02T08:00:00Z',
        },
      ],
    },
  });
  return items;
}

/** The value of one sample, e.g. `driftback_degraded_resources{repository="acme/platform",cluster="prod"}`. */
function sample(name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    const match = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

const PROD = { repository: 'acme/platform', cluster: 'prod' };

beforeAll(async () => {
  h = await startHarness(FILES, '2026-12-02T12:00:00Z');
  expect(await uploadSnapshot(h, 'prod', troubledProd(), '2026-12-02T11:50:00Z')).toBe(202);
  expect(await uploadSnapshot(h, 'prod', [{ kind: 'Deployment' }], '2026-12-02T11:51:00Z')).toBe(400);
  await drain(h);
  await runWatch(h);
  await proposePullRequest(h, 'change/metrics', { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'debug') });
  const response = await fetch(`${h.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  text = await response.text();
}, 60_000);
afterAll(async () => h?.close());

describe('GET /metrics after a scenario', () => {
  it('reports each cluster’s snapshot age at scrape time', () => {
    expect(sample('driftback_snapshot_age_seconds', PROD)).toBe(600);
  });

  it('reports degraded and suspended resources, conflicts and drift by cause per cluster', () => {
    expect(sample('driftback_degraded_resources', PROD)).toBe(1);
    expect(sample('driftback_suspended_resources', PROD)).toBe(1);
    expect(sample('driftback_conflicts', PROD)).toBe(0);
    for (const cause of ['human', 'controller', 'unknown'])
      expect(sample('driftback_drift_resources', { ...PROD, cause })).toBeGreaterThanOrEqual(0);
  });

  it('counts snapshots by result', () => {
    expect(sample('driftback_snapshots_received_total', { result: 'accepted' })).toBe(1);
    expect(sample('driftback_snapshots_received_total', { result: 'invalid' })).toBe(1);
  });

  it('counts GitHub requests by route template and status, and the rate-limit budget left', () => {
    expect(
      sample('driftback_github_requests_total', {
        route: 'GET /repos/{owner}/{repo}/pulls/{pull_number}',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample('driftback_github_requests_total', { route: 'POST /repos/{owner}/{repo}/check-runs', status: '201' }),
    ).toBe(1);
    expect(sample('driftback_github_rate_limit_remaining')).toBeGreaterThan(0);
  });

  it('exports the reconcile histogram and error counter', () => {
    expect(text).toContain('# TYPE driftback_reconcile_duration_seconds histogram');
    expect(text).toContain('# TYPE driftback_reconcile_errors_total counter');
    expect(sample('driftback_reconcile_duration_seconds_count')).toBeGreaterThanOrEqual(1);
  });

  it('exports no series for a configured cluster that never reported: the config alone cannot add one', () => {
    expect(sample('driftback_degraded_resources', { repository: 'acme/platform', cluster: 'edge' })).toBeUndefined();
    expect(text).not.toContain('cluster="edge"');
  });

  it('reports suspensions by kind, never by the suspended object', () => {
    expect(sample('driftback_suspended_seconds', { ...PROD, kind: 'flux-kustomization' })).toBe(600);
    expect(text).not.toMatch(/source="/);
  });

  it('never uses a resource name as a label value', () => {
    const names = new Set(troubledProd().map((o) => o.metadata.name));
    const labelValues = [...text.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    expect(labelValues.filter((value) => names.has(value) && value !== 'prod')).toEqual([]);
  });
});

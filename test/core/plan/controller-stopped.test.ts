// A stopped GitOps controller, on the `emergency` scenario's Flux cluster: kustomize-controller
// scaled to 0 (`kubectl -n flux-system scale deployment kustomize-controller --replicas=0`), or a
// Kustomization whose last applied revision is not HEAD for longer than 3 × its interval.
import { describe, expect, it } from 'vitest';
import { reconcilerStateOf } from '../../../src/core/health/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { controllerStopped, stoppedReason } from '../../../src/core/plan/index.js';
import { shellCommand } from '../../../src/core/report/shell-command.js';
import { emergencySnapshot } from '../../support/emergency-fixture.js';

const APPLIED = '59520be0f121730245dbd292107027a33cd0a36a';
const HEAD = 'a'.repeat(40);

/**
 * The Deployment after a scale to 0, as the API server and the deployment controller leave it:
 * spec.replicas 0 and the replica counts gone from status (they are `omitempty` in apps/v1 DeploymentStatus).
 */
function scaledToZero(object: KubeObject): KubeObject {
  if (object.kind !== 'Deployment' || object.metadata.name !== 'kustomize-controller') return object;
  const {
    readyReplicas: _r,
    availableReplicas: _a,
    replicas: _n,
    updatedReplicas: _u,
    ...status
  } = object.status as Record<string, unknown>;
  return { ...object, spec: { ...(object.spec as object), replicas: 0 }, status };
}

const running = emergencySnapshot('flux-1-before').items;
const stopped = running.map(scaledToZero);
const apps = running.find((o) => o.kind === 'Kustomization' && o.metadata.name === 'apps')!;
const state = reconcilerStateOf(apps)!;

describe('controllerStopped', () => {
  it('a running controller that applied HEAD: nothing', () => {
    expect(
      controllerStopped({
        source: apps,
        state,
        items: running,
        head: { sha: APPLIED, at: '2026-12-01T09:00:00Z' },
        now: '2026-12-01T10:00:00Z',
      }),
    ).toBeUndefined();
  });

  it('kustomize-controller with no ready replica: stopped, with the commands that bring it back', () => {
    const found = controllerStopped({
      source: apps,
      state,
      items: stopped,
      head: undefined,
      now: '2026-12-01T10:00:00Z',
    });
    expect(found).toMatchObject({
      type: 'controller-stopped',
      controller: 'Deployment/flux-system/kustomize-controller',
      applied: APPLIED,
      // spec.interval 10m0s: 3 × 10m.
      thresholdSeconds: 1800,
    });
    expect(found!.commands.map((words) => shellCommand(words))).toEqual([
      'kubectl -n flux-system scale deployment kustomize-controller --replicas=1',
      'flux reconcile kustomization apps -n flux-system --with-source',
    ]);
    expect(stoppedReason(found!)).toBe(
      'is not reconciling: its controller Deployment/flux-system/kustomize-controller has no ready replica (not running)',
    );
  });

  it('behind HEAD: only past 3 × its interval after HEAD moved', () => {
    const head = { sha: HEAD, at: '2026-12-01T10:00:00Z' };
    expect(
      controllerStopped({ source: apps, state, items: running, head, now: '2026-12-01T10:29:00Z' }),
    ).toBeUndefined();
    const found = controllerStopped({
      source: apps,
      state,
      items: running,
      head,
      now: '2026-12-01T10:31:00Z',
    });
    expect(found).toMatchObject({ type: 'behind-head', applied: APPLIED });
    expect(found!.commands.map((words) => shellCommand(words))).toEqual([
      'flux reconcile kustomization apps -n flux-system --with-source',
    ]);
  });

  it('at least 15 minutes, whatever the interval', () => {
    const fast = { ...apps, spec: { ...(apps.spec as object), interval: '1m' } };
    const head = { sha: HEAD, at: '2026-12-01T10:00:00Z' };
    expect(
      controllerStopped({ source: fast, state, items: running, head, now: '2026-12-01T10:14:00Z' }),
    ).toBeUndefined();
    expect(
      controllerStopped({ source: fast, state, items: running, head, now: '2026-12-01T10:16:00Z' })?.thresholdSeconds,
    ).toBe(900);
  });

  it('a suspended source is no stopped controller (the suspension has its own alert)', () => {
    expect(
      controllerStopped({
        source: apps,
        state: { ...state, suspended: true },
        items: stopped,
        head: undefined,
        now: '2026-12-01T10:00:00Z',
      }),
    ).toBeUndefined();
  });
});

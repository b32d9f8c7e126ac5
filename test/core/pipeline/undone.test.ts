// A change its controller was about to undo, followed to the next snapshot: when Flux took it back, the
// dashboard says so ("a person's change was undone by Flux … at ~time") instead of letting it vanish.
// The later snapshot is flux-podinfo's hand-changes as kustomize-controller leaves it after its next
// reconcile (test/support/controllers.ts fluxPodinfoAfterReconcile).
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/index.js';
import { undoneSince, watchedChanges } from '../../../src/core/pipeline/index.js';
import { renderDashboard, undoGroups } from '../../../src/core/report/index.js';
import { evaluateScenario, fluxPodinfoAfterReconcile, scenarioSnapshot } from '../../support/controllers.js';

const before = scenarioSnapshot('flux-podinfo', 'hand-changes');
const evaluation = evaluateScenario('flux-podinfo', before);

describe('a change its controller undid', () => {
  const watched = watchedChanges(evaluation.diff);

  it('is followed from the snapshot that showed it', () => {
    expect(watched.map((w) => `${w.path} ${w.manager} ${w.by}`).sort()).toEqual([
      '/spec/replicas kubectl Flux Kustomization flux-system/apps',
      '/spec/template/spec/containers/0/env/3 kubectl-edit Flux Kustomization flux-system/apps',
      '/spec/template/spec/containers/0/image kubectl-set Flux Kustomization flux-system/apps',
      '/spec/template/spec/containers/0/resources/limits/memory kubectl-edit Flux Kustomization flux-system/apps',
    ]);
  });

  it("is reported undone, at kustomize-controller's write, once the value is gone", () => {
    const undone = undoneSince(watched, fluxPodinfoAfterReconcile().items, '2026-12-01T12:15:00Z', defaultConfig());
    expect(undone).toHaveLength(4);
    expect(new Set(undone.map((u) => `${u.by} ${u.at} ${u.exact}`))).toEqual(
      new Set(['Flux Kustomization flux-system/apps 2026-12-01T12:13:41Z true']),
    );
  });

  it('is still followed, not undone, while the value stays (or once Git holds it)', () => {
    expect(undoneSince(watched, before.items, before.capturedAt, defaultConfig())).toEqual([]);
  });

  it('shows on the dashboard, with what is still about to be undone and the remedy', () => {
    const after = fluxPodinfoAfterReconcile();
    const undone = undoneSince(watched, after.items, after.capturedAt, defaultConfig());
    const body = renderDashboard({
      now: '2026-12-01T12:16:00Z',
      configErrors: [],
      clusters: [
        {
          name: 'kind-dev',
          lastSnapshotAt: after.capturedAt,
          staleAfter: '30m',
          resourcesInScope: after.items.length,
          driftByCause: {},
          conflicts: [],
          ignored: [],
          degraded: [],
          reconcilers: [],
          openPullRequests: [],
          undone,
          undo: undoGroups(evaluation.drift, before.capturedAt),
        },
      ],
    });
    expect(body).toContain(
      "- ↩️ A person's change was undone by Flux Kustomization flux-system/apps at ~12:13 UTC: `Deployment/podinfo/podinfo` `spec.replicas` (kubectl, 12:05 UTC)",
    );
    expect(body).toContain('#### ⏳ Flux Kustomization flux-system/apps will undo these changes by ~12:13 UTC');
    expect(body).toContain(
      'To keep them, suspend it now (`flux suspend kustomization apps -n flux-system`), then merge the drift pull request.',
    );
  });
});

describe('a change under a controller that is not running (kustomize-controller scaled to zero, or crashing)', () => {
  const stopped = structuredClone(before);
  const controller = stopped.items.find((o) => o.kind === 'Deployment' && o.metadata?.name === 'kustomize-controller')!;
  controller.status = { ...(controller.status as object), readyReplicas: 0, availableReplicas: 0 };
  const changes = evaluateScenario('flux-podinfo', stopped).diff.resources.flatMap((r) => r.changes);

  it('is not promised an undo: `next` says the controller is stopped and what it does once it runs again', () => {
    const image = changes.find((c) => c.path === '/spec/template/spec/containers/0/image')!;
    expect(image.next).toMatchObject({
      by: 'Flux Kustomization flux-system/apps',
      what: 'wait',
      suspend: 'flux suspend kustomization apps -n flux-system',
    });
    expect(image.next!.why).toMatch(
      /^Flux Kustomization flux-system\/apps is not reconciling: its controller Deployment\/flux-system\/kustomize-controller has no ready replica; nothing undoes this change until it runs again, then: Flux Kustomization flux-system\/apps applies Git's value again/,
    );
    expect(watchedChanges({ resources: [{ ...evaluation.diff.resources[0]!, changes }] })).toEqual([]);
  });
});

// What deleting a source leaves in the cluster: the prunes of its objects that its controller does not
// delete become kept, with the controller's reason (kustomize-controller finalizerShouldDeleteResources,
// Argo CD's resources finalizer, a parent that does not delete the source).
import { describe, expect, it } from 'vitest';
import { keepWhatDeletedSourcesLeave } from '../../../src/core/plan/index.js';
import type { KubeObject, Plan, ResourceKey } from '../../../src/core/model/index.js';

const KUSTOMIZATION = {
  group: 'kustomize.toolkit.fluxcd.io',
  kind: 'Kustomization',
  namespace: 'flux-system',
  name: 'apps',
};
const APPLICATION = { group: 'argoproj.io', kind: 'Application', namespace: 'argocd', name: 'web' };
const DEPLOYMENT = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' };
const CRD = {
  group: 'apiextensions.k8s.io',
  kind: 'CustomResourceDefinition',
  namespace: '',
  name: 'widgets.example.com',
};

const live = (key: ResourceKey, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: key.group ? `${key.group}/v1` : 'v1',
  kind: key.kind,
  metadata: { name: key.name, ...(key.namespace ? { namespace: key.namespace } : {}), ...extra.metadata },
  ...(extra.spec ? { spec: extra.spec } : {}),
});
const prune = (key: ResourceKey) => ({ id: key, action: 'prune' as const, changes: [], conflicts: [] });
const plan = (pruned: ResourceKey[]): Plan => ({
  create: [],
  update: [],
  prune: pruned.map(prune),
  kept: [],
  unchanged: 0,
  warnings: [],
});
const kinds = (result: Plan) => ({
  prune: result.prune.map((entry) => entry.id.kind),
  kept: result.kept.map((entry) => `${entry.id.kind}: ${entry.reason}`),
});

describe('what a deleted Flux Kustomization leaves', () => {
  const run = (spec: Record<string, unknown>, sourcePruned = true) =>
    kinds(
      keepWhatDeletedSourcesLeave(
        plan(sourcePruned ? [KUSTOMIZATION, DEPLOYMENT] : [DEPLOYMENT]),
        [{ key: KUSTOMIZATION, objects: [DEPLOYMENT] }],
        [live(KUSTOMIZATION, { spec }), live(DEPLOYMENT)],
        [],
      ),
    );

  it.each([
    [{ prune: true }, 'deletes'],
    [{ prune: false, deletionPolicy: 'Delete' }, 'deletes'],
    [{ prune: false, deletionPolicy: 'WaitForTermination' }, 'deletes'],
  ])('%o %s what it applied', (spec: Record<string, unknown>, _verb: string) => {
    expect(run(spec)).toEqual({ prune: ['Kustomization', 'Deployment'], kept: [] });
  });

  it.each([
    [{ prune: false }, 'does not prune (`deletionPolicy: MirrorPrune` with `prune: false`)'],
    [{ prune: true, deletionPolicy: 'Orphan' }, 'has `deletionPolicy: Orphan`'],
    [{ prune: true, suspend: true }, 'is suspended'],
  ])('%o leaves what it applied', (spec: Record<string, unknown>, why: string) => {
    const result = run(spec);
    expect(result.prune).toEqual(['Kustomization']);
    expect(result.kept).toEqual([expect.stringContaining(`Deployment: Kustomization flux-system/apps ${why}`)]);
  });

  it('a Kustomization this merge does not delete keeps deploying what it applied', () => {
    expect(run({ prune: true }, false)).toEqual({
      prune: [],
      kept: [
        'Deployment: Kustomization flux-system/apps stays in the cluster (this merge does not delete it) and keeps deploying this',
      ],
    });
  });
});

describe('what a deleted Argo CD Application leaves', () => {
  const run = (finalizers: string[]) =>
    kinds(
      keepWhatDeletedSourcesLeave(
        plan([APPLICATION, DEPLOYMENT, CRD]),
        [{ key: APPLICATION, objects: [DEPLOYMENT, CRD] }],
        [live(APPLICATION, { metadata: { name: 'web', finalizers } }), live(DEPLOYMENT), live(CRD)],
        [],
      ),
    );

  it('with the resources finalizer: what it deployed goes, but never a CustomResourceDefinition', () => {
    expect(run(['resources-finalizer.argocd.argoproj.io'])).toEqual({
      prune: ['Application', 'Deployment'],
      kept: ['CustomResourceDefinition: a CustomResourceDefinition is never deleted with its Application'],
    });
  });

  it('without it: everything it deployed stays', () => {
    const result = run([]);
    expect(result.prune).toEqual(['Application']);
    expect(result.kept).toHaveLength(2);
    expect(result.kept[0]).toContain('deleted without the resources finalizer');
  });
});

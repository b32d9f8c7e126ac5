// Data a prune deletes, warned as `prune-protected` by what the prune does (not only by plan.protect):
// Kubernetes' own StatefulSet example (kubernetes/website application/web/web.yaml), a claim and its
// volume, and provider-helm's Release example as a Crossplane managed resource. Live objects carry what
// the API server defaults (persistentVolumeClaimRetentionPolicy: Retain/Retain for apps/v1
// StatefulSets; deletionPolicy: Delete and managementPolicies: ["*"] from the provider's CRD schema).
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/index.js';
import { displayKey, type DesiredObject, type KubeObject, type Plan } from '../../../src/core/model/index.js';
import { planChanges } from '../../../src/core/plan/index.js';
import { desiredFromFiles, edited, liveOf } from './build.js';
import { readFixtureTree } from '../../support/fixtures.js';

const NOW = '2026-12-02T12:00:00Z';
const snapshot = { capturedAt: '2026-12-02T11:55:00Z', complete: true, errors: [] };
const config = { ...defaultConfig(), plan: { ...defaultConfig().plan, protect: [] } };

function prune(base: DesiredObject[], live: KubeObject[]): Plan {
  return planChanges({ head: [], base, live, config, now: NOW, snapshot });
}

function warned(plan: Plan): string[] {
  return plan.warnings.map((w) => `${w.code} ${w.id ? displayKey(w.id) : '-'}`);
}

const web = desiredFromFiles(readFixtureTree('manifests/kubernetes-website/content/en/examples/application/web'));
const sts = web.find((d) => d.key.kind === 'StatefulSet')!;
const withPolicy = (whenDeleted: string) =>
  liveOf(
    edited(sts, (o) => ((o.spec as any).persistentVolumeClaimRetentionPolicy = { whenDeleted, whenScaled: 'Retain' })),
  );

describe('pruning a StatefulSet with volumeClaimTemplates', () => {
  it('says the claims and their data remain, orphaned, under the default Retain', () => {
    const plan = prune([sts], [withPolicy('Retain')]);
    expect(warned(plan)).toEqual(['prune-protected StatefulSet/default/web']);
    expect(plan.warnings[0]!.message).toContain('`www-web-<ordinal>`');
    expect(plan.warnings[0]!.message).toContain('the claims and their data remain, orphaned');
  });

  it('says the claims are deleted with the data under whenDeleted: Delete', () => {
    const plan = prune([sts], [withPolicy('Delete')]);
    expect(plan.warnings[0]!.message).toContain('the claims are deleted with the data');
  });

  it('warns of nothing for a StatefulSet without claims', () => {
    const bare = edited(sts, (o) => delete (o.spec as any).volumeClaimTemplates);
    expect(warned(prune([bare], [liveOf(bare)]))).toEqual([]);
  });
});

describe('pruning claims and volumes', () => {
  const claim = edited(sts, (o) => {
    o.apiVersion = 'v1';
    o.kind = 'PersistentVolumeClaim';
    o.metadata.name = 'www-web-0';
    o.spec = { ...(o.spec as any).volumeClaimTemplates[0].spec, volumeName: 'pvc-0a1b' };
  });
  const volume = (reclaim: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pvc-0a1b' },
    spec: { capacity: { storage: '1Gi' }, persistentVolumeReclaimPolicy: reclaim, accessModes: ['ReadWriteOnce'] },
  });

  it('names the bound volume and its reclaim policy, even with an empty plan.protect', () => {
    const deleted = prune(
      [{ ...claim, key: { ...claim.key, kind: 'PersistentVolumeClaim' } }],
      [liveOf(claim), volume('Delete')],
    );
    expect(warned(deleted)).toEqual(['prune-protected PersistentVolumeClaim/default/www-web-0']);
    expect(deleted.warnings[0]!.message).toContain('`pvc-0a1b` is deleted with the data (reclaim policy `Delete`)');
    const kept = prune([claim], [liveOf(claim), volume('Retain')]);
    expect(kept.warnings[0]!.message).toContain('is released and keeps the data (reclaim policy `Retain`)');
  });

  it('warns when a PersistentVolume itself is pruned', () => {
    const pv = volume('Delete');
    const desired = desiredFromFiles(new Map([['pv.yaml', JSON.stringify(pv)]]))[0]!;
    desired.key = { ...desired.key, namespace: '' };
    delete desired.object.metadata.namespace;
    const plan = prune([desired], [liveOf(desired)]);
    expect(warned(plan)).toEqual(['prune-protected PersistentVolume/pvc-0a1b']);
    expect(plan.warnings[0]!.message).toContain('the storage behind it is deleted with the data');
  });
});

describe('pruning a Crossplane managed resource', () => {
  const [release] = desiredFromFiles(readFixtureTree('manifests/provider-helm/examples/cluster/sample'));
  const clusterScoped = (d: DesiredObject, spec: Record<string, unknown> = {}): DesiredObject =>
    edited({ ...d, key: { ...d.key, namespace: '' } }, (o) => {
      delete o.metadata.namespace;
      Object.assign(o.spec as object, spec);
    });

  it('says the provider deletes the external resource under deletionPolicy: Delete, the default', () => {
    const defaulted = clusterScoped(release!, { deletionPolicy: 'Delete', managementPolicies: ['*'] });
    const plan = prune([defaulted], [liveOf(defaulted)]);
    expect(warned(plan)).toEqual(['prune-protected Release/example-oci-url-with-tag']);
    expect(plan.warnings[0]!.message).toContain("Crossplane's provider deletes its Release in the provider");
  });

  it.each([
    [{ deletionPolicy: 'Orphan', managementPolicies: ['*'] }, false],
    [{ deletionPolicy: 'Delete', managementPolicies: ['Observe', 'Create', 'Update'] }, false],
    [{ deletionPolicy: 'Orphan', managementPolicies: ['Observe', 'Delete'] }, true],
    [{}, true],
  ])('follows crossplane-runtime ShouldDelete for %j', (spec, deletes) => {
    const resource = clusterScoped(release!, spec);
    expect(warned(prune([resource], [liveOf(resource)])).length).toBe(deletes ? 1 : 0);
  });
});

describe('a change to volumeClaimTemplates', () => {
  it('is immutable, with the recreate step, not "deletes data"', () => {
    const grown = edited(sts, (o) => ((o.spec as any).volumeClaimTemplates[0].spec.resources.requests.storage = '5Gi'));
    const plan = planChanges({ head: [grown], live: [liveOf(sts)], config, now: NOW, snapshot });
    expect(warned(plan)).toEqual(['immutable StatefulSet/default/web']);
    expect(plan.warnings[0]!.message).toContain('kubectl delete statefulset web -n default --cascade=orphan');
  });
});

// What a prune deletes besides the object: the data behind it. A StatefulSet's claims follow its
// persistentVolumeClaimRetentionPolicy (apps/v1 StatefulSetPersistentVolumeClaimRetentionPolicy: whenDeleted
// defaults to Retain); a claim's volume follows its reclaim policy (core/v1 PersistentVolumeSpec
// persistentVolumeReclaimPolicy); a Crossplane managed resource's provider deletes the external resource
// unless told to orphan it (crossplane-runtime ManagementPoliciesResolver.ShouldDelete: deletionPolicy
// defaults to Delete, managementPolicies to ["*"]). Each is warned as `prune-protected`, whatever `plan.protect` says.
import { isPlainObject, keyId, type KubeObject } from '../model/index.js';

const KEEP =
  'If that is not intended, keep it in Git, or annotate it `kustomize.toolkit.fluxcd.io/prune: disabled` / ' +
  '`argocd.argoproj.io/sync-options: Prune=false`.';

function spec(object: KubeObject | undefined): Record<string, unknown> {
  return isPlainObject(object?.spec) ? object.spec : {};
}

function statefulSetLoss(live: KubeObject): string | undefined {
  const templates = Array.isArray(spec(live).volumeClaimTemplates)
    ? (spec(live).volumeClaimTemplates as unknown[])
    : [];
  if (templates.length === 0) return undefined;
  const names = templates.map((t) => (isPlainObject(t) && isPlainObject(t.metadata) ? String(t.metadata.name) : '?'));
  const claims = names.map((name) => `\`${name}-${live.metadata.name}-<ordinal>\``).join(', ');
  const policy = spec(live).persistentVolumeClaimRetentionPolicy;
  const whenDeleted = isPlainObject(policy) && policy.whenDeleted === 'Delete' ? 'Delete' : 'Retain';
  if (whenDeleted === 'Delete') {
    return (
      `It will be deleted with its Pods, and its PersistentVolumeClaims (${claims}) with it: the claims are deleted ` +
      'with the data (`persistentVolumeClaimRetentionPolicy.whenDeleted: Delete`; a volume whose reclaim policy is ' +
      `\`Delete\`, the default of dynamically provisioned volumes, goes too). ${KEEP}`
    );
  }
  return (
    `It will be deleted with its Pods; its PersistentVolumeClaims (${claims}) are not: the claims and their data ` +
    'remain, orphaned (`persistentVolumeClaimRetentionPolicy.whenDeleted: Retain`, the default), until someone ' +
    `deletes them or a StatefulSet of the same name takes them up again. ${KEEP}`
  );
}

function reclaimOf(volume: KubeObject | undefined): string | undefined {
  const policy = spec(volume).persistentVolumeReclaimPolicy;
  return typeof policy === 'string' ? policy : undefined;
}

function claimLoss(live: KubeObject, volumes: ReadonlyMap<string, KubeObject>): string {
  const name = spec(live).volumeName;
  const volume =
    typeof name === 'string'
      ? volumes.get(keyId({ group: '', kind: 'PersistentVolume', namespace: '', name }))
      : undefined;
  const reclaim = reclaimOf(volume);
  const bound = typeof name === 'string' ? `its PersistentVolume \`${name}\`` : 'its volume';
  const fate =
    reclaim === undefined
      ? `${bound} and the data on it go with it when the volume's reclaim policy is \`Delete\` (the default of dynamically provisioned volumes)`
      : reclaim === 'Delete'
        ? `${bound} is deleted with the data (reclaim policy \`Delete\`)`
        : `${bound} is released and keeps the data (reclaim policy \`${reclaim}\`) until someone deletes it`;
  return `The claim will be deleted (once no Pod uses it); ${fate}. ${KEEP}`;
}

function volumeLoss(live: KubeObject): string {
  const reclaim = reclaimOf(live) ?? 'Retain';
  const fate =
    reclaim === 'Delete'
      ? 'the storage behind it is deleted with the data (reclaim policy `Delete`)'
      : `the storage behind it stays (reclaim policy \`${reclaim}\`), but nothing binds to it any more`;
  return `The volume will be deleted (once no claim is bound to it); ${fate}. ${KEEP}`;
}

/** crossplane-runtime ShouldDelete: whether the provider deletes the external resource with the managed resource. */
function deletesExternal(live: KubeObject): boolean {
  const deletion = spec(live).deletionPolicy ?? 'Delete';
  const raw = spec(live).managementPolicies;
  const policies = Array.isArray(raw) ? raw : ['*'];
  const all = policies.length === 1 && policies[0] === '*';
  if (deletion === 'Delete' && (policies.includes('Delete') || policies.includes('*'))) return true;
  return !all && policies.includes('Delete');
}

function managedResourceLoss(live: KubeObject): string | undefined {
  if (!isPlainObject(spec(live).forProvider) || !deletesExternal(live)) return undefined;
  const external = live.metadata.annotations?.['crossplane.io/external-name'];
  const what = external ? `the ${live.kind} \`${external}\`` : `its ${live.kind}`;
  return (
    `It will be deleted, and Crossplane's provider deletes ${what} in the provider with it — a table, a bucket, a ` +
    'database and its data (`deletionPolicy: Delete`, the default). To keep the external resource, set ' +
    '`spec.deletionPolicy: Orphan` (or `managementPolicies` without `Delete`) and let it sync before removing it. ' +
    KEEP
  );
}

/** What pruning `live` deletes with it, in words, or undefined when it deletes no data. */
export function dataLossOnPrune(live: KubeObject, volumes: ReadonlyMap<string, KubeObject>): string | undefined {
  const group = live.apiVersion.includes('/') ? live.apiVersion.split('/')[0] : '';
  if (group === 'apps' && live.kind === 'StatefulSet') return statefulSetLoss(live);
  if (group === '' && live.kind === 'PersistentVolumeClaim') return claimLoss(live, volumes);
  if (group === '' && live.kind === 'PersistentVolume') return volumeLoss(live);
  return managedResourceLoss(live);
}

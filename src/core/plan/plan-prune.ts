// Prune: live objects the source manages that head no longer declares. "Manages" needs evidence:
// base declared the object, or it carries the tracking identity (Flux labels, Argo CD tracking id or
// instance label) that this source's own live objects carry. An object merely present in the
// cluster is never a prune candidate.
import {
  keyId,
  keyOf,
  type DesiredObject,
  type KubeObject,
  type PlanEntry,
  type PlanKept,
  type PlanWarning,
  type PruneInventory,
  type ResourceKey,
  type SyncHook,
} from '../model/index.js';
import { keepReason, trackingOf } from './prune-rules.js';
import { dataLossOnPrune } from './data-loss.js';
import { isControllerOwned } from '../k8s/index.js';
import { liveHookOf, type ArgoTracking } from '../sources/index.js';

export interface PruneInput {
  head: Map<string, DesiredObject>;
  base: Map<string, DesiredObject>;
  live: Map<string, KubeObject>;
  /** The cluster's `prune` setting: when off, the controller deletes nothing. */
  prune: boolean;
  protect: string[];
  /** Whether the snapshot proves the object's presence or absence (its type and namespace were listed). */
  proves: (key: ResourceKey) => boolean;
  /** The sources' inventories, when known: an object in one is managed by it, and pruned only if it prunes. */
  inventories?: readonly PruneInventory[];
  /** How Argo CD tracks what it applies (argocd-cm in the snapshot), for reading its stamps. */
  tracking?: ArgoTracking;
  /** Hooks head declares, by keyId: a hook is run by its tool, never pruned. */
  hooks?: ReadonlyMap<string, SyncHook>;
}

export interface PruneResult {
  prune: PlanEntry[];
  kept: PlanKept[];
  warnings: PlanWarning[];
}

/** The tracking identities of the source: what live copies of head and base objects carry. */
function sourceTracking(input: PruneInput): Set<string> {
  const identities = new Set<string>();
  for (const id of [...input.head.keys(), ...input.base.keys()]) {
    const current = input.live.get(id);
    const tracking = current ? trackingOf(current, input.tracking) : undefined;
    if (tracking) identities.add(tracking);
  }
  return identities;
}

function protectedMessage(kind: string): string {
  return (
    `It will be deleted: it is no longer declared and ${kind} is in \`plan.protect\`, so its data goes ` +
    'with it. If that is not intended, keep it in Git, or annotate it `kustomize.toolkit.fluxcd.io/prune: disabled` / ' +
    '`argocd.argoproj.io/sync-options: Prune=false`.'
  );
}

/**
 * An object a controller owns (a ReplicaSet of a Deployment) is deleted with its owner, not pruned; a
 * hook left in the cluster (BeforeHookCreation, a failed hook) is its tool's (gitops-engine getSyncTasks).
 */
function neverPruned(id: string, current: KubeObject, input: PruneInput): boolean {
  const deletedWithSource = input.inventories?.some((inventory) => inventory.deletion && inventory.keys.has(id));
  return (
    (isControllerOwned(current) && !deletedWithSource) ||
    input.hooks?.has(id) === true ||
    liveHookOf(current, input.tracking) !== undefined
  );
}

/**
 * Why an object stays when Argo CD deletes its Application's resources (controller/appcontroller.go
 * shouldBeDeleted): a CRD, `Delete=false` on the object or else in the Application's sync options, or
 * `helm.sh/resource-policy: keep`.
 */
function keptOnDeletion(live: KubeObject, syncOptions: readonly string[]): string | undefined {
  if (live.kind === 'CustomResourceDefinition')
    return 'a CustomResourceDefinition is never deleted with its Application';
  const options = (live.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '')
    .split(',')
    .map((o) => o.trim());
  const own = options.find((option) => option.startsWith('Delete='));
  if (own === 'Delete=false') return 'annotated argocd.argoproj.io/sync-options: Delete=false';
  if (own === undefined && syncOptions.includes('Delete=false'))
    return 'its Application syncs with `Delete=false` (syncPolicy.syncOptions)';
  if (live.metadata.annotations?.['helm.sh/resource-policy'] === 'keep')
    return 'annotated helm.sh/resource-policy: keep';
  return undefined;
}

/** `argocd.argoproj.io/sync-options: Prune=true` on the object overrides the Application's `Prune=false`. */
function prunedAnyway(live: KubeObject): boolean {
  const options = live.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '';
  return options.split(',').some((option) => option.trim() === 'Prune=true');
}

export function planPrune(input: PruneInput): PruneResult {
  const result: PruneResult = { prune: [], kept: [], warnings: [] };
  if (!input.prune) return result;
  const tracking = sourceTracking(input);
  for (const [id, current] of input.live) {
    if (input.head.has(id)) continue;
    const key = keyOf(current);
    if (neverPruned(id, current, input)) continue;
    if (!input.proves(key)) continue;
    // An inventory is the ground truth: its source manages the object, and prunes it only if it prunes.
    const inventory = input.inventories?.find((candidate) => candidate.keys.has(id));
    if (inventory && !inventory.inScope) continue;
    if (inventory && (!inventory.prunes || inventory.suspended)) {
      const why = inventory.suspended
        ? `${inventory.source} is suspended: it prunes nothing until it is resumed`
        : (inventory.notPruned ??
          `${inventory.source} does not prune (no ${inventory.pruneSetting}): the object stays in the cluster`);
      result.kept.push({ id: key, reason: why });
      continue;
    }
    const identity = trackingOf(current, input.tracking);
    const managed =
      inventory !== undefined || input.base.has(keyId(key)) || (identity !== undefined && tracking.has(identity));
    if (!managed) continue;
    const reason = inventory?.deletion
      ? keptOnDeletion(current, inventory.deletion.syncOptions)
      : (keepReason(current) ?? (inventory?.keepAll && !prunedAnyway(current) ? inventory.keepAll : undefined));
    if (reason) {
      result.kept.push({ id: key, reason });
      continue;
    }
    result.prune.push({
      id: key,
      action: 'prune',
      changes: [],
      conflicts: [],
      live: current,
      desired: input.base.get(id),
    });
    const loss = dataLossOnPrune(current, input.live);
    if (loss || input.protect.includes(key.kind)) {
      result.warnings.push({ code: 'prune-protected', id: key, message: loss ?? protectedMessage(key.kind) });
    }
  }
  return result;
}

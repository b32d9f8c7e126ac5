// Per-source results: which resources of a drift report or a plan belong to which source — the objects
// its render gives, and for live-only objects (extra, prune) the source whose inventory names them.
import {
  changeCount,
  keyId,
  type DiffResult,
  type Plan,
  type PruneInventory,
  type ResourceKey,
  type SourceReport,
} from '../model/index.js';
import type { SourceResult } from './source-worklist.js';
import { sourceName, sourceRefKey } from '../sources/identity.js';
import type { ArgoTransforms } from '../sources/types.js';
import { hasSyncOption } from './argocd-ignore.js';

type CountField = 'drift' | 'changes' | 'create' | 'update' | 'prune';

function reportOf(result: SourceResult): SourceReport {
  const { source } = result;
  return {
    name: source.id.controller === 'kubectl' ? source.id.name || 'cluster' : sourceName(source.id),
    controller: source.id.controller,
    ...(source.path !== undefined ? { path: source.path } : {}),
    scope: result.scope,
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    suspended: source.status?.suspended ?? (source.transforms.controller === 'flux' && source.transforms.suspend),
    ...(source.status?.appliedRevision ? { appliedRevision: source.status.appliedRevision } : {}),
    counts: {},
    ...(result.createdBy ? { createdBy: result.createdBy } : {}),
  };
}

/** The source index of every key: rendered objects first, then inventories. */
function ownerIndex(sources: readonly SourceResult[]): Map<string, number> {
  const owners = new Map<string, number>();
  sources.forEach((result, index) => {
    for (const key of result.objects) if (!owners.has(keyId(key))) owners.set(keyId(key), index);
  });
  sources.forEach((result, index) => {
    for (const entry of result.source.status?.inventory ?? []) {
      if (!owners.has(keyId(entry.key))) owners.set(keyId(entry.key), index);
    }
  });
  return owners;
}

function count(
  sources: readonly SourceResult[],
  keys: Iterable<{ key: ResourceKey; field: CountField; amount?: number }>,
  fields: CountField[],
): SourceReport[] {
  const reports = sources.map(reportOf);
  for (const report of reports) if (report.scope === 'rendered') for (const field of fields) report.counts[field] = 0;
  const owners = ownerIndex(sources);
  for (const { key, field, amount = 1 } of keys) {
    const index = owners.get(keyId(key));
    if (index === undefined || reports[index]!.scope !== 'rendered') continue;
    reports[index]!.counts[field] = (reports[index]!.counts[field] ?? 0) + amount;
  }
  return reports;
}

/** Drift per source: resources modified, missing or extra, and their live changes. */
export function summarizeSourceDrift(sources: readonly SourceResult[], result: DiffResult): SourceReport[] {
  const drifted = result.resources.filter((resource) => resource.status !== 'in-sync' || resource.changes.length > 0);
  return count(
    sources,
    drifted.flatMap((resource) => [
      { key: resource.key, field: 'drift' as const },
      { key: resource.key, field: 'changes' as const, amount: changeCount(resource) },
    ]),
    ['drift', 'changes'],
  );
}

/** What merging does per source. */
export function summarizeSourcePlan(
  sources: readonly SourceResult[],
  plan: Pick<Plan, 'create' | 'update' | 'prune'>,
): SourceReport[] {
  const entries = [
    ...plan.create.map((entry) => ({ key: entry.id, field: 'create' as const })),
    ...plan.update.map((entry) => ({ key: entry.id, field: 'update' as const })),
    ...plan.prune.map((entry) => ({ key: entry.id, field: 'prune' as const })),
  ];
  return count(sources, entries, []);
}

/**
 * namespace → the path of the source that renders most objects of it (the first on a tie), for new
 * resources: written there, the source applies them. Sources of other repositories have none.
 */
export function newResourceHomes(sources: readonly SourceResult[]): Record<string, string> {
  const best = new Map<string, { path: string; count: number }>();
  for (const result of sources) {
    if (result.scope !== 'rendered' || result.source.path === undefined) continue;
    const counts = new Map<string, number>();
    for (const key of result.objects) {
      if (key.namespace) counts.set(key.namespace, (counts.get(key.namespace) ?? 0) + 1);
    }
    for (const [namespace, count] of counts) {
      const current = best.get(namespace);
      if (!current || count > current.count) best.set(namespace, { path: result.source.path, count });
    }
  }
  return Object.fromEntries([...best].map(([namespace, { path }]) => [namespace, path]));
}

/** Each source's inventory as prune reads it (PruneInventory): who manages what, and who deletes. */
export function pruneInventories(sources: readonly SourceResult[]): PruneInventory[] {
  return sources.flatMap((result) => {
    const { source } = result;
    if (result.deleted) return deletedInventories(result, result.deleted);
    const inventory = source.status?.inventory;
    if (!inventory) return [];
    const flux = source.transforms.controller === 'flux' ? source.transforms : undefined;
    const argo = source.transforms.controller === 'argocd' ? source.transforms : undefined;
    const name = sourceName(source.id);
    return [
      {
        source: name,
        keys: new Set(inventory.map((entry) => keyId(entry.key))),
        inScope: result.scope === 'rendered',
        prunes: flux ? flux.prune : argo ? argo.syncPolicy.automated && argo.syncPolicy.prune : false,
        suspended: source.status?.suspended === true && source.id.controller === 'flux',
        pruneSetting: flux ? '`spec.prune: true`' : '`syncPolicy.automated.prune: true`',
        ...(argo ? argoPruneNotes(name, argo) : {}),
      },
    ];
  });
}

/**
 * A generated Application its ApplicationSet deletes: the Application itself, and what its inventory lists,
 * deleted with it (cascade) or left in the cluster.
 */
function deletedInventories(result: SourceResult, deleted: NonNullable<SourceResult['deleted']>): PruneInventory[] {
  const { source } = result;
  const name = sourceName(source.id);
  const syncOptions = source.transforms.controller === 'argocd' ? source.transforms.syncPolicy.syncOptions : [];
  const common = { source: name, inScope: true, suspended: false, pruneSetting: 'the resources finalizer' };
  return [
    { ...common, keys: new Set([keyId(sourceRefKey(source.id))]), prunes: true, deletion: { syncOptions: [] } },
    {
      ...common,
      keys: new Set((source.status?.inventory ?? []).map((entry) => keyId(entry.key))),
      prunes: deleted.cascade,
      notPruned: deleted.reason,
      deletion: { syncOptions },
    },
  ];
}

/** What an Argo CD Application's sync options and policy say about its prunes (docs/user-guide/sync-options.md). */
function argoPruneNotes(name: string, argo: ArgoTransforms): Pick<PruneInventory, 'keepAll' | 'notPruned'> {
  const notes: Pick<PruneInventory, 'keepAll' | 'notPruned'> = {};
  if (hasSyncOption(argo, 'Prune=false'))
    notes.keepAll = `Application ${name} syncs with \`Prune=false\` (syncPolicy.syncOptions): never pruned`;
  if (argo.syncPolicy.automated && !argo.syncPolicy.prune)
    notes.notPruned =
      `Application ${name} syncs automatically without \`prune\`: the object stays until a person syncs ` +
      `with prune (\`argocd app sync ${name} --prune\`)`;
  return notes;
}

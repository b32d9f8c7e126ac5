// What applying head would do to one cluster: create / update / prune / unchanged, and the
// warnings that matter. Pure: every input is a value, `now` included.
import { isDeepStrictEqual } from 'node:util';
import {
  compareKeys,
  keyId,
  keyOf,
  type DesiredObject,
  type KubeObject,
  type Plan,
  type PlanEntry,
  type PlanWarning,
  type PruneInventory,
  type ResourceKey,
} from '../model/index.js';
import { parseDuration, type ClusterConfig, type Config } from '../config/index.js';
import { assessHealth } from '../health/index.js';
import { diffObject, type DiffOptions } from '../diff/index.js';
import { argoSyncTimes, hooksById, readArgoSettings, type DesiredHook } from '../sources/index.js';
import { removedSinceBase } from './removed-since-base.js';
import { changeWarnings, conflictWarnings, healthWarning, namespaceWarning } from './entry-warnings.js';
import { planPrune } from './plan-prune.js';
import { chartHandChangeWarnings } from './chart-warnings.js';
import { hpaReplicasWarnings } from './hpa-warnings.js';
import { snapshotWarnings, reconcilerWarnings, type PlannedSnapshot } from './cluster-warnings.js';
import { coverageOf, customLookupsOf, FULL_SCOPE, isNamespace, namespaceKey, type Coverage } from '../k8s/index.js';

export interface PlanInput {
  head: DesiredObject[];
  base?: DesiredObject[];
  live: KubeObject[];
  config: Config;
  cluster?: ClusterConfig;
  /** When the snapshot was taken and what it listed; undefined for live state that is no snapshot. */
  snapshot?: PlannedSnapshot;
  /** The moment the plan is made (ISO 8601): snapshot age and reconciler lag are measured from it. */
  now: string;
  /** The commit head was rendered from (kept with the plan's inputs; not used in the computation). */
  headRevision?: string;
  /** The cluster's path in the repository: picks the Flux/Argo CD object that applies it. */
  path?: string;
  /** The sources' inventories (Flux status.inventory, Argo CD status.resources); default: none known. */
  inventories?: readonly PruneInventory[];
  /** Hooks head declares (set aside from `head`): never created or pruned, listed as what a sync runs. */
  hooks?: readonly DesiredHook[];
}

const WARNING_ORDER: PlanWarning['code'][] = [
  'suspended-source',
  'stale-snapshot',
  'partial-snapshot',
  'not-reconciling',
  'refused-by-argocd',
  'prune-protected',
  'immutable',
  'conflict',
  'hpa-replicas',
  'reverts-live-change',
  'chart-hand-change',
  'namespace-missing',
  'argocd-sync-option',
  'argocd-compare-option',
  'unhealthy',
];

/** Head, base and live by id, each within the scope the snapshot covers. */
interface Indexed {
  coverage: Coverage;
  head: Map<string, DesiredObject>;
  base: Map<string, DesiredObject>;
  live: Map<string, KubeObject>;
  custom: ReturnType<typeof diffFacts>;
}

export function planChanges(input: PlanInput): Plan {
  const indexed = indexInputs(input);
  const plan: Plan = {
    cluster: input.cluster?.name,
    create: [],
    update: [],
    prune: [],
    kept: [],
    unchanged: 0,
    warnings: [],
  };
  const unclaimed = unseenChanges(planHead(input, indexed, plan), indexed, input.base !== undefined);
  planPrunes(input, indexed, plan);
  const staleAfter = parseDuration(input.cluster?.staleAfter ?? '30m') ?? 1800;
  const name = input.cluster?.name;
  plan.warnings.push(...snapshotWarnings(input.snapshot, name, input.now, staleAfter, indexed.coverage, unclaimed));
  const path = input.path ?? input.cluster?.path;
  plan.warnings.push(...reconcilerWarnings([...indexed.live.values()], path, input.now, staleAfter));
  return sortPlan(plan);
}

function indexInputs(input: PlanInput): Indexed {
  const coverage = coverageOf(input.snapshot ?? FULL_SCOPE, input.cluster?.namespaces);
  const live = new Map<string, KubeObject>();
  for (const object of input.live) if (coverage.inScope(keyOf(object))) live.set(keyId(keyOf(object)), object);
  const head = new Map<string, DesiredObject>();
  for (const desired of input.head) if (coverage.inScope(desired.key)) head.set(keyId(desired.key), desired);
  const base = new Map<string, DesiredObject>((input.base ?? []).map((d) => [keyId(d.key), d]));
  return { coverage, head, base, live, custom: diffFacts(input) };
}

/**
 * What the pull request changes that the snapshot did not list: of head's unlisted objects, those base
 * lacks or declares otherwise, and base's unlisted objects head drops (a prune nobody can see). Without
 * a base every unlisted object of head counts: nothing says which of them the change is about.
 */
function unseenChanges(unlisted: ResourceKey[], { coverage, head, base }: Indexed, hasBase: boolean): ResourceKey[] {
  if (!hasBase) return unlisted;
  const changed = unlisted.filter((key) => {
    const before = base.get(keyId(key));
    return !before || !isDeepStrictEqual(before.object, head.get(keyId(key))?.object);
  });
  const dropped = [...base.values()]
    .filter((d) => coverage.inScope(d.key) && !head.has(keyId(d.key)) && !coverage.proves(d.key))
    .map((d) => d.key);
  return [...changed, ...dropped.sort(compareKeys)];
}

/**
 * Each object head declares: created, updated or unchanged, with its warnings. Returns what is not
 * shown as created because the snapshot did not list its type or namespace.
 */
function planHead(input: PlanInput, { coverage, head, base, live, custom }: Indexed, plan: Plan): ResourceKey[] {
  const missingNamespace = namespaceCheck(head, live, coverage);
  const unclaimed: ResourceKey[] = [];
  for (const [id, desired] of head) {
    const current = live.get(id);
    if (!current) {
      // A snapshot proves nothing about what it did not list: the object may well exist.
      if (!coverage.proves(desired.key)) {
        unclaimed.push(desired.key);
        continue;
      }
      plan.create.push({ id: desired.key, action: 'create', changes: [], conflicts: [], desired });
      if (missingNamespace(desired.key.namespace)) plan.warnings.push(namespaceWarning(desired.key, desired));
      continue;
    }
    const health = assessHealth(current);
    plan.warnings.push(...healthWarning(desired.key, health, desired));
    const { changes, conflicts } = changesOnApply(desired, current, base.get(id), input.config, custom);
    plan.warnings.push(...conflictWarnings(desired.key, conflicts, desired));
    if (changes.length === 0) {
      plan.unchanged += 1;
      continue;
    }
    const entry: PlanEntry = { id: desired.key, action: 'update', changes, conflicts, desired, live: current, health };
    plan.update.push(entry);
    plan.warnings.push(...changeWarnings(desired.key, changes, desired, current));
  }
  return unclaimed;
}

/** Whether a created object's namespace is missing: listed, not live, and not created by head either. */
function namespaceCheck(
  head: ReadonlyMap<string, DesiredObject>,
  live: ReadonlyMap<string, KubeObject>,
  coverage: Coverage,
): (namespace: string) => boolean {
  const liveNamespaces = new Set([...live.values()].filter((o) => isNamespace(keyOf(o))).map((o) => o.metadata.name));
  const headNamespaces = new Set([...head.values()].filter((d) => isNamespace(d.key)).map((d) => d.key.name));
  // A snapshot that holds no Namespace at all did not list them: it cannot say one is missing.
  const listed = (name: string): boolean => liveNamespaces.size > 0 && coverage.proves(namespaceKey(name));
  return (namespace) =>
    namespace !== '' && listed(namespace) && !liveNamespaces.has(namespace) && !headNamespaces.has(namespace);
}

/** What leaves the cluster: prunes and kept objects, then the warnings about charts and autoscalers. */
function planPrunes(input: PlanInput, { coverage, head, base, live, custom }: Indexed, plan: Plan): void {
  const pruned = planPrune({
    head,
    base,
    live,
    prune: input.cluster?.prune ?? true,
    protect: input.config.plan.protect,
    proves: coverage.proves,
    ...(input.inventories ? { inventories: input.inventories } : {}),
    tracking: custom.tracking,
    hooks: hooksById(input.hooks),
  });
  plan.prune.push(...pruned.prune);
  plan.kept.push(...pruned.kept);
  plan.warnings.push(...pruned.warnings);
  plan.warnings.push(...chartHandChangeWarnings(head.values(), input.live, input.config));
  plan.warnings.push(...hpaReplicasWarnings(head, base, input.live, plan.warnings));
}

/** Entries by resource, warnings in WARNING_ORDER, then by resource and path: the same input reads the same. */
function sortPlan(plan: Plan): Plan {
  for (const list of [plan.create, plan.update, plan.prune]) list.sort((a, b) => compareKeys(a.id, b.id));
  plan.kept.sort((a, b) => compareKeys(a.id, b.id));
  plan.warnings.sort(
    (a, b) =>
      WARNING_ORDER.indexOf(a.code) - WARNING_ORDER.indexOf(b.code) ||
      (a.id && b.id ? compareKeys(a.id, b.id) : a.id ? 1 : b.id ? -1 : 0) ||
      (a.path ?? '').localeCompare(b.path ?? ''),
  );
  return plan;
}

/** What diffing each object needs from the snapshot: CRD facts (the cluster's first), Argo CD's tracking and syncs. */
function diffFacts(input: PlanInput) {
  const tracking = readArgoSettings(input.live);
  const custom = customLookupsOf([...input.live, ...input.head.map((d) => d.object)]);
  return { ...custom, tracking, duringSync: argoSyncTimes(input.live, tracking) };
}

/**
 * The field changes an apply of head makes. An `add` (a field live has that another manager set and
 * Git never declared) is left as it is by an apply, so it is drift, not a plan change.
 */
function changesOnApply(
  desired: DesiredObject,
  live: KubeObject,
  base: DesiredObject | undefined,
  config: Config,
  custom: Pick<DiffOptions, 'customListKeys' | 'customDefaults' | 'tracking' | 'duringSync'>,
) {
  const diff = diffObject(desired.object, live, { config, ...custom });
  const changes = diff.changes.filter((change) => change.op !== 'add' && !change.ignored);
  if (base) {
    for (const removal of removedSinceBase(desired.object, base.object, live, config)) {
      const covered = changes.some((c) => c.path === removal.path || removal.path.startsWith(c.path + '/'));
      if (!covered) changes.push(removal);
    }
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, conflicts: diff.conflicts };
}

/** True when applying head changes nothing (no create, update or prune). */
export function isEmptyPlan(plan: Plan): boolean {
  return plan.create.length + plan.update.length + plan.prune.length === 0;
}

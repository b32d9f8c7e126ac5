// The whole comparison: desired and live paired by ResourceKey (one pass, no quadratic pairing),
// each pair diffed, every change classified and matched against ignore rules, and the summary counted.
import type {
  Conflict,
  DesiredObject,
  DiffResult,
  FieldChange,
  KubeObject,
  OwnedObject,
  Reported,
  ResourceDiff,
  ResourceKey,
} from '../model/index.js';
import type { Config } from '../config/index.js';
import { keyId, keyOf } from '../model/index.js';
import { assessHealth } from '../health/index.js';
import { compileIgnoreRules, ignoreRuleFor, type IgnoreMatcher } from '../classify/ignore.js';
import { summarize } from '../classify/summary.js';
import { diffObject, type DiffOptions } from './diff-object.js';
import {
  autoscalerOwning,
  autoscalerReason,
  AUTOSCALED_PATH,
  coverageOf,
  type Coverage,
  describeAutoscaler,
  FULL_SCOPE,
  isNamespace,
  customLookupsOf,
  emergencySwitchReason,
  imperativeActionOf,
  indexAutoscalers,
  type AutoscalerIndex,
  type SnapshotScope,
} from '../k8s/index.js';
import { creatorOf } from '../classify/field-owners.js';
import { judgeExtra, ownershipContextOf, type OwnershipContext } from '../ownership/index.js';
import { argoSyncTimes, DEFAULT_ARGO_TRACKING } from '../sources/index.js';
import type { UnseenApplier } from '../render/index.js';

export interface DiffResourcesOptions {
  config: Config;
  /** The cluster's configured namespaces; undefined or empty = every namespace live holds. */
  namespaces?: readonly string[];
  /** What the snapshot listed (its scope). Default: everything. */
  scope?: SnapshotScope;
  /** The source that manages a live object (its inventory or stamps), when the sources are known. */
  sourceOf?: OwnershipContext['sourceOf'];
  /**
   * Why the applier of a live object is not known to read this repository (core/sources' unseenApplier):
   * a field Git does not declare is then reported with what is known, never as "the next apply removes it".
   * Default: every applier is known.
   */
  unseenApplier?: UnseenApplier;
  /** Hooks the repository declares, by keyId (set aside from desired): their live objects are no extras. */
  hooks?: OwnershipContext['hooks'];
}

export function diffResources(desired: DesiredObject[], live: KubeObject[], options: DiffResourcesOptions): DiffResult {
  const { config } = options;
  const coverage = coverageOf(options.scope ?? FULL_SCOPE, options.namespaces);
  const liveById = new Map<string, KubeObject>();
  for (const obj of live) liveById.set(keyId(keyOf(obj)), obj);
  const ownership = { ...ownershipContextOf(live, config, options.sourceOf), hooks: options.hooks };
  const facts = compareFacts(desired, live, ownership, options);
  const matchers = compileIgnoreRules(config.drift.ignore);
  const resources: ResourceDiff[] = [];
  for (const want of desired) {
    const have = liveById.get(keyId(want.key));
    // A partial snapshot proves nothing about what it could not see.
    if (!have && !coverage.proves(want.key)) continue;
    resources.push(
      have
        ? compareOne(want, have, config, matchers, facts)
        : { key: want.key, status: 'missing', changes: [], ignored: [], conflicts: [], desired: want },
    );
  }
  const desiredIds = new Set(desired.map((want) => keyId(want.key)));
  const unclaimed = [...liveById].filter(([id]) => !desiredIds.has(id)).map(([, have]) => have);
  const { extra, owned } = judgeExtras(unclaimed, coverage, ownership, config);
  resources.push(...extra);
  // Ids computed once: a comparator that builds them would do it n log n times.
  const ids = new Map(resources.map((r) => [r, keyId(r.key)]));
  resources.sort((a, b) => (ids.get(a)! < ids.get(b)! ? -1 : ids.get(a)! > ids.get(b)! ? 1 : 0));
  owned.sort((a, b) => (keyId(a.key) < keyId(b.key) ? -1 : 1));
  return { resources, summary: summarize(resources), unlisted: coverage.unlisted, ...(owned.length ? { owned } : {}) };
}

/** Live objects Git does not declare: extra when a person made them, otherwise listed under their owner. */
function judgeExtras(
  unclaimed: readonly KubeObject[],
  coverage: Coverage,
  ownership: OwnershipContext,
  config: Config,
): { extra: ResourceDiff[]; owned: OwnedObject[] } {
  // A namespace scope limits namespaced objects only (and leaves Namespace objects to the sources that
  // create them): every other cluster-scoped object is judged, so a ClusterRoleBinding made by hand is
  // never out of sight.
  const inScope = (key: ResourceKey): boolean =>
    !coverage.namespaces || (key.namespace === '' && !isNamespace(key)) || coverage.namespaces.includes(key.namespace);
  const extra: ResourceDiff[] = [];
  const owned: OwnedObject[] = [];
  for (const have of unclaimed) {
    const key = keyOf(have);
    if (!inScope(key)) continue;
    const verdict = judgeExtra(have, ownership);
    if (verdict.type === 'owned') {
      owned.push(verdict.owned);
      continue;
    }
    const createdBy = creatorOf(have, config);
    const health = assessHealth(have);
    extra.push({
      key,
      status: 'extra',
      changes: [],
      ignored: [],
      conflicts: [],
      live: have,
      health,
      ...(createdBy ? { createdBy } : {}),
    });
  }
  return { extra, owned };
}

/** What comparing each pair needs from the whole snapshot, gathered once. */
function compareFacts(
  desired: readonly DesiredObject[],
  live: readonly KubeObject[],
  ownership: OwnershipContext,
  options: DiffResourcesOptions,
): CompareFacts {
  return {
    autoscalers: indexAutoscalers(live),
    // The CRDs the cluster serves first, then those the repository installs.
    custom: customLookupsOf([...live, ...desired.map((d) => d.object)]),
    tracking: ownership.tracking,
    unseenApplier: options.unseenApplier,
    duringSync: argoSyncTimes(live, ownership.tracking ?? DEFAULT_ARGO_TRACKING),
  };
}

interface CompareFacts {
  autoscalers: AutoscalerIndex;
  custom: Pick<DiffOptions, 'customListKeys' | 'customDefaults'>;
  tracking: DiffOptions['tracking'];
  unseenApplier: UnseenApplier | undefined;
  duringSync: DiffOptions['duringSync'];
}

function compareOne(
  want: DesiredObject,
  have: KubeObject,
  config: Config,
  matchers: readonly IgnoreMatcher[],
  facts: CompareFacts,
): ResourceDiff {
  const { autoscalers, custom } = facts;
  const tracking = facts.tracking ? { tracking: facts.tracking } : {};
  const options = { config, ...custom, ...tracking, duringSync: facts.duringSync };
  const { changes, conflicts } = diffObject(want.object, have, options);
  const counted: FieldChange[] = [];
  const ignored: FieldChange[] = [];
  const reported: FieldChange[] = [];
  for (const change of changes) {
    const rule = ignoreRuleFor(matchers, want.key, change, want.object);
    if (rule) {
      ignored.push({ ...change, ignored: { reason: rule.reason } });
      continue;
    }
    const why = reportedBecause(change, want.key, have, facts);
    if (why) reported.push({ ...change, reported: why });
    else counted.push(change);
  }
  autoscalerConflict(want, have, autoscalers, conflicts);
  // An ignore rule is one of the two fixes a conflict names: a matched conflict is settled.
  const open = conflicts.filter(
    (c) => !matchers.some((m) => m.matches(want.key, { ...c, object: want.object }, [c.manager])),
  );
  return {
    key: want.key,
    status: counted.length ? 'modified' : 'in-sync',
    changes: counted,
    ignored,
    conflicts: open,
    ...(reported.length ? { reported } : {}),
    desired: want,
    live: have,
    health: assessHealth(have),
  };
}

/** Why a change is reported and never codified: an imperative action, an unseen applier, an autoscaler's field. */
function reportedBecause(
  change: FieldChange,
  key: ResourceKey,
  live: KubeObject,
  facts: Pick<CompareFacts, 'autoscalers' | 'unseenApplier'>,
): Reported | undefined {
  const action = imperativeActionOf(change, key.kind);
  if (action) return { code: 'imperative', reason: `${action.reason}; nothing to do` };
  const flipped = emergencySwitchReason(change, key, live);
  if (flipped) return { code: 'emergency-switch', reason: flipped };
  const unseen = change.op === 'remove' ? facts.unseenApplier?.(live, change.manager) : undefined;
  if (unseen) {
    const reason = `${unseen}: Git here does not declare it, and what that source applies is not known; to keep it, declare it in that source`;
    return { code: 'applier-not-in-view', reason };
  }
  const autoscaler = autoscalerOwning(facts.autoscalers, key, change.path);
  if (autoscaler) return { code: 'autoscaler', reason: autoscalerReason(autoscaler, change.desired !== undefined) };
  return undefined;
}

/** Git declares replicas of a workload an autoscaler scales: two managers, one field, named with its fix. */
function autoscalerConflict(
  want: DesiredObject,
  have: KubeObject,
  autoscalers: AutoscalerIndex,
  conflicts: Conflict[],
): void {
  const autoscaler = autoscalerOwning(autoscalers, want.key, AUTOSCALED_PATH);
  const spec = want.object.spec as Record<string, unknown> | undefined;
  if (!autoscaler || spec?.replicas === undefined) return;
  const fix = autoscalerReason(autoscaler, true);
  const existing = conflicts.findIndex((c) => c.path === AUTOSCALED_PATH);
  const live = (have.spec as Record<string, unknown> | undefined)?.replicas;
  const conflict: Conflict = {
    path: AUTOSCALED_PATH,
    segments: ['spec', 'replicas'],
    manager: describeAutoscaler(autoscaler),
    desired: spec.replicas,
    live,
    fix,
  };
  const time = existing >= 0 ? conflicts[existing]!.time : undefined;
  if (existing >= 0) conflicts.splice(existing, 1);
  conflicts.push({ ...conflict, ...(time ? { time } : {}) });
}

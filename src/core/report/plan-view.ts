// Plan → the plan comment's view model, at a level of detail: 0 full diffs, 1 changed fields only,
// 2 resource names only, 3 counts only. The budget picks the most detailed level that fits.
import { displayKey, type Plan, type PlanEntry, type PlanWarning } from '../model/index.js';
import { entryDiff } from './yaml-diff.js';


export type DetailLevel = 0 | 1 | 2 | 3;

const SYMBOL = { create: '+', update: '~', prune: '-' } as const;
const VERB = { create: 'create', update: 'update', prune: 'prune' } as const;

/** Terraform's one-liner: `prod-eu: 2 to create, 3 to update, 1 to prune, 41 unchanged`. */
export function planSummary(cluster: string, plan: Plan): string {
  return `${cluster}: ${plan.create.length} to create, ${plan.update.length} to update, ${plan.prune.length} to prune, ${plan.unchanged} unchanged`;
}

function owners(entry: PlanEntry): string {
  const seen = new Map<string, string>();
  for (const change of entry.changes) {
    if (!change.manager || change.cause === 'applier') continue;
    if (!seen.has(change.manager)) seen.set(change.manager, `${change.path} by ${change.manager}${change.time ? ` at ${change.time}` : ''}`);
  }
  for (const conflict of entry.conflicts) if (!seen.has(conflict.manager)) seen.set(conflict.manager, `${conflict.path} owned by ${conflict.manager}`);
  return seen.size ? `live values from ${[...seen.values()].join('; ')}` : '';
}

function warningView(warning: PlanWarning) {
  return {
    kind: warning.code,
    resource: warning.id ? displayKey(warning.id) : undefined,
    where: warning.file ? `${warning.file}${warning.line ? `:${warning.line}` : ''}` : undefined,
    message: warning.message,
  };
}

const WARNINGS_AT_LEVEL: Record<DetailLevel, number> = { 0: Infinity, 1: Infinity, 2: 100, 3: 20 };

/** Diffs computed once per rendering, shared by the levels that show them. */
export type DiffCache = Map<PlanEntry, string>;

function cachedDiff(entry: PlanEntry, resource: string, cache: DiffCache): string {
  let diff = cache.get(entry);
  if (diff === undefined) cache.set(entry, (diff = entryDiff(entry, resource)));
  return diff;
}

/** Whether the diffs alone could fit `limit`; stops computing as soon as they cannot. */
export function diffsFit(plans: Plan[], limit: number, cache: DiffCache): boolean {
  let total = 0;
  for (const plan of plans) {
    for (const entry of [...plan.prune, ...plan.create, ...plan.update]) {
      total += cachedDiff(entry, displayKey(entry.id), cache).length + 120;
      if (total > limit) return false;
    }
  }
  return true;
}

const RESOURCES_AT_LEVEL: Record<DetailLevel, number> = { 0: Infinity, 1: Infinity, 2: 500, 3: 0 };

export function clusterView(name: string, plan: Plan, level: DetailLevel, snapshot?: string, cache: DiffCache = new Map()) {
  const entries = [...plan.prune, ...plan.create, ...plan.update];
  const maxWarnings = WARNINGS_AT_LEVEL[level];
  return {
    name,
    snapshot,
    summary: planSummary(name, plan),
    warnings: plan.warnings.slice(0, maxWarnings).map(warningView),
    warningsOmitted: Math.max(0, plan.warnings.length - maxWarnings),
    resources: entries.slice(0, RESOURCES_AT_LEVEL[level]).map((entry) => {
      const resource = displayKey(entry.id);
      return {
        symbol: SYMBOL[entry.action],
        action: VERB[entry.action],
        resource,
        owners: level <= 1 ? owners(entry) : '',
        diff: level === 0 ? cachedDiff(entry, resource, cache) || undefined : undefined,
        paths: level === 1 ? [...new Set(entry.changes.map((c) => c.path))] : [],
      };
    }),
    resourcesOmitted: Math.max(0, entries.length - RESOURCES_AT_LEVEL[level]),
    kept: level <= 2 ? plan.kept.map((k) => ({ resource: displayKey(k.id), reason: k.reason })) : [],
  };
}

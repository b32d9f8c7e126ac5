// Plan → the plan comment's cluster model, at a level of detail: 0 full diffs, 1 changed fields only,
// 2 resource names only, 3 counts only. The budget picks the most detailed level that fits.
import { creationOf } from '../k8s/index.js';
import {
  counted,
  displayKey,
  keyId,
  listed,
  showTime,
  sourceReportLine,
  type FieldChange,
  type Plan,
  type PlanEntry,
  type PlanWarning,
  type ResourceKey,
} from '../model/index.js';
import { deleteHookOwners, deleteHookRuns, describeHook, hookRuns } from '../sources/index.js';
import { changeField } from './change-rows.js';
import { planGroups, warningDigest } from './plan-groups.js';
import { FOLD_OVER } from './budget.js';
import type { ClusterPlanModel, PlanResourceModel, PlanWarningModel } from './models/index.js';
import { entryDiff } from './yaml-diff.js';

export type DetailLevel = 0 | 1 | 2 | 3;

const SYMBOL = { create: '+', update: '~', prune: '-' } as const;

/** Terraform's counts: `2 to create, 3 to update, 1 to prune, 41 unchanged`. */
function planCounts(plan: Plan): string {
  const { create, update, prune, unchanged } = plan;
  return `${create.length} to create, ${update.length} to update, ${prune.length} to prune, ${unchanged} unchanged`;
}

/** Terraform's one-liner: `prod-eu: 2 to create, 3 to update, 1 to prune, 41 unchanged`. */
export function planSummary(cluster: string, plan: Plan): string {
  return `${cluster}: ${planCounts(plan)}`;
}

/** Each warning code in words, as the comment and the check run title it. */
export const WARNING_TITLES: Record<PlanWarning['code'], string> = {
  'prune-protected': 'Deletes data',
  conflict: 'Two managers, one field',
  'reverts-live-change': 'Reverts a live change',
  'chart-hand-change': 'Hand change on chart output',
  'hpa-replicas': 'HPA and Git both set replicas',
  immutable: 'Immutable field',
  'stale-snapshot': 'Old snapshot',
  'partial-snapshot': 'Partial snapshot',
  'namespace-missing': 'Namespace missing',
  unhealthy: 'Degraded now',
  'not-reconciling': 'Not reconciling',
  'not-rendered': 'Not rendered',
  'suspended-source': 'Suspended',
  'refused-by-argocd': 'Refused by Argo CD',
  'argocd-sync-option': 'Argo CD sync option',
  'argocd-compare-option': 'Argo CD compare option',
};

/** Live changes a person made that the apply undoes: what the headline counts and names. */
function liveChangesUndone(plan: Plan): FieldChange[] {
  const undone = (c: FieldChange): boolean => c.cause === 'human' && c.manager !== undefined && c.live !== undefined;
  return plan.update.flatMap((entry) => entry.changes.filter(undone));
}

/**
 * The line atop a cluster's plan: `3 to create, 1 to update, 1 to prune, 30 unchanged; 1 warning; undoes
 * 1 live change by kubectl-scale, last 03:02 UTC`.
 */
export function planHeadline(plan: Plan, reference?: string): string {
  const parts = [planCounts(plan)];
  if (plan.warnings.length) parts.push(counted(plan.warnings.length, 'warning'));
  const undone = liveChangesUndone(plan);
  if (undone.length) {
    const managers = [...new Set(undone.map((c) => c.manager!))].sort();
    const last = undone
      .map((c) => c.time ?? '')
      .sort()
      .at(-1);
    const by = managers.length <= 3 ? listed(managers) : `${managers.length} field managers`;
    const when = last ? `, last ${showTime(last, reference)}` : '';
    parts.push(`undoes ${counted(undone.length, 'live change')} by ${by}${when}`);
  }
  return parts.join('; ');
}

function at(time: string | undefined, reference: string | undefined): string {
  return time ? ` at ${showTime(time, reference)}` : '';
}

/** Who and when for a resource row, in words. */
function whoOf(entry: PlanEntry, reference: string | undefined): string {
  if (entry.action === 'create') {
    const source = entry.desired?.source;
    return source ? `declared in \`${source.file}${source.location?.line ? `:${source.location.line}` : ''}\`` : '';
  }
  if (entry.action === 'prune') {
    const created = entry.live ? creationOf(entry.live) : undefined;
    if (created) return `created by ${created.manager}${at(created.time, reference)}`;
    const timestamp = entry.live?.metadata?.creationTimestamp;
    return timestamp ? `created${at(timestamp, reference)} (manager not recorded)` : 'creator not recorded';
  }
  const overwritten = new Map<string, string[]>();
  const fieldsOf = (manager: string): string[] => {
    if (!overwritten.has(manager)) overwritten.set(manager, []);
    return overwritten.get(manager)!;
  };
  let applied: FieldChange | undefined;
  for (const change of entry.changes) {
    if (!change.manager) continue;
    if (change.cause === 'applier') {
      if (!applied || (change.time ?? '') > (applied.time ?? '')) applied = change;
      continue;
    }
    fieldsOf(change.manager).push(`\`${changeField(entry.id, change)}\`${at(change.time, reference)}`);
  }
  for (const conflict of entry.conflicts) {
    fieldsOf(conflict.manager).push(`\`${changeField(entry.id, conflict)}\`${at(conflict.time, reference)}`);
  }
  const live = [...overwritten].map(([manager, fields]) => `${manager}'s ${listed([...new Set(fields)])}`);
  if (live.length) return `overwrites ${listed(live)}`;
  if (applied) return `last applied by ${applied.manager}${at(applied.time, reference)}`;
  if (!entry.changes.length) return '';
  // No field names its writer (the live side lacks the fields): the object's maker is who set what is live,
  // as the drift pull request that codifies it says.
  const created = entry.live ? creationOf(entry.live) : undefined;
  return created
    ? `live object created by ${created.manager}${at(created.time, reference)}`
    : 'who set the live values is not recorded';
}

/** Past this many, the objects a warning names are folded behind a click. */
const OBJECTS_INLINE = 5;

function whereOf(warning: PlanWarning): string | undefined {
  return warning.file ? `${warning.file}${warning.line ? `:${warning.line}` : ''}` : undefined;
}

function warningModel(warning: PlanWarning): PlanWarningModel {
  const where = whereOf(warning);
  const objects = (warning.objects ?? []).map(displayKey);
  return {
    code: warning.code,
    title: WARNING_TITLES[warning.code],
    ...(warning.id ? { resource: displayKey(warning.id) } : {}),
    ...(where ? { where } : {}),
    message: warning.message,
    fields: [],
    objects,
    foldObjects: objects.length > OBJECTS_INLINE,
  };
}

/** Whether two warnings say the same thing about fields of one resource (only what happens differs). */
function sameAdvice(a: PlanWarning, b: PlanWarning): boolean {
  return (
    a.code === b.code &&
    a.advice !== undefined &&
    a.advice === b.advice &&
    a.message.endsWith(a.advice) &&
    b.message.endsWith(a.advice) &&
    !!a.id &&
    !!b.id &&
    keyId(a.id) === keyId(b.id)
  );
}

/**
 * One model per warning, except that warnings of one code on one resource with the same advice (three
 * reverted fields of one Deployment) make one: the advice once, then a line per field.
 */
export function warningModels(warnings: readonly PlanWarning[]): PlanWarningModel[] {
  const models: PlanWarningModel[] = [];
  for (let i = 0; i < warnings.length;) {
    let end = i + 1;
    while (end < warnings.length && sameAdvice(warnings[i], warnings[end])) end++;
    const run = warnings.slice(i, end);
    i = end;
    if (run.length === 1) {
      models.push(warningModel(run[0]));
      continue;
    }
    const { where: _where, ...first } = warningModel(run[0]);
    const fields = run.map((w) => {
      const where = whereOf(w);
      return { ...(where ? { where } : {}), message: w.message.slice(0, -w.advice!.length).trimEnd() };
    });
    models.push({ ...first, message: run[0].advice!, fields });
  }
  return models;
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
      total += cachedDiff(entry, displayKey(entry.id), cache).length + 200;
      if (total > limit) return false;
    }
  }
  return true;
}

const RESOURCES_AT_LEVEL: Record<DetailLevel, number> = { 0: Infinity, 1: Infinity, 2: 500, 3: 0 };

function fieldsOf(id: ResourceKey, entry: PlanEntry): string[] {
  return [...new Set(entry.changes.map((change) => changeField(id, change)))];
}

/** Head's generateName manifests, one row each: `Job/shop/db-migrate-*`, its file, the live objects it made. */
export function generatedRows(plan: Plan): ClusterPlanModel['generated'] {
  return (plan.generated ?? []).flatMap(({ file, generated, made }) => {
    if (!generated) return [];
    const where = generated.namespace !== undefined ? `${generated.namespace}/` : '';
    return [{ resource: `${generated.kind}/${where}${generated.prefix}*`, file, made: made ?? [] }];
  });
}

/** The hooks a sync runs, one row each. */
function hookRows(plan: Plan): ClusterPlanModel['hooks'] {
  return (plan.hooks ?? []).map(({ id, hook }) => ({
    resource: displayKey(id),
    what: describeHook(hook),
    runs: hookRuns(hook),
  }));
}

/** The hooks that run because the plan deletes their Application, one row each, PreDelete first. */
function deleteHookRows(plan: Plan): ClusterPlanModel['deleteHooks'] {
  return (plan.deleteHooks ?? []).map((entry) => ({
    resource: displayKey(entry.id),
    what: describeHook(entry.hook),
    owner: entry.application.kind,
    application: `${entry.application.namespace}/${entry.application.name}`,
    runs: deleteHookRuns(entry),
  }));
}

/**
 * Lines of a condensed plan at each level: 1 one per kind, operation and file, with fields; 2 one per
 * kind and operation across files, names only, the first 40; 3 none.
 */
const GROUPS_AT_LEVEL: Record<DetailLevel, number> = { 0: 0, 1: Infinity, 2: 40, 3: 0 };

/** The condensed form of a cluster's objects: lines of one kind, operation and file, as many as the level shows. */
function condensedView(
  plan: Plan,
  level: DetailLevel,
  snapshot: string | undefined,
): Pick<ClusterPlanModel, 'condensed' | 'groups' | 'groupsOmitted'> {
  if (level === 0) return { condensed: false, groups: [], groupsOmitted: { lines: 0, objects: 0 } };
  const all =
    level === 1 ? planGroups(plan, true, (entry) => whoOf(entry, snapshot)) : planGroups(plan, false, undefined, false);
  const groups = all.slice(0, GROUPS_AT_LEVEL[level]);
  const left = all.slice(groups.length);
  return {
    condensed: true,
    groups,
    groupsOmitted: { lines: left.length, objects: left.reduce((n, group) => n + group.count, 0) },
  };
}

function resourceViews(plan: Plan, level: DetailLevel, snapshot: string | undefined, cache: DiffCache) {
  const entries = [...plan.prune, ...plan.create, ...plan.update];
  const resources: PlanResourceModel[] = entries.slice(0, RESOURCES_AT_LEVEL[level]).map((entry) => {
    const resource = displayKey(entry.id);
    const diff = level === 0 ? cachedDiff(entry, resource, cache) : '';
    return {
      symbol: SYMBOL[entry.action],
      action: entry.action,
      resource,
      fields: level <= 1 ? fieldsOf(entry.id, entry) : [],
      who: level <= 1 ? whoOf(entry, snapshot) : '',
      ...(diff ? { diff } : {}),
    };
  });
  return { resources, resourcesOmitted: Math.max(0, entries.length - RESOURCES_AT_LEVEL[level]) };
}

export function clusterView(
  name: string,
  plan: Plan,
  level: DetailLevel,
  snapshot?: string,
  cache: DiffCache = new Map(),
): ClusterPlanModel {
  const maxWarnings = WARNINGS_AT_LEVEL[level];
  return {
    name,
    sources: (plan.sources ?? []).map(sourceReportLine),
    suspensions: (plan.suspensions ?? []).map((notice) => ({
      resource: notice.resource,
      ...(notice.since ? { since: showTime(notice.since, snapshot) } : {}),
      ...(notice.by ? { by: notice.by } : {}),
      resumeText: notice.resume.text,
      resume: notice.resume.command,
    })),
    headline: planHeadline(plan, snapshot),
    summary: planSummary(name, plan),
    counts: {
      create: plan.create.length,
      update: plan.update.length,
      prune: plan.prune.length,
      unchanged: plan.unchanged,
      warnings: plan.warnings.length,
      objects: plan.create.length + plan.update.length + plan.prune.length,
    },
    ...(snapshot ? { snapshot: showTime(snapshot) } : {}),
    warnings: warningModels(plan.warnings.slice(0, maxWarnings)),
    warningsOmitted: Math.max(0, plan.warnings.length - maxWarnings),
    warningDigest: warningDigest(plan.warnings, WARNING_TITLES),
    foldWarnings: plan.warnings.length > FOLD_OVER,
    ...resourceViews(plan, level, snapshot, cache),
    ...condensedView(plan, level, snapshot),
    kept: level <= 2 ? plan.kept.map((k) => ({ resource: displayKey(k.id), reason: k.reason })) : [],
    hooks: level <= 2 ? hookRows(plan) : [],
    deleteHooks: level <= 2 ? deleteHookRows(plan) : [],
    deleteHookOwners: deleteHookOwners(plan),
    generated: level <= 2 ? generatedRows(plan) : [],
  };
}

// `driftback plan` output for a terminal (Terraform's layout: symbol, resource, changed fields) and
// the JSON document of DESIGN.md's contract.
import {
  displayKey,
  shortValue,
  showTime,
  sourceReportLine,
  suspensionJson,
  suspensionNoticeLines,
  type FieldChange,
  type Plan,
  type PlanEntry,
  type PlanHook,
  type ResourceKey,
} from '../model/index.js';
import { describeHook, hookRuns } from '../sources/index.js';
import { changeField } from './change-rows.js';
import { planSummary } from './plan-view.js';

const SYMBOL = { create: '+', update: '~', prune: '-' } as const;

function value(v: unknown): string {
  return shortValue(v, 100);
}

function changeLine(id: ResourceKey, change: FieldChange): string {
  const at = change.time ? ` at ${showTime(change.time)}` : '';
  const who = change.manager && change.cause !== 'applier' ? `  (live value from ${change.manager}${at})` : '';
  const field = changeField(id, change);
  if (change.op === 'remove') return `      - ${field}: ${value(change.live)}${who}`;
  return `      ~ ${field}: ${value(change.live)} → ${value(change.desired)}${who}`;
}

function entryLines(entry: PlanEntry): string[] {
  const changes = entry.action === 'update' ? entry.changes.map((change) => changeLine(entry.id, change)) : [];
  return [`  ${SYMBOL[entry.action]} ${displayKey(entry.id)}`, ...changes];
}

export function renderPlanText(cluster: string, plan: Plan): string {
  const lines = [planSummary(cluster, plan)];
  if (plan.sources?.length) {
    lines.push('', 'Sources:', ...plan.sources.map((source) => `  ${sourceReportLine(source)}`));
  }
  if (plan.suspensions?.length) {
    lines.push('', 'Suspended (drift under a suspended source is not being reverted):');
    for (const [what, resume] of plan.suspensions.map(suspensionNoticeLines)) lines.push(`  ${what}`, `    ${resume}`);
  }
  if (plan.warnings.length) {
    lines.push('', 'Warnings:');
    for (const w of plan.warnings) {
      const where = w.file ? ` (${w.file}${w.line ? `:${w.line}` : ''})` : '';
      lines.push(`  ! ${w.code}${w.id ? ` ${displayKey(w.id)}` : ''}${where}: ${w.message}`);
      if (w.objects?.length) lines.push(`    not shown: ${w.objects.map(displayKey).join(', ')}`);
    }
  }
  const entries = [...plan.prune, ...plan.create, ...plan.update];
  if (entries.length) lines.push('', ...entries.flatMap(entryLines));
  if (plan.kept.length)
    lines.push('', 'Kept (never pruned):', ...plan.kept.map((k) => `  = ${displayKey(k.id)}: ${k.reason}`));
  if (plan.hooks?.length) {
    lines.push('', 'Hooks (run at each sync, not desired state):');
    for (const { id, hook } of plan.hooks)
      lines.push(`  > ${displayKey(id)}: ${describeHook(hook)}: ${hookRuns(hook)}`);
  }
  return lines.join('\n') + '\n';
}

function changeJson(change: FieldChange) {
  const { segments: _segments, ...rest } = change;
  return rest;
}

function hookJson({ id, hook, file, line }: PlanHook) {
  const { annotation, value, phases, wave, deletePolicies } = hook;
  return { id, annotation, value, phases, wave, deletePolicies, ...(file ? { file } : {}), ...(line ? { line } : {}) };
}

/** The `plan --format json` document: `{create, update, prune, unchanged, kept, warnings}`. */
export function planToJson(plan: Plan) {
  return {
    ...(plan.cluster ? { cluster: plan.cluster } : {}),
    create: plan.create.map((e) => ({
      id: e.id,
      ...(e.desired ? { file: e.desired.source.file, line: e.desired.source.location?.line } : {}),
    })),
    update: plan.update.map((e) => ({
      id: e.id,
      changes: e.changes.map(changeJson),
      ...(e.conflicts.length ? { conflicts: e.conflicts.map(({ segments: _s, ...c }) => c) } : {}),
    })),
    prune: plan.prune.map((e) => ({ id: e.id })),
    unchanged: plan.unchanged,
    kept: plan.kept,
    ...(plan.sources ? { sources: plan.sources } : {}),
    ...(plan.suspensions?.length ? { suspensions: plan.suspensions.map(suspensionJson) } : {}),
    ...(plan.hooks?.length ? { hooks: plan.hooks.map(hookJson) } : {}),
    warnings: plan.warnings.map((w) => ({
      code: w.code,
      ...(w.id ? { id: w.id } : {}),
      message: w.message,
      ...(w.file ? { file: w.file } : {}),
      ...(w.line ? { line: w.line } : {}),
      ...(w.path ? { path: w.path } : {}),
      ...(w.objects?.length ? { objects: w.objects } : {}),
    })),
  };
}

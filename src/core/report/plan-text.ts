// `driftback plan` output for a terminal (Terraform's layout: symbol, resource, changed fields) and
// the JSON document of DESIGN.md's contract.
import {
  displayKey,
  envAssignment,
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
import { deleteHookOwners, deleteHookRuns, describeHook, hookRuns } from '../sources/index.js';
import { changeField, withoutKey } from './change-rows.js';
import type { PlanWarningModel } from './models/index.js';
import { generatedRows, planSummary, warningModels } from './plan-view.js';

const SYMBOL = { create: '+', update: '~', prune: '-' } as const;

/**
 * A value on one line as the tables show it: a whole env entry as the shell writes it (`LEVEL=debug`),
 * a keyed item without the key its path names.
 */
function value(v: unknown, change: FieldChange): string {
  return envAssignment(v, change.segments) ?? shortValue(withoutKey(v, change.segments), 100);
}

function changeLine(id: ResourceKey, change: FieldChange): string {
  const at = change.time ? ` at ${showTime(change.time)}` : '';
  const who = change.manager && change.cause !== 'applier' ? `  (live value from ${change.manager}${at})` : '';
  const field = changeField(id, change);
  if (change.op === 'remove') return `      - ${field}: ${value(change.live, change)}${who}`;
  if (change.live === undefined) return `      + ${field}: ${value(change.desired, change)}${who}`;
  return `      ~ ${field}: ${value(change.live, change)} → ${value(change.desired, change)}${who}`;
}

/** A warning's lines: several fields of one resource with the same advice are one warning, a line per field. */
function warningLines(warning: PlanWarningModel): string[] {
  const where = warning.where ? ` (${warning.where})` : '';
  const lines = [`  ! ${warning.code}${warning.resource ? ` ${warning.resource}` : ''}${where}: ${warning.message}`];
  for (const field of warning.fields) lines.push(`      ${field.where ? `${field.where}: ` : ''}${field.message}`);
  if (warning.objects.length) lines.push(`    not shown: ${warning.objects.join(', ')}`);
  return lines;
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
    lines.push('', 'Warnings:', ...warningModels(plan.warnings).flatMap(warningLines));
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
  if (plan.deleteHooks?.length) {
    lines.push('', `Hooks (run when the plan deletes their ${deleteHookOwners(plan)}, not desired state):`);
    for (const entry of plan.deleteHooks) {
      const { id, hook, application } = entry;
      lines.push(
        `  > ${displayKey(id)}: ${describeHook(hook)} of ${application.kind} ${application.namespace}/${application.name}: ${deleteHookRuns(entry)}`,
      );
    }
  }
  const generated = generatedRows(plan);
  if (generated.length) {
    lines.push('', 'Created on every sync (generateName; never compared, never pruned):');
    for (const { resource, file, made } of generated)
      lines.push(`  + ${resource}: ${file}${made.length ? `; kept: ${made.join(', ')}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

function changeJson(change: FieldChange) {
  const { segments: _segments, ...rest } = change;
  return rest;
}

function hookJson({ id, hook, file, line }: PlanHook) {
  const { annotation, value, phases, wave, deletePolicies } = hook;
  const onDelete = hook.onDelete.length ? { onDelete: hook.onDelete } : {};
  return {
    id,
    annotation,
    value,
    phases,
    ...onDelete,
    wave,
    deletePolicies,
    ...(file ? { file } : {}),
    ...(line ? { line } : {}),
  };
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
    ...(plan.deleteHooks?.length
      ? {
          deleteHooks: plan.deleteHooks.map((entry) => ({
            application: entry.application,
            ...hookJson(entry),
            ...(entry.origin ? { origin: entry.origin } : {}),
          })),
        }
      : {}),
    ...(plan.generated?.length ? { generated: generatedRows(plan) } : {}),
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

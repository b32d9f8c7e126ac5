// `driftback plan` output for a terminal (Terraform's layout: symbol, resource, changed fields) and
// the JSON document of DESIGN.md's contract.
import { displayKey, type FieldChange, type Plan, type PlanEntry } from '../model/index.js';
import { planSummary } from './plan-view.js';

const SYMBOL = { create: '+', update: '~', prune: '-' } as const;

function value(v: unknown): string {
  if (v === undefined) return '(unset)';
  const text = JSON.stringify(v);
  return text.length > 100 ? text.slice(0, 97) + '…' : text;
}

function changeLine(change: FieldChange): string {
  const who = change.manager && change.cause !== 'applier' ? `  (live value from ${change.manager}${change.time ? ` at ${change.time}` : ''})` : '';
  if (change.op === 'remove') return `      - ${change.path}: ${value(change.live)}${who}`;
  return `      ~ ${change.path}: ${value(change.live)} → ${value(change.desired)}${who}`;
}

function entryLines(entry: PlanEntry): string[] {
  return [`  ${SYMBOL[entry.action]} ${displayKey(entry.id)}`, ...(entry.action === 'update' ? entry.changes.map(changeLine) : [])];
}

export function renderPlanText(cluster: string, plan: Plan): string {
  const lines = [planSummary(cluster, plan)];
  if (plan.warnings.length) {
    lines.push('', 'Warnings:');
    for (const w of plan.warnings) lines.push(`  ! ${w.code}${w.file ? ` (${w.file}${w.line ? `:${w.line}` : ''})` : ''}: ${w.message}`);
  }
  const entries = [...plan.prune, ...plan.create, ...plan.update];
  if (entries.length) lines.push('', ...entries.flatMap(entryLines));
  if (plan.kept.length) lines.push('', 'Kept (never pruned):', ...plan.kept.map((k) => `  = ${displayKey(k.id)}: ${k.reason}`));
  return lines.join('\n') + '\n';
}

function changeJson(change: FieldChange) {
  const { segments: _segments, ...rest } = change;
  return rest;
}

/** The `plan --format json` document: `{create, update, prune, unchanged, kept, warnings}`. */
export function planToJson(plan: Plan) {
  return {
    ...(plan.cluster ? { cluster: plan.cluster } : {}),
    create: plan.create.map((e) => ({ id: e.id, ...(e.desired ? { file: e.desired.source.file, line: e.desired.source.location?.line } : {}) })),
    update: plan.update.map((e) => ({ id: e.id, changes: e.changes.map(changeJson), ...(e.conflicts.length ? { conflicts: e.conflicts.map(({ segments: _s, ...c }) => c) } : {}) })),
    prune: plan.prune.map((e) => ({ id: e.id })),
    unchanged: plan.unchanged,
    kept: plan.kept,
    warnings: plan.warnings.map((w) => ({ code: w.code, ...(w.id ? { id: w.id } : {}), message: w.message, ...(w.file ? { file: w.file } : {}), ...(w.line ? { line: w.line } : {}), ...(w.path ? { path: w.path } : {}) })),
  };
}

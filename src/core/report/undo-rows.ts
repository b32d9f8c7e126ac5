// People's changes their GitOps controller is about to undo, grouped by controller, with the remedy in
// the emergency procedure's order: suspend the controller now, then merge the drift pull request. One
// builder for `driftback diff`, the drift pull request and the dashboard.
import {
  displayKey,
  isUndecided,
  isUndoneNext,
  showTime,
  type DiffResult,
  type FieldChange,
  type NextMove,
  type PathSegment,
  type ResourceKey,
} from '../model/index.js';
import { fieldPath } from '../k8s/index.js';
import { changeField, whoWhen } from './change-rows.js';
import type { UndoGroupModel } from './models/index.js';

/**
 * Every change (counted or reported) of the diff whose controller will undo it, in the diff's order.
 * Security-relevant changes waiting for a decision are left out: they are shown first on their own, and
 * nobody should be told how to keep them.
 */
function undoneChanges(
  result: Pick<DiffResult, 'resources'>,
): Array<{ resource: string; field: string; change: FieldChange; next: NextMove }> {
  return result.resources.flatMap((resource) =>
    [...resource.changes, ...(resource.reported ?? [])].flatMap((change) =>
      change.next && isUndoneNext(change.next) && !isUndecided(change.risk)
        ? [{ resource: displayKey(resource.key), field: changeField(resource.key, change), change, next: change.next }]
        : [],
    ),
  );
}

/** What a person does to keep the changes, in the order that works. */
export function undoRemedy(next: Pick<NextMove, 'what' | 'suspend'>): string {
  const suspend = next.suspend ? ` (\`${next.suspend}\`)` : '';
  return next.what === 'undo-at-commit'
    ? `To keep them, suspend automated sync before any pull request is merged${suspend}, then merge the drift pull request.`
    : `To keep them, suspend it now${suspend}, then merge the drift pull request.`;
}

/** The groups, one per controller; `reference` is the snapshot's time (times on its day show without the date). */
export function undoGroups(
  result: Pick<DiffResult, 'resources'>,
  reference: string | undefined,
  max = Infinity,
): UndoGroupModel[] {
  const groups = new Map<string, UndoGroupModel>();
  for (const { resource, field, change, next } of undoneChanges(result)) {
    let group = groups.get(next.by);
    if (!group) {
      group = { by: next.by, what: next.what, remedy: undoRemedy(next), rows: [], omitted: 0 };
      groups.set(next.by, group);
    }
    if (next.when && (!group.due || next.when < group.due)) group.due = next.when;
    if (next.overdue) group.overdue = true;
    if (group.rows.length >= max) {
      group.omitted++;
      continue;
    }
    const effect = change.desired === undefined ? 'removed' : "set back to Git's value";
    group.rows.push({ resource, field, ...whoWhen(change.manager, change.time, reference), effect, why: next.why });
  }
  return [...groups.values()].map((group) => (group.due ? { ...group, dueAt: showTime(group.due, reference) } : group));
}

/** The lines `driftback diff` prints first after risky drift: each controller, its changes, the remedy. */
export function undoLines(result: Pick<DiffResult, 'resources'>, reference: string | undefined): string[] {
  const groups = undoGroups(result, reference);
  if (groups.length === 0) return [];
  const lines = ['The controller will undo these hand changes:'];
  for (const group of groups) {
    const due = group.dueAt ? ` by ~${group.dueAt}` : '';
    lines.push(`  ${group.by}${group.what === 'undo' ? due : ' at the next commit of its source'}:`);
    for (const row of group.rows)
      lines.push(`    ${row.resource} ${row.field} (${row.who} at ${row.when}): ${row.effect}`);
    if (group.overdue) lines.push(`    ${group.by} has not reconciled since it was due: it is not reconciling.`);
    lines.push(`    ${group.remedy}`);
  }
  return [lines.join('\n')];
}

/** A change a later snapshot shows its controller undid (pipeline `undoneSince`). */
export interface UndoneRow {
  key: ResourceKey;
  path: string;
  segments?: PathSegment[];
  manager?: string;
  time?: string;
  by: string;
  at: string;
  exact: boolean;
}

/** One line per undone change: `↩️ A person's change was undone by Flux … at ~12:13 UTC: …`. */
export function undoneLines(undone: readonly UndoneRow[], reference: string | undefined): string[] {
  return undone.map((u) => {
    const field = fieldPath(u.segments?.length ? u.segments : u.path, u.key);
    const who = `${u.manager ?? 'not recorded'}, ${u.time ? showTime(u.time, reference) : 'not recorded'}`;
    const at = `${u.exact ? 'at ~' : 'before '}${showTime(u.at, reference)}`;
    return `↩️ A person's change was undone by ${u.by} ${at}: ${displayKey(u.key)} ${field} (${who})`;
  });
}

/** The JSON entries of undone changes. */
export function undoneJson(undone: readonly UndoneRow[]): object[] {
  return undone.map((u) => ({
    id: u.key,
    path: u.path,
    ...(u.manager ? { manager: u.manager } : {}),
    ...(u.time ? { time: u.time } : {}),
    by: u.by,
    at: u.at,
    exact: u.exact,
  }));
}

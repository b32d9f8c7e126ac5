// A plan too large for its diffs is read as lines that each stand for many objects: the objects of one
// kind that one operation touches in one file (or, for a prune, one source) make one line, their names
// sorted naturally and numbered runs shown as ranges (`shop/cfg-001 … shop/cfg-480`). Warnings of one
// kind make one line with a count. Every count is of objects; nothing is left uncounted.
import { displayKey, keyId, type Plan, type PlanEntry, type PlanWarning } from '../model/index.js';
import { describeSource, stampedSource } from '../sources/index.js';
import { changeField } from './change-rows.js';
import { inlineCode } from './escape.js';
import type { NameSpan, PlanGroupModel, WarningDigestModel } from './models/index.js';

const SYMBOL = { create: '+', update: '~', prune: '-' } as const;

/** Names spelled out on a line before "and N more". */
export const NAMES_SHOWN = 3;
/** Fields of a group of updates spelled out before "and N more". */
const FIELDS_SHOWN = 4;

const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Sorts names as people count: `cfg-2` before `cfg-10`. */
export function naturalSort(names: readonly string[]): string[] {
  return [...names].sort((a, b) => NATURAL.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A name's last number and what surrounds it: `shop/cfg-007` → `shop/cfg-`, 7, ``. */
function numbered(name: string): { stem: string; number: number; tail: string } | undefined {
  const match = /^(.*?)(\d{1,15})(\D*)$/.exec(name);
  return match ? { stem: match[1], number: Number(match[2]), tail: match[3] } : undefined;
}

/** Whether `b` is the name right after `a` in a numbered run (`cfg-009`, `cfg-010`). */
function follows(a: string, b: string): boolean {
  const x = numbered(a);
  const y = numbered(b);
  return !!x && !!y && x.stem === y.stem && x.tail === y.tail && y.number === x.number + 1;
}

/** Names sorted naturally, each numbered run of three or more made one span (`first … last`). */
export function nameSpans(names: readonly string[]): NameSpan[] {
  const sorted = naturalSort([...new Set(names)]);
  const spans: NameSpan[] = [];
  for (let i = 0; i < sorted.length;) {
    let end = i + 1;
    while (end < sorted.length && follows(sorted[end - 1], sorted[end])) end++;
    if (end - i >= 3) spans.push({ first: sorted[i], last: sorted[end - 1], count: end - i });
    else for (let j = i; j < end; j++) spans.push({ first: sorted[j], count: 1 });
    i = end;
  }
  return spans;
}

/** The spans a line shows and how many objects the rest hold (`… and 12 more`). */
export function shownNames(names: readonly string[], shown = NAMES_SHOWN): { names: NameSpan[]; namesOmitted: number } {
  const spans = nameSpans(names);
  // "and 1 more" says less than the name itself.
  const keep = spans.length === shown + 1 && spans[shown].count === 1 ? shown + 1 : shown;
  const omitted = spans.slice(keep).reduce((n, span) => n + span.count, 0);
  return { names: spans.slice(0, keep), namesOmitted: omitted };
}

/** A line's names as Markdown, as the `names` partial writes them: `` `a` … `b`, `c` and 4 more ``. */
export function namesText(line: { names: NameSpan[]; namesOmitted: number }): string {
  const spans = line.names.map((span) => inlineCode(span.first) + (span.last ? ` … ${inlineCode(span.last)}` : ''));
  return spans.join(', ') + (line.namesOmitted ? ` and ${line.namesOmitted} more` : '');
}

/** The object's name without its kind: `shop/cfg-001`, or `cfg` for a cluster-scoped object. */
function nameOf(entry: PlanEntry): string {
  return entry.id.namespace ? `${entry.id.namespace}/${entry.id.name}` : entry.id.name;
}

/** Where a line's objects come from: the file that declares them, or the source a prune removes them from. */
function whereOf(entry: PlanEntry): string {
  const file = entry.desired?.source.file;
  if (file) return `${{ create: 'declared in', update: 'in', prune: 'no longer in' }[entry.action]} \`${file}\``;
  const source = entry.live ? stampedSource(entry.live) : undefined;
  return source ? `applied by ${describeSource(source)}` : '';
}

/** The keys of the objects whose prune deletes data (a `prune-protected` warning names them). */
export function dataLossKeys(plan: Plan): Set<string> {
  return new Set(plan.warnings.filter((w) => w.code === 'prune-protected' && w.id).map((w) => keyId(w.id!)));
}

function groupKey(entry: PlanEntry, deletesData: boolean, byFile: boolean): string {
  const { group, kind } = entry.id;
  return JSON.stringify([entry.action, group, kind, byFile ? whereOf(entry) : '', deletesData]);
}

/** Where a line's objects come from when they may span files: the one place, or how many. */
function whereAll(entries: readonly PlanEntry[]): string {
  const places = new Set(entries.map(whereOf));
  return places.size === 1 ? [...places][0] : `across ${places.size} files`;
}

/** The fields the updates change, each with how many of the objects it changes, in first-seen order. */
function fieldCounts(entries: readonly PlanEntry[]): Array<{ name: string; objects: number }> {
  const counts = new Map<string, number>();
  for (const entry of entries)
    for (const field of new Set(entry.changes.map((change) => changeField(entry.id, change))))
      counts.set(field, (counts.get(field) ?? 0) + 1);
  return [...counts].map(([name, objects]) => ({ name, objects }));
}

/** How a line says who and when for one object (the file line that declares it, whose values it overwrites). */
export type WhoOf = (entry: PlanEntry) => string;

function groupModel(entries: PlanEntry[], deletesData: boolean, withFields: boolean, who?: WhoOf): PlanGroupModel {
  const [first] = entries;
  const single = entries.length === 1 && who ? who(first) : '';
  const fields = withFields ? fieldCounts(entries) : [];
  return {
    symbol: SYMBOL[first.action],
    action: first.action,
    kind: first.id.kind,
    count: entries.length,
    ...(entries.length === 1 ? { resource: displayKey(first.id) } : {}),
    ...shownNames(entries.map(nameOf)),
    where: single || whereAll(entries),
    fields: fields.slice(0, FIELDS_SHOWN),
    fieldsOmitted: Math.max(0, fields.length - FIELDS_SHOWN),
    deletesData,
  };
}

/**
 * The plan's objects as lines: prunes that delete data first, then the other prunes, creates and
 * updates, each line the objects of one kind one operation touches in one file or source (with
 * `byFile` false, in any file: a pull request that touches hundreds of files).
 */
export function planGroups(plan: Plan, withFields: boolean, who?: WhoOf, byFile = true): PlanGroupModel[] {
  const losing = dataLossKeys(plan);
  const groups = new Map<string, { entries: PlanEntry[]; deletesData: boolean }>();
  const ordered = [...plan.prune, ...plan.create, ...plan.update];
  const rank = (entry: PlanEntry): number => (entry.action === 'prune' && losing.has(keyId(entry.id)) ? 0 : 1);
  for (const entry of [...ordered].sort((a, b) => rank(a) - rank(b))) {
    const deletesData = rank(entry) === 0;
    const key = groupKey(entry, deletesData, byFile);
    if (!groups.has(key)) groups.set(key, { entries: [], deletesData });
    groups.get(key)!.entries.push(entry);
  }
  return [...groups.values()].map(({ entries, deletesData }) => groupModel(entries, deletesData, withFields, who));
}

/** One line per kind of warning, in the plan's order (what stops or deletes first), with the objects named. */
export function warningDigest(warnings: readonly PlanWarning[], titles: Record<string, string>): WarningDigestModel[] {
  const byCode = new Map<string, PlanWarning[]>();
  for (const warning of warnings) {
    if (!byCode.has(warning.code)) byCode.set(warning.code, []);
    byCode.get(warning.code)!.push(warning);
  }
  return [...byCode].map(([code, list]) => ({
    code,
    title: titles[code] ?? code,
    count: list.length,
    ...shownNames(list.filter((w) => w.id).map((w) => displayKey(w.id!))),
  }));
}

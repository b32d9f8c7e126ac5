// Field changes as table rows people read: the field named by keys (k8s fieldPath), values as YAML
// on one line (a keyed item's key fields left out: the path names them), who and when. Only a value on
// several lines or over 200 characters becomes a numbered YAML diff below the table; the row points at it.
import { createTwoFilesPatch } from 'diff';
import { stringify } from 'yaml';
import { fieldPath } from '../k8s/index.js';
import {
  displayKey,
  envAssignment,
  inlineValue,
  isPlainObject,
  showTime,
  type FieldChange,
  type PathSegment,
  type ResourceKey,
} from '../model/index.js';
import type { ChangeRowModel, ReportedRowModel, ValueDiffModel } from './models/index.js';

/** A value longer than this (or on several lines) is shown as a YAML diff below the table. */
const FOLD_OVER = 200;

/** Two values longer than this together show the second without the start they share. */
const PAIR_SHORT = 56;

/** Where a value may be cut: between the parts of an image reference, a path, a URL, `key=value`. */
const BOUNDARY = /[/:@=]/;

/**
 * `old → new` as people scan it: when both are long and share a start, the new value shows from the
 * part that differs (`ghcr.io/…/podinfo:6.14.0 → :6.14.1`) and the old one's middle path is elided.
 */
function abbreviatePair(git: string, live: string): { git: string; live: string } {
  if (git.length + live.length <= PAIR_SHORT) return { git, live };
  let common = 0;
  while (common < git.length && git[common] === live[common]) common++;
  let cut = common - 1;
  while (cut > 0 && !BOUNDARY.test(git[cut]!)) cut--;
  // A short shared start (`a:` of `a:1` and `a:2`) says nothing: show both whole.
  if (cut < 8 || cut >= live.length) return { git, live };
  const parts = git.slice(0, cut).split('/');
  const head = parts.length >= 3 ? `${parts[0]}/…/${parts[parts.length - 1]}` : git.slice(0, cut);
  return { git: head + git.slice(cut), live: live.slice(cut) };
}

/** Who and when, in words: the manager or `not recorded`; the time, or what is known instead. */
export function whoWhen(
  manager: string | undefined,
  time: string | undefined,
  reference: string | undefined,
): { who: string; when: string; time?: string } {
  const who = manager ?? 'not recorded';
  if (time) return { who, when: showTime(time, reference), time };
  // Nothing records when (a removal leaves no managedFields entry): it happened before the snapshot.
  return { who, when: reference ? `before ${showTime(reference)}` : 'not recorded' };
}

/** A keyed item's value without the key fields its path already names (`env[DEBUG]` → `{value: "1"}`). */
export function withoutKey(value: unknown, segments: readonly PathSegment[]): unknown {
  const last = segments[segments.length - 1];
  if (!isPlainObject(value) || typeof last !== 'object' || !('key' in last)) return value;
  const rest = Object.fromEntries(Object.entries(value).filter(([field, v]) => String(last.key[field]) !== String(v)));
  return Object.keys(rest).length ? rest : value;
}

/** A value for a row's cell on one line, or undefined when it is shown as a diff below the table. */
function cellValue(value: unknown, segments: readonly PathSegment[]): string | undefined {
  const env = envAssignment(value, segments);
  if (env !== undefined && env.length <= FOLD_OVER && !env.includes('\n')) return env;
  return inlineValue(withoutKey(value, segments), FOLD_OVER);
}

function yamlOf(value: unknown): string {
  return value === undefined ? '' : stringify(value, { lineWidth: 80, aliasDuplicateObjects: false });
}

/** A value under its field's name, as the manifest writes it (`args:` then its items), when the field has one. */
function underName(value: unknown, segments: readonly PathSegment[]): unknown {
  const last = segments[segments.length - 1];
  return value === undefined || typeof last !== 'string' ? value : { [last]: value };
}

/** A unified diff of two values as YAML, headed `--- Git` / `+++ live`, each under its field's name. */
export function valueDiff(desired: unknown, live: unknown, segments: readonly PathSegment[] = []): string {
  const before = yamlOf(underName(desired, segments));
  const after = yamlOf(underName(live, segments));
  return createTwoFilesPatch('Git', 'live', before, after, '', '', { context: 1000 })
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !line.startsWith('====') && !line.startsWith('\\'))
    .map((line) => (line.startsWith('--- ') || line.startsWith('+++ ') ? line.trimEnd() : line))
    .join('\n')
    .trim();
}

/** The field of a change as people read it. */
export function changeField(key: ResourceKey, change: Pick<FieldChange, 'path' | 'segments'>): string {
  return fieldPath(change.segments.length ? change.segments : change.path, { group: key.group, kind: key.kind });
}

/** Where rows are made: the snapshot's time (times on its day show without the date), the diffs so far. */
export interface RowContext {
  reference: string | undefined;
  resource: string;
  /** The diffs of this table; numbers count every diff of the document (`numbered`). */
  diffs: ValueDiffModel[];
  numbered: { count: number };
}

/** One change as a row; a value on several lines or over 200 characters is added to `diffs` and the row names its number. */
export function changeRow(key: ResourceKey, change: FieldChange, context: RowContext): ChangeRowModel {
  const { reference, resource, diffs } = context;
  const field = changeField(key, change);
  const segments = change.segments;
  const git = change.desired === undefined ? undefined : cellValue(change.desired, segments);
  const live = change.live === undefined ? undefined : cellValue(change.live, segments);
  const fits = (change.desired === undefined || git !== undefined) && (change.live === undefined || live !== undefined);
  const row: ChangeRowModel = {
    field,
    pointer: change.path,
    op: change.op,
    cause: change.cause,
    ...whoWhen(change.manager, change.time, reference),
  };
  // Only two strings are cut (an image, a URL): a map or list shows whole, its structure intact.
  const strings = typeof change.desired === 'string' && typeof change.live === 'string';
  if (fits && strings && git !== undefined && live !== undefined) return { ...row, ...abbreviatePair(git, live) };
  if (fits) return { ...row, ...(git !== undefined ? { git } : {}), ...(live !== undefined ? { live } : {}) };
  const number = ++context.numbered.count;
  const title = `${field || '(whole object)'} of ${resource}`;
  diffs.push({ number, title, diff: valueDiff(change.desired, change.live, segments) });
  return { ...row, diff: number };
}

/** A reported-not-codified entry as a row: the field, who made it and when, and the cause. */
export function reportedRow(
  entry: { key: ResourceKey; change?: FieldChange; reason: string; manager?: string; time?: string; cause?: string },
  reference: string | undefined,
): ReportedRowModel {
  const manager = entry.manager ?? entry.change?.manager;
  // The cause of a change nothing records the maker of says nothing more than "not recorded".
  const cause = manager ? (entry.cause ?? entry.change?.cause) : undefined;
  return {
    resource: displayKey(entry.key),
    field: entry.change ? changeField(entry.key, entry.change) : '',
    pointer: entry.change?.path ?? '',
    ...whoWhen(manager, entry.time ?? entry.change?.time, reference),
    ...(cause ? { cause } : {}),
    reason: entry.reason,
  };
}

// A field that holds chart values (a generated values ConfigMap's key, a HelmRelease's spec.values) can
// drift on its own: someone edited the live ConfigMap too. Its live value is not what the release reads
// once the edit rolls out (a generated ConfigMap is replaced by the one the generator names), so the chart
// value change is still written into the generator's source, and the field's own drift is reported beside
// it — never written as a second edit of the same text. When the two say different things for the same
// value, neither is written: both are reported with the places a person chooses between.
import { isDeepStrictEqual } from 'node:util';
import { readValues } from '../charts/index.js';
import {
  displayKey,
  getAt,
  isPlainObject,
  type ChartValuesWhere,
  type DesiredObject,
  type KubeObject,
  type PathSegment,
  type ResourceKey,
} from '../model/index.js';
import type { ValueCandidate } from './chart-candidates.js';
import { setValueAt } from './yaml-edit.js';
import type { CodifiedChange, ReportedChange } from './types.js';

/** The own live drift of a field holding chart values, beside an edit of one of those values. */
export interface HeldDrift {
  key: ResourceKey;
  segments: PathSegment[];
  /** The edit makes the field exactly what live holds: the drift is written along with it. */
  written?: { file: string; line?: number };
  /** Otherwise why the drift is reported. */
  reason: string;
}

export type HolderVerdict =
  | { type: 'none' }
  /** `whole`: live holds exactly the edited values; otherwise the same value, and other changes. */
  | { type: 'agrees'; whole: boolean }
  | { type: 'conflict'; live: unknown };

function fieldAt(object: unknown, segments: readonly PathSegment[]): unknown {
  const plain = segments.map((segment) =>
    typeof segment === 'object' && 'index' in segment ? segment.index : segment,
  );
  return plain.every((segment) => typeof segment !== 'object')
    ? getAt(object, plain as (string | number)[])
    : undefined;
}

/** The values a holder field holds (a YAML text's, a values map) and the path of `candidate`'s value in them. */
function heldValues(at: ChartValuesWhere, field: unknown, candidate: ValueCandidate) {
  // A parameter or a targetPath key holds the one value itself.
  if (at.type === 'text' || (at.type === 'object' && at.parameter)) return { values: field, path: [] };
  if (at.type === 'object') return { values: field, path: candidate.path };
  const read = typeof field === 'string' ? readValues(field) : undefined;
  return {
    values: read && 'values' in read ? read.values : undefined,
    path: [...at.path.map(String), ...candidate.path],
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  const scalar = (v: unknown) => ['string', 'number', 'boolean'].includes(typeof v);
  return isDeepStrictEqual(a, b) || (scalar(a) && scalar(b) && String(a) === String(b));
}

/** The holder's values with `value` written at `path`, as the edit makes them. */
function written(values: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0 || !isPlainObject(values)) return path.length === 0 ? value : undefined;
  const copy = structuredClone(values);
  let node: Record<string, unknown> = copy;
  for (const segment of path.slice(0, -1)) {
    if (!isPlainObject(node[segment])) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
  return copy;
}

/**
 * Whether live holds exactly what the edit writes. A YAML text (a ConfigMap's values key, a values
 * file) is the edited text, comments and layout included, or its own drift is not all written.
 */
function isWhole(
  gitField: unknown,
  liveField: unknown,
  git: { values: unknown; path: string[] },
  now: { values: unknown },
  value: unknown,
): boolean {
  if (typeof gitField !== 'string' || typeof liveField !== 'string' || git.path.length === 0)
    return sameValue(now.values, written(git.values, git.path, value));
  const edited = setValueAt(gitField, 0, git.path, value);
  return edited.ok && edited.text === liveField;
}

/** What the live holder of `candidate`'s value says of it, when the holder drifted on its own. */
export function holderVerdict(
  candidate: ValueCandidate,
  holder: { key: ResourceKey; segments: PathSegment[] } | undefined,
  declared: DesiredObject | undefined,
  live: KubeObject | undefined,
): HolderVerdict {
  if (!holder || !declared || !live) return { type: 'none' };
  const [gitField, liveField] = [fieldAt(declared.object, holder.segments), fieldAt(live, holder.segments)];
  if (liveField === undefined || isDeepStrictEqual(gitField, liveField)) return { type: 'none' };
  const [git, now] = [heldValues(candidate.at, gitField, candidate), heldValues(candidate.at, liveField, candidate)];
  const [gitValue, liveValue] = [getAt(git.values, git.path), getAt(now.values, now.path)];
  if (sameValue(liveValue, candidate.value))
    return { type: 'agrees', whole: isWhole(gitField, liveField, git, now, candidate.value) };
  return sameValue(liveValue, gitValue) ? { type: 'agrees', whole: false } : { type: 'conflict', live: liveValue };
}

function startsWith(segments: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  return prefix.every((segment, i) => isDeepStrictEqual(segments[i], segment));
}

/**
 * The written entries that are a holder's own drift while a chart value edit changes the same field
 * (a plain ConfigMap manifest whose values text is edited for a chart): two edits of one text. They
 * are not written on their own; `settleHeldDrift` writes them along with the chart edit or reports them.
 */
export function holdersEditedTwice<T extends CodifiedChange>(codified: readonly T[], held: readonly HeldDrift[]): T[] {
  return codified.filter(
    (entry) =>
      !entry.chartValue &&
      entry.change !== undefined &&
      held.some((h) => displayKey(h.key) === displayKey(entry.key) && startsWith(entry.change!.segments, h.segments)),
  );
}

/** The reported own drift of holders written along (into the codified list) or reported with its reason. */
export function settleHeldDrift(
  codified: readonly CodifiedChange[],
  reported: readonly ReportedChange[],
  held: readonly HeldDrift[],
): { codified: CodifiedChange[]; reported: ReportedChange[] } {
  const out = { codified: [...codified], reported: [] as ReportedChange[] };
  for (const entry of reported) {
    const id = displayKey(entry.key);
    const note = entry.change
      ? held.find((h) => displayKey(h.key) === id && startsWith(entry.change!.segments, h.segments))
      : undefined;
    if (note?.written) {
      const { file, line } = note.written;
      out.codified.push({ key: entry.key, change: entry.change, file, ...(line ? { line } : {}), kind: 'replace' });
    } else out.reported.push(note ? { ...entry, reason: note.reason } : entry);
  }
  return out;
}

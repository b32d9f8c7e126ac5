// A hand change on a chart's output (`kubectl scale` of a chart's Deployment, `kubectl set image`) is
// written into the chart value that sets it, found by evidence rather than guessed: each candidate value
// (chart-candidates.ts) is written into a fresh copy of the files, the cluster is rendered again with
// Helm, and the candidate counts only when exactly the live value results and nothing else changes.
// One such candidate is written; none or several, and the change is reported with the places tried.
import type {
  ChartValuePlaces,
  ChartValuesWhere,
  DesiredObject,
  FieldChange,
  KubeObject,
  ResourceKey,
} from '../model/index.js';
import { displayKey, placePointer } from '../model/index.js';
import { holderVerdict, type HeldDrift } from './held-drift.js';
import { pathText } from './yaml-locate.js';
import { setScalarAt, setValueAt, type EditResult } from './yaml-edit.js';
import { setEmbeddedValueAt } from './yaml-embedded.js';
import { valueCandidates, type ValueCandidate } from './chart-candidates.js';
import { Workspace } from './workspace.js';
import type { ChartValueEdit } from './types.js';

/** At most this many candidate values are rendered for one change (each renders the cluster again). */
const MAX_CANDIDATES = 6;

export type Checked = { ok: true } | { ok: false; reason: string };

/** What codify's checks know of the files before any edit: what proves a candidate value right. */
export interface ChartEvidence {
  files: ReadonlyMap<string, string>;
  /** The object that declares a chart (a HelmRelease, an Application), as the files render it. */
  declared(key: ResourceKey): DesiredObject | undefined;
  /** The object as live holds it, before any edit. */
  live(key: ResourceKey): KubeObject | undefined;
  /**
   * Whether `files` render exactly the change's live value and change nothing else (but the `holder`
   * field, which holds the values edited).
   */
  check(files: ReadonlyMap<string, string>, key: ResourceKey, change: FieldChange, holder?: ValueHolder): Checked;
}

type Made = { ok: true; file: string; line?: number } | { ok: false; reason: string };

/** How edits are made on a workspace: a file's text edited in place, or a field of a rendered object written where its source map says. */
export type ValueWriter = (workspace: Workspace) => {
  editFile(file: string, edit: (text: string) => EditResult): Made;
  writeObjectField(desired: DesiredObject, change: FieldChange, value: unknown): Made;
};

type ValueHolder = NonNullable<ChartValueEdit['holder']>;

/** `held`: the own live drift of the field holding the values, settled beside the edit (held-drift.ts). */
type Written =
  | { ok: true; file: string; line?: number; kind: 'replace' | 'add'; chartValue?: ChartValueEdit; held?: HeldDrift }
  | { ok: false; reason: string; held?: HeldDrift };

/** The field of an object the edit changes by design: the string holding the values, the values' own field. */
function holderOf(at: ChartValuesWhere): ValueHolder | undefined {
  if (at.type === 'embedded') return { key: at.key, segments: at.field };
  if (at.type === 'object') return { key: at.key, segments: at.path };
  if (at.type === 'text') return { key: at.holds.key, segments: at.holds.field };
  return at.holds ? { key: at.holds.key, segments: at.holds.field } : undefined;
}

/** A value inside the YAML text of an object's string field, edited in the block scalar that holds it. */
function writeEmbedded(
  write: ReturnType<ValueWriter>,
  evidence: ChartEvidence,
  candidate: ValueCandidate,
  at: Extract<ChartValuesWhere, { type: 'embedded' }>,
): Written {
  const location = evidence.declared(at.key)?.source.fields[placePointer(at.field)]?.location;
  if (!location) return { ok: false, reason: `${candidate.label} is not written in a file of the repository` };
  const segments = [...at.path, ...candidate.path];
  const done = write.editFile(location.file, (text) =>
    setEmbeddedValueAt(text, location.range, segments, candidate.value),
  );
  return done.ok ? { ...done, kind: 'replace' } : done;
}

/**
 * The value of a generator's `KEY=VALUE` text: a `literals` entry's YAML scalar written again in its own
 * quoting (re-quoted only when that quoting cannot hold the value), or an `envs` line's value characters
 * replaced byte for byte; the rest of the file is kept.
 */
function writeText(write: ReturnType<ValueWriter>, at: Extract<ChartValuesWhere, { type: 'text' }>, value: string) {
  const done = write.editFile(at.file, (text) => {
    if (at.literal) return setScalarAt(text, at.range, at.literal.before + value + at.literal.after);
    if (/[\r\n]/.test(value))
      return { ok: false, reason: 'the value has a line break, which a KEY=VALUE line cannot hold' };
    const line = text.slice(0, at.range[0]).split('\n').length;
    return { ok: true, text: text.slice(0, at.range[0]) + value + text.slice(at.range[1]), line };
  });
  return done.ok ? { ...done, kind: 'replace' as const } : done;
}

function writeValue(write: ReturnType<ValueWriter>, evidence: ChartEvidence, candidate: ValueCandidate): Written {
  const at: ChartValuesWhere = candidate.at;
  if (at.type === 'embedded') return writeEmbedded(write, evidence, candidate, at);
  if (at.type === 'text') return writeText(write, at, String(candidate.value));
  const segments = at.type === 'object' && at.parameter ? at.path : [...at.path, ...candidate.path];
  const value = at.type === 'object' && at.parameter ? String(candidate.value) : candidate.value;
  if (at.type === 'file') {
    const done = write.editFile(at.file, (text) => setValueAt(text, at.document, segments, value));
    return done.ok ? { ...done, kind: 'replace' } : done;
  }
  const declared = evidence.declared(at.key);
  if (!declared) return { ok: false, reason: `${candidate.label} is not in the render` };
  const change: FieldChange = {
    path: placePointer(segments),
    segments,
    op: 'replace',
    live: value,
    cause: 'human',
  };
  const done = write.writeObjectField(declared, change, value);
  return done.ok ? { ...done, kind: 'replace' } : done;
}

function describe(candidate: ValueCandidate): string {
  return `${candidate.path.join('.')}: ${JSON.stringify(candidate.value)} in ${candidate.label}`;
}

/** Each candidate written into a fresh copy of the files and rendered: the ones that reproduce live exactly. */
function provenCandidates(
  writer: ValueWriter,
  evidence: ChartEvidence,
  key: ResourceKey,
  change: FieldChange,
  candidates: readonly ValueCandidate[],
) {
  const proven: ValueCandidate[] = [];
  const refused: string[] = [];
  for (const candidate of candidates) {
    const trial = new Workspace(evidence.files);
    const written = writeValue(writer(trial), evidence, candidate);
    const holder = holderOf(candidate.at);
    const verdict = written.ok ? evidence.check(trial.files(), key, change, holder) : written;
    if (verdict.ok) proven.push(candidate);
    else refused.push(`${describe(candidate)} (${verdict.reason})`);
  }
  return { proven, refused };
}

/** The chart value written, for people: its path, the file or field that sets it, and what declares the chart. */
function chartValueEdit(candidate: ValueCandidate, source: string): ChartValueEdit {
  const at = candidate.at;
  const holder = holderOf(at);
  const path = at.type === 'embedded' ? at.field : at.type === 'text' ? [] : at.path;
  const where = (at.type === 'file' && at.path.length === 0) || at.type === 'text' ? at.file : pathText(path);
  const name =
    at.type === 'file' || at.type === 'text' ? undefined : `${at.key.kind} ${at.key.namespace}/${at.key.name}`;
  const object = name && name !== source ? { object: name } : {};
  return { path: candidate.path, where, ...object, source, ...(holder ? { holder } : {}) };
}

type Target = { key: ResourceKey; change: FieldChange; source: string; places: ChartValuePlaces };

/**
 * The one proven candidate written, unless the live object holding its value was edited too and says
 * another value for it: then both live changes are reported, with the places to choose between.
 */
function writeProven(
  write: ReturnType<ValueWriter>,
  evidence: ChartEvidence,
  chosen: ValueCandidate,
  target: Target,
): Written {
  const holder = holderOf(chosen.at);
  const verdict = holder
    ? holderVerdict(chosen, holder, evidence.declared(holder.key), evidence.live(holder.key))
    : { type: 'none' as const };
  const value = `${chosen.path.join('.')}: ${JSON.stringify(chosen.value)} in ${chosen.label}`;
  const field = `${displayKey(target.key)} ${target.change.path}`;
  if (holder && verdict.type === 'conflict') {
    const held = `${displayKey(holder.key)} says ${chosen.path.join('.')}: ${JSON.stringify(verdict.live)}`;
    return {
      ok: false,
      reason: `set by the chart of ${target.source}: ${value} renders the live value, but the live ${held} (edited there too); change the right one by hand`,
      held: {
        ...holder,
        reason: `edited live, and the live ${field} disagrees: ${value} renders it; change the right one by hand`,
      },
    };
  }
  const written = writeValue(write, evidence, chosen);
  if (!written.ok) return written;
  const chartValue = chartValueEdit(chosen, target.source);
  if (!holder || verdict.type === 'none') return { ...written, chartValue };
  const reason = `its other live changes are not written: only ${value} is, for ${field}, and the controller applies what Git holds; make them in ${chosen.label} by hand to keep them`;
  const along =
    verdict.type === 'agrees' && verdict.whole ? { written: { file: written.file, line: written.line } } : {};
  return { ...written, chartValue, held: { ...holder, reason, ...along } };
}

/** Writes the change into the one chart value proven to render it, on `workspace`; else why not. */
export function writeChartChange(
  writer: ValueWriter,
  workspace: Workspace,
  evidence: ChartEvidence | undefined,
  target: Target,
): Written {
  const what = `set by the chart of ${target.source}`;
  if (!evidence) return { ok: false, reason: `${what}; change its values there by hand` };
  const { candidates, elsewhere } = valueCandidates(target.places, target.change);
  const alsoSet = elsewhere.length > 0 ? `; also set in ${elsewhere.join(', ')}, not written by driftback` : '';
  if (candidates.length === 0)
    return {
      ok: false,
      reason: `${what}: no chart value of it holds the Git value${alsoSet}; change it there by hand`,
    };
  if (candidates.length > MAX_CANDIDATES)
    return {
      ok: false,
      reason: `${what}: ${candidates.length} chart values hold the Git value; change the right one by hand`,
    };
  const { proven, refused } = provenCandidates(writer, evidence, target.key, target.change, candidates);
  if (proven.length === 1) return writeProven(writer(workspace), evidence, proven[0]!, target);
  const reason =
    proven.length === 0
      ? `no one chart value renders exactly the live value and nothing else: ${refused.join('; ')}`
      : `${proven.length} chart values each render the live value: ${proven.map(describe).join('; ')}`;
  return { ok: false, reason: `${what}: ${reason}${alsoSet}; change the right one by hand` };
}

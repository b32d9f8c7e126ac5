// After codify, the edited files are rendered and diffed against live again: the codified
// changes must be gone and everything else must be exactly as before — except what the render
// itself adds to a new file (an overlay's labels, annotations or patches, a source's stamps), which
// live cannot have yet. A failed check names the objects involved, so the edit at fault can be dropped.
import {
  displayKey,
  escapeSegment,
  isPlainObject,
  keyId,
  type DesiredObject,
  type DiffResult,
  type FieldChange,
  type FieldOrigin,
  type PathSegment,
  type ResourceKey,
} from '../model/index.js';
import type { CodifiedChange, SelfCheck } from './types.js';
import type { Verdict } from './isolate-failures.js';
import { explainedByRenames, generatedRenames } from './generated-renames.js';

function segmentsId(segments: readonly PathSegment[]): string {
  return JSON.stringify(segments);
}

type OriginType = FieldOrigin['type'];

/**
 * Whether a change only says that the render sets fields live lacks, each set by a transformer or a
 * source (labels, annotations, patches, stamps; `from` narrows which) rather than written in the
 * object's own file.
 */
export function addedByRender(
  desired: DesiredObject,
  change: FieldChange,
  from: (origin: OriginType) => boolean = (origin) => origin !== 'resource',
): boolean {
  if (change.live !== undefined && change.live !== null) return false;
  const leaves: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [key, item] of Object.entries(value)) walk(item, `${pointer}/${escapeSegment(key)}`);
    } else leaves.push(pointer);
  };
  walk(change.desired, change.path);
  return leaves.every((pointer) => {
    const origin = desired.source.fields[pointer]?.origin.type;
    return origin !== undefined && from(origin);
  });
}

/**
 * One string per thing the diff reports: a changed field, a conflict, a missing or extra resource.
 * Changes on `newFiles` (key ids) that the render adds are left out: live cannot have them yet.
 */
export function driftFingerprints(result: DiffResult, newFiles: ReadonlySet<string> = new Set()): Map<string, string> {
  const prints = new Map<string, string>();
  for (const resource of result.resources) {
    const id = keyId(resource.key);
    if (resource.status === 'missing' || resource.status === 'extra')
      prints.set(`${id}|${resource.status}`, `${resource.status} ${id}`);
    for (const change of resource.changes) {
      if (newFiles.has(id) && resource.desired && addedByRender(resource.desired, change)) continue;
      prints.set(`${id}|${segmentsId(change.segments)}|${change.op}`, `${id} ${change.path} (${change.op})`);
    }
    for (const conflict of resource.conflicts)
      prints.set(`${id}|${segmentsId(conflict.segments)}|conflict`, `${id} ${conflict.path} (conflict)`);
  }
  return prints;
}

/** A changed field's print, as driftFingerprints keys it. */
export function changePrint(key: ResourceKey, change: Pick<FieldChange, 'segments' | 'op'>): string {
  return `${keyId(key)}|${segmentsId(change.segments)}|${change.op}`;
}

function codifiedPrint(key: ResourceKey, entry: CodifiedChange): string {
  const id = keyId(key);
  if (entry.kind === 'new-file') return `${id}|extra`;
  if (entry.kind === 'remove-field') return `${id}|${segmentsId(entry.change!.segments)}|conflict`;
  return changePrint(key, entry.change!);
}

/** driftFingerprints with each changed field's Git value: a field whose value moved counts as changed. */
function valuedPrints(result: DiffResult): Map<string, string> {
  const prints = driftFingerprints(result);
  for (const resource of result.resources)
    for (const change of resource.changes) {
      const print = changePrint(resource.key, change);
      prints.set(print, `${displayKey(resource.key)} ${change.path} to ${JSON.stringify(change.desired) ?? 'nothing'}`);
    }
  return prints;
}

type Holder = NonNullable<CodifiedChange['chartValue']>['holder'] & {};

/**
 * Prints without the changes of the fields that hold edited chart values (a ConfigMap's values text, a
 * HelmRelease's spec.values): that drift is the edit itself, and the controller applies it.
 */
function heldBy(holders: readonly Holder[]): (prints: Map<string, string>) => Map<string, string> {
  const prefixes = holders.map(({ key, segments }) => `${keyId(key)}|${segmentsId(segments).slice(0, -1)}`);
  return (prints) => new Map([...prints].filter(([print]) => !prefixes.some((prefix) => print.startsWith(prefix))));
}

/**
 * Prints without what a renamed generated object explains (a hashed ConfigMap of edited values rolled
 * out under a new name, and the references that follow it): that drift is the edit itself too.
 */
function renamedBy(before: DiffResult, after: DiffResult, holders: readonly Holder[]) {
  const explained = explainedByRenames(after, generatedRenames(before, after, holders));
  const prints = new Set([
    ...explained.extra.map((key) => `${keyId(key)}|extra`),
    ...explained.missing.map((key) => `${keyId(key)}|missing`),
    ...explained.changes.map(({ key, change }) => changePrint(key, change)),
  ]);
  return (all: Map<string, string>): Map<string, string> => new Map([...all].filter(([print]) => !prints.has(print)));
}

/**
 * Whether one edit of a chart value renders exactly the live value of the change `target` names and
 * changes nothing else; drift that other selected edits codify (`codified`) may vanish with it.
 */
export function checkValueEdit(
  before: DiffResult,
  after: DiffResult,
  target: string,
  codified: ReadonlySet<string>,
  holder?: Holder,
): SelfCheck {
  const holders = holder ? [holder] : [];
  const held = heldBy(holders);
  const [was, now] = [held(valuedPrints(before)), renamedBy(before, after, holders)(held(valuedPrints(after)))];
  if (now.has(target)) return { ok: false, reason: `renders ${now.get(target)}, not the live value` };
  const changed = [...now].filter(([print, text]) => was.get(print) !== text).map(([, text]) => text);
  const vanished = [...was.keys()].filter((print) => print !== target && !now.has(print) && !codified.has(print));
  const also = [...changed, ...vanished.map((print) => was.get(print)!)];
  if (also.length === 0) return { ok: true };
  return { ok: false, reason: `would also change ${also.slice(0, 3).join(', ')}` };
}

/** The verdict; on failure it names the objects (key ids) whose drift came out other than expected. */
export function compareAfterCodify(
  before: DiffResult,
  after: DiffResult,
  codified: readonly CodifiedChange[],
  renderErrors: readonly string[],
): Verdict {
  if (renderErrors.length > 0)
    return {
      ok: false,
      reason: `the edited files do not render: ${renderErrors.slice(0, 3).join('; ')}`,
      involved: [],
    };
  const newFiles = new Set(codified.filter((entry) => entry.kind === 'new-file').map((entry) => keyId(entry.key)));
  const expected = driftFingerprints(before);
  for (const entry of codified) {
    expected.delete(codifiedPrint(entry.key, entry));
    // A field removed from Git to end a conflict takes the controller's change to it along.
    if (entry.kind === 'remove-field') {
      const prefix = `${keyId(entry.key)}|${segmentsId(entry.change!.segments)}|`;
      for (const print of [...expected.keys()]) if (print.startsWith(prefix)) expected.delete(print);
    }
  }
  const holders = codified.flatMap((entry) => (entry.chartValue?.holder ? [entry.chartValue.holder] : []));
  // A holder's own drift goes with the edit of its values (reported beside it: held-drift.ts).
  const kept = heldBy(holders)(expected);
  for (const print of [...expected.keys()]) if (!kept.has(print)) expected.delete(print);
  const actual = renamedBy(before, after, holders)(heldBy(holders)(driftFingerprints(after, newFiles)));
  const stillThere = [...actual.keys()].filter((print) => !expected.has(print));
  const vanished = [...expected.keys()].filter((print) => !actual.has(print));
  if (stillThere.length === 0 && vanished.length === 0) return { ok: true };
  const describe = (prints: string[], map: Map<string, string>): string =>
    prints
      .slice(0, 5)
      .map((p) => map.get(p))
      .join(', ');
  const parts: string[] = [];
  if (stillThere.length > 0) parts.push(`still or newly different after the edit: ${describe(stillThere, actual)}`);
  if (vanished.length > 0) parts.push(`changed although not codified: ${describe(vanished, expected)}`);
  const involved = [...new Set([...stillThere, ...vanished].map((print) => print.slice(0, print.indexOf('|'))))];
  return { ok: false, reason: parts.join('; '), involved };
}

/** The SelfCheck a caller sees: the verdict without the objects it names. */
export function asSelfCheck(verdict: Verdict): SelfCheck {
  return verdict.ok ? { ok: true } : { ok: false, reason: verdict.reason };
}

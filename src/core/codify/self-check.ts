// After codify, the edited files are rendered and diffed against live again: the codified
// changes must be gone and everything else must be exactly as before. A failed check means an
// edit landed somewhere other than intended, so nothing is written.
import { keyId, type DiffResult, type PathSegment, type ResourceKey } from '../model/index.js';
import type { CodifiedChange, SelfCheck } from './types.js';

function segmentsId(segments: readonly PathSegment[]): string {
  return JSON.stringify(segments);
}

/** One string per thing the diff reports: a changed field, a conflict, a missing or extra resource. */
export function driftFingerprints(result: DiffResult): Map<string, string> {
  const prints = new Map<string, string>();
  for (const resource of result.resources) {
    const id = keyId(resource.key);
    if (resource.status === 'missing' || resource.status === 'extra')
      prints.set(`${id}|${resource.status}`, `${resource.status} ${id}`);
    for (const change of resource.changes)
      prints.set(`${id}|${segmentsId(change.segments)}|${change.op}`, `${id} ${change.path} (${change.op})`);
    for (const conflict of resource.conflicts)
      prints.set(`${id}|${segmentsId(conflict.segments)}|conflict`, `${id} ${conflict.path} (conflict)`);
  }
  return prints;
}

function codifiedPrint(key: ResourceKey, entry: CodifiedChange): string {
  const id = keyId(key);
  if (entry.kind === 'new-file') return `${id}|extra`;
  if (entry.kind === 'remove-field') return `${id}|${segmentsId(entry.change!.segments)}|conflict`;
  return `${id}|${segmentsId(entry.change!.segments)}|${entry.change!.op}`;
}

export function compareAfterCodify(
  before: DiffResult,
  after: DiffResult,
  codified: readonly CodifiedChange[],
  renderErrors: readonly string[],
): SelfCheck {
  if (renderErrors.length > 0)
    return { ok: false, reason: `the edited files do not render: ${renderErrors.slice(0, 3).join('; ')}` };
  const expected = driftFingerprints(before);
  for (const entry of codified) {
    expected.delete(codifiedPrint(entry.key, entry));
    // A field removed from Git to end a conflict takes the controller's change to it along.
    if (entry.kind === 'remove-field') {
      const prefix = `${keyId(entry.key)}|${segmentsId(entry.change!.segments)}|`;
      for (const print of [...expected.keys()]) if (print.startsWith(prefix)) expected.delete(print);
    }
  }
  const actual = driftFingerprints(after);
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
  return { ok: false, reason: parts.join('; ') };
}

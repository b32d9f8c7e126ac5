// A partial result: part of the cluster was not rendered (a source whose build fails, a file that does
// not read, a Helm chart, a remote base). The rest was compared, planned or codified; what was not is
// said in lines of text (the command line's stderr) and in the JSON document (`partial: true`,
// `notRendered`, each source's `scope`).
import { posix } from 'node:path';
import type { NotRenderedSource, SourceReport } from '../model/index.js';
import { declaredAgainReason } from '../manifests/index.js';
import { describeNotRendered, type PartialParts } from '../pipeline/index.js';

/** Whether anything of the cluster was not rendered. */
export function isPartial(parts: PartialParts): boolean {
  return parts.notRendered.length > 0 || parts.sources.some((source) => source.scope === 'not-rendered');
}

/** What was not rendered (each problem, with its file and line) or not compared, one line each. */
export function partialLines(parts: PartialParts): string[] {
  const shown = (file: string): string =>
    file && parts.displayRoot && parts.displayRoot !== '.' ? posix.join(parts.displayRoot, file) : file;
  return [
    ...parts.notRendered.map((part) => `warning: ${describeNotRendered({ ...part, file: shown(part.file) })}`),
    ...(parts.notCompared ?? []).map(
      (document) =>
        // Every file a note names is shown from one root: the place it is about and the one it points to.
        `note: ${shown(document.file)} (document ${document.document + 1}): ` +
        (document.declaredAgain ? declaredAgainReason(document.declaredAgain, shown) : document.reason) +
        (document.made?.length ? `; made from it: ${document.made.join(', ')}` : ''),
    ),
  ];
}

/** The JSON document's account of a partial result; empty when everything was rendered. */
export function partialJson(parts: PartialParts): { partial?: true; notRendered?: NotRenderedSource[] } {
  if (!isPartial(parts)) return {};
  return { partial: true, ...(parts.notRendered.length ? { notRendered: [...parts.notRendered] } : {}) };
}

/**
 * The notes that say something more than what was not rendered: a source's `unsupported` note
 * ("HelmRelease shop/webapp: reported, not rendered: …") goes when the source is already listed as not
 * rendered (a part of it, or its report), so each fact is said once.
 */
export function notesBesideNotRendered<T extends { code: string; source: string }>(
  notes: readonly T[],
  notRendered: readonly NotRenderedSource[],
  sources: ReadonlyArray<Pick<SourceReport, 'name' | 'scope'>> = [],
): T[] {
  const listed = new Set([
    // A part names its source as `Kind/namespace/name`; a note as `namespace/name`.
    ...notRendered.flatMap((part) => (part.source ? [part.source.slice(part.source.indexOf('/') + 1)] : [])),
    ...sources.filter((source) => source.scope === 'not-rendered').map((source) => source.name),
  ]);
  return notes.filter((note) => note.code !== 'unsupported' || !listed.has(note.source));
}

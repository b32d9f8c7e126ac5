// A partial result: part of the cluster was not rendered (a source whose build fails, a file that does
// not read, a Helm chart, a remote base). The rest was compared, planned or codified; what was not is
// said on stderr, in `--format json` (`partial: true`, `notRendered`, each source's `scope`), and by
// the exit status 3, which no complete result has: a script that treats 2 or more as "not trusted"
// keeps doing so.
import { join } from 'node:path';
import type { NotRenderedSource, SkippedDocument, SourceReport } from '../core/model/index.js';
import { describeNotRendered, type ClusterRender, type EvaluatedDrift } from '../core/pipeline/index.js';
import type { CliIO } from './io.js';

/** Exit status of a command whose result is partial (documented in docs/cli.md). */
export const EXIT_PARTIAL = 3;

export interface PartialParts {
  /** Parts of the tree not rendered (each problem of a source not rendered among them). */
  notRendered: readonly NotRenderedSource[];
  /** Every source of the cluster, with its scope. */
  sources: readonly Pick<SourceReport, 'scope'>[];
  /** Documents of the repository not compared (a manifest with generateName), with why. */
  notCompared?: readonly SkippedDocument[];
  /** How file names are prefixed so they resolve from the working directory ('.': not at all). */
  displayRoot?: string;
}

/** What a drift evaluation left unrendered or uncompared. */
export function evaluationParts(evaluated: EvaluatedDrift, displayRoot: string): PartialParts {
  const notRendered = evaluated.drift.notRendered?.sources ?? [];
  return { notRendered, sources: evaluated.sources, notCompared: evaluated.notCompared, displayRoot };
}

/** What a render (a plan's head) left unrendered or uncompared. */
export function renderParts(rendered: ClusterRender, displayRoot: string): PartialParts {
  const notCompared = rendered.skipped.filter((document) => document.code === 'generate-name');
  return { notRendered: rendered.notRendered ?? [], sources: rendered.sources, notCompared, displayRoot };
}

/** Whether anything of the cluster was not rendered. */
export function isPartial(parts: PartialParts): boolean {
  return parts.notRendered.length > 0 || parts.sources.some((source) => source.scope === 'not-rendered');
}

/** The sources a report lists: those of GitOps controllers, and any source that was not rendered. */
export function reportedSources(sources: readonly SourceReport[]): SourceReport[] {
  const listed = sources.some((source) => source.controller !== 'kubectl' || source.scope === 'not-rendered');
  return listed ? [...sources] : [];
}

/** What was not rendered (each problem, with its file and line) or not compared, on stderr, one line each. */
export function warnPartial(io: CliIO, parts: PartialParts): void {
  const shown = (file: string): string =>
    parts.displayRoot && parts.displayRoot !== '.' ? join(parts.displayRoot, file) : file;
  for (const part of parts.notRendered)
    io.stderr.write(`warning: ${describeNotRendered({ ...part, file: shown(part.file) })}\n`);
  for (const document of parts.notCompared ?? [])
    io.stderr.write(`note: ${shown(document.file)} (document ${document.document + 1}): ${document.reason}\n`);
}

/** The JSON document's account of a partial result; empty when everything was rendered. */
export function partialJson(parts: PartialParts): { partial?: true; notRendered?: NotRenderedSource[] } {
  if (!isPartial(parts)) return {};
  return { partial: true, ...(parts.notRendered.length ? { notRendered: [...parts.notRendered] } : {}) };
}

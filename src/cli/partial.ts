// A partial result on the command line: what was not rendered or compared goes to stderr, and the exit
// status 3, which no complete result has, says so: a script that treats 2 or more as "not trusted"
// keeps doing so. The lines and the JSON account are core/report's (partial-result.ts).
import type { SourceReport } from '../core/model/index.js';
import type { EvaluatedDrift, PartialParts } from '../core/pipeline/index.js';
import { partialLines } from '../core/report/index.js';
import type { CliIO } from './io.js';

/** Exit status of a command whose result is partial (documented in docs/cli.md). */
export const EXIT_PARTIAL = 3;

/** What a drift evaluation left unrendered or uncompared. */
export function evaluationParts(evaluated: EvaluatedDrift, displayRoot: string): PartialParts {
  const notRendered = evaluated.drift.notRendered?.sources ?? [];
  return { notRendered, sources: evaluated.sources, notCompared: evaluated.notCompared, displayRoot };
}

/** The sources a report lists: those of GitOps controllers, and any source that was not rendered. */
export function reportedSources(sources: readonly SourceReport[]): SourceReport[] {
  const listed = sources.some((source) => source.controller !== 'kubectl' || source.scope === 'not-rendered');
  return listed ? [...sources] : [];
}

/** What was not rendered or not compared, on stderr, one line each. */
export function warnPartial(io: CliIO, parts: PartialParts): void {
  for (const line of partialLines(parts)) io.stderr.write(`${line}\n`);
}

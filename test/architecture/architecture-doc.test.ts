// docs/architecture.md is checked against the code: its picture of the stages is the one
// scripts/gen-architecture.ts makes today (core's declared stages, the imports between src/'s
// folders), and every folder of src/ and src/core/ has its paragraph. A folder added, moved or
// renamed fails here until the doc says what it owns.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_ORDER, CORE_STAGES } from './core-order.js';
import { ROOT } from './import-graph.js';
import { DOC, diagramIn, foldersOf, stagesDiagram, withDiagram } from './stages-diagram.js';

const doc = readFileSync(join(ROOT, DOC), 'utf8');

/** The folders a doc gives a paragraph: a line that opens with the folder's path in bold code. */
function paragraphsIn(text: string, under: string): string[] {
  const pattern = new RegExp(`^\\*\\*\`${under}/([\\w-]+)/\`\\*\\*`, 'gm');
  return [...text.matchAll(pattern)].map((match) => match[1]!).sort();
}

describe(DOC, () => {
  it('holds the picture of the stages the code makes (npx tsx scripts/gen-architecture.ts)', () => {
    expect(diagramIn(doc)).toBe(stagesDiagram());
  });

  it('the staleness check can fail: another picture is told apart, and a doc without markers is refused', () => {
    const stale = withDiagram(doc, stagesDiagram().replace('report/', 'reports/'));
    expect(diagramIn(stale)).not.toBe(stagesDiagram());
    expect(() => withDiagram('# no markers', 'x')).toThrow(/markers/);
    expect(paragraphsIn('**`src/core/plan/`** owns plans.\n', 'src/core')).toEqual(['plan']);
  });

  it('groups every folder of src/core into a stage, in the declared order', () => {
    expect(CORE_STAGES.flatMap((stage) => stage.folders)).toEqual([...CORE_ORDER]);
  });

  it('has one paragraph per folder of src/ and of src/core/, and none for a folder that is gone', () => {
    expect(paragraphsIn(doc, 'src')).toEqual(foldersOf('src'));
    expect(paragraphsIn(doc, 'src/core')).toEqual(foldersOf('src/core'));
  });
});

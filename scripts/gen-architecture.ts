// Writes the picture of the stages into docs/architecture.md, between its markers, from the code:
// core's declared stages (test/architecture/core-order.ts) and the imports between src/'s folders.
//   npx tsx scripts/gen-architecture.ts
// test/architecture/architecture-doc.test.ts fails while the doc holds an older picture.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../test/architecture/import-graph.js';
import { DOC, stagesDiagram, withDiagram } from '../test/architecture/stages-diagram.js';

const path = join(ROOT, DOC);
writeFileSync(path, withDiagram(readFileSync(path, 'utf8'), stagesDiagram()));
console.log(`${DOC}: the picture of the stages is written`);

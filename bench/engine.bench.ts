// The whole engine against parsing alone: render the manifests and diff them with a live snapshot,
// versus only JSON.parse of the snapshot and a YAML parse of the manifests. Generated clusters of
// 1,000, 10,000 and 50,000 resources (BENCH_SIZES=1000,10000 to choose), a few percent drifted by
// hand. Prints time, the engine/parse ratio (target ≤ 3×), time per resource (flat when growth is
// linear) and memory: heap growth across the run and the process's peak RSS.
import { parseAllDocuments } from 'yaml';
import { configSchema } from '../src/core/config/index.js';
import { diffResources } from '../src/core/diff/index.js';
import { renderManifests } from '../src/core/manifests/index.js';
import type { KubeObject } from '../src/core/model/index.js';
import { generateCluster, snapshotText } from './generate.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const config = configSchema.parse({});
const sizes = (process.env.BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);

function parseOnly(files: Map<string, string>, liveText: string): number {
  const live = (JSON.parse(liveText) as { items: KubeObject[] }).items;
  let documents = 0;
  for (const text of files.values()) documents += parseAllDocuments(text).map((doc) => doc.toJS()).length;
  return live.length + documents;
}

function renderAndDiff(files: Map<string, string>, liveText: string): { changed: number; errors: number } {
  const live = (JSON.parse(liveText) as { items: KubeObject[] }).items;
  const rendered = renderManifests(files, '', { defaultNamespace: 'default' });
  const result = diffResources(rendered.objects, live, { config });
  return { changed: result.summary.modified + result.summary.missing + result.summary.extra, errors: rendered.errors.length };
}

/** Best of `runs` wall times in ms, and the heap growth of the last run (MB) measured after a GC. */
function measure<T>(runs: number, body: () => T): { ms: number; heapMb: number; value: T } {
  let best = Infinity;
  let value!: T;
  let heapMb = 0;
  for (let i = 0; i < runs; i++) {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const start = performance.now();
    value = body();
    best = Math.min(best, performance.now() - start);
    heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  }
  return { ms: best, heapMb, value };
}

const rows: string[][] = [];
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
measure(1, () => renderAndDiff(generateCluster({ resources: 500, seed: 7 }).files, snapshotText(generateCluster({ resources: 500, seed: 7 })))); // warm up the JIT

for (const size of sizes) {
  const cluster = generateCluster({ resources: size, seed: 42 });
  const liveText = snapshotText(cluster);
  const inputMb = (liveText.length + [...cluster.files.values()].reduce((sum, text) => sum + text.length, 0)) / 2 ** 20;
  const runs = size <= 10_000 ? 3 : 1;
  const parse = measure(runs, () => parseOnly(cluster.files, liveText));
  const engine = measure(runs, () => renderAndDiff(cluster.files, liveText));
  const rssPeakMb = process.resourceUsage().maxRSS / 1024;
  if (engine.value.errors > 0) throw new Error(`render reported ${engine.value.errors} errors on generated manifests`);
  rows.push([
    fmt(cluster.resourceCount),
    fmt(inputMb, 1),
    fmt(cluster.drifted),
    fmt(engine.value.changed),
    fmt(parse.ms),
    fmt(engine.ms),
    fmt(engine.ms / parse.ms, 2) + '×',
    fmt((engine.ms * 1000) / cluster.resourceCount),
    fmt(engine.heapMb),
    fmt(rssPeakMb),
  ]);
}

const header = ['resources', 'input MB', 'drifted', 'reported', 'parse ms', 'render+diff ms', 'ratio', 'µs/resource', 'heap Δ MB', 'peak RSS MB'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells: string[]) => '| ' + cells.map((cell, i) => cell.padStart(widths[i])).join(' | ') + ' |';
console.log(line(header));
console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
for (const row of rows) console.log(line(row));
console.log('\nratio = render+diff time / parse-only time (target ≤ 3×); µs/resource stays flat when growth is linear.');

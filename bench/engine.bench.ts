// The whole engine against parsing alone, on generated clusters (bench/generate.ts): a pull request
// that deletes a few apps, planned against the live snapshot, next to the drift diff of the same
// cluster. The engine run is what the App does for one cluster: JSON.parse the snapshot, render head
// and diff it with live (drift), render base, and plan head × base × live (create / update / prune).
// The baseline only parses: JSON.parse of the snapshot and a YAML parse of every manifest.
//
// Sizes: BENCH_SIZES=1000,10000,50000 (the default). Prints, per size, wall and CPU time of both,
// the engine/parse ratio (target ≤ 3×), CPU µs per resource and its growth against the smallest size
// (stays near 1× when cost is linear; a quadratic step would multiply it by the size ratio), heap
// growth and the process's peak RSS (target < 1 GiB), then the engine's CPU time per stage.
// CPU time (process.cpuUsage) is the figure to trust on a shared machine: wall time includes waiting
// for a core.
import { parseAllDocuments } from 'yaml';
import { configSchema } from '../src/core/config/index.js';
import { diffResources } from '../src/core/diff/index.js';
import { newParseCache, renderManifests } from '../src/core/manifests/index.js';
import type { KubeObject } from '../src/core/model/index.js';
import { planChanges } from '../src/core/plan/index.js';
import { generateCluster, snapshotText, type GeneratedCluster } from './generate.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const config = configSchema.parse({});
const sizes = (process.env.BENCH_SIZES ?? '1000,10000,50000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isFinite(n) && n > 0);
const CAPTURED_AT = '2026-12-02T03:05:00Z';
const NOW = '2026-12-02T03:10:00Z';
/** Apps (5 objects each) the pull request deletes: the plan must prune their live objects. */
const APPS_REMOVED = 3;

type Stage = 'parse live' | 'render head' | 'diff' | 'render base' | 'plan';
const STAGES: Stage[] = ['parse live', 'render head', 'diff', 'render base', 'plan'];

interface Outcome {
  drift: number;
  create: number;
  update: number;
  prune: number;
  errors: number;
}

/** CPU milliseconds (user + system) of the whole process since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function parseOnly(files: ReadonlyMap<string, string>, liveText: string): number {
  const live = (JSON.parse(liveText) as { items: KubeObject[] }).items;
  let documents = 0;
  for (const text of files.values()) documents += parseAllDocuments(text).map((doc) => doc.toJS()).length;
  return live.length + documents;
}

/** The engine's run for one cluster; `stages` receives the CPU ms of each step. */
function engine(
  headFiles: ReadonlyMap<string, string>,
  baseFiles: ReadonlyMap<string, string>,
  liveText: string,
  stages: Map<Stage, number>,
): Outcome {
  const step = <T>(stage: Stage, body: () => T): T => {
    const start = process.cpuUsage();
    const value = body();
    stages.set(stage, (stages.get(stage) ?? 0) + cpuMsSince(start));
    return value;
  };
  const live = step('parse live', () => (JSON.parse(liveText) as { items: KubeObject[] }).items);
  // One parse cache for both renders, as the App plans a pull request: base re-uses head's parses.
  const cache = newParseCache();
  const head = step('render head', () => renderManifests(headFiles, '', { defaultNamespace: 'default', cache }));
  const drift = step('diff', () => diffResources(head.objects, live, { config }));
  const base = step('render base', () => renderManifests(baseFiles, '', { defaultNamespace: 'default', cache }));
  cache.clear(); // as the App drops it before planning
  const plan = step('plan', () =>
    planChanges({
      head: head.objects,
      base: base.objects,
      live,
      config,
      now: NOW,
      snapshot: { capturedAt: CAPTURED_AT, complete: true, errors: [] },
    }),
  );
  return {
    drift: drift.summary.modified + drift.summary.missing + drift.summary.extra,
    create: plan.create.length,
    update: plan.update.length,
    prune: plan.prune.length,
    errors: head.errors.length + base.errors.length,
  };
}

interface Measured<T> {
  wallMs: number;
  cpuMs: number;
  heapMb: number;
  value: T;
}

/** Best of `runs` by CPU time (the least disturbed run), with its wall time; heap growth measured after a GC. */
function measure<T>(runs: number, body: () => T): Measured<T> {
  let best: Measured<T> | undefined;
  for (let i = 0; i < runs; i++) {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    const value = body();
    const run = {
      wallMs: performance.now() - wallStart,
      cpuMs: cpuMsSince(cpuStart),
      heapMb: (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20,
      value,
    };
    if (!best || run.cpuMs < best.cpuMs) best = run;
  }
  return best!;
}

/** Head = the cluster's files without its last APPS_REMOVED apps; base = all of them. */
function pullRequestFiles(cluster: GeneratedCluster): { head: Map<string, string>; base: Map<string, string> } {
  const paths = [...cluster.files.keys()];
  const removed = new Set(paths.slice(-Math.min(APPS_REMOVED, paths.length - 1)));
  return { head: new Map([...cluster.files].filter(([path]) => !removed.has(path))), base: cluster.files };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((cell, i) => cell.padStart(widths[i])).join(' | ') + ' |';
  console.log(line(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of rows) console.log(line(row));
}

// Warm up the JIT on a small cluster so the first size is not charged for compilation.
{
  const warm = generateCluster({ resources: 500, seed: 7 });
  const files = pullRequestFiles(warm);
  engine(files.head, files.base, snapshotText(warm), new Map());
  parseOnly(warm.files, snapshotText(warm));
}

const rows: string[][] = [];
const stageRows: string[][] = [];
let smallestCpuPerResource: number | undefined;
for (const size of sizes) {
  const cluster = generateCluster({ resources: size, seed: 42 });
  const liveText = snapshotText(cluster);
  const files = pullRequestFiles(cluster);
  const inputMb = (liveText.length + [...cluster.files.values()].reduce((sum, text) => sum + text.length, 0)) / 2 ** 20;
  const runs = size <= 1_000 ? 3 : size <= 10_000 ? 2 : 1;
  const parse = measure(runs, () => parseOnly(cluster.files, liveText));
  const stages = new Map<Stage, number>();
  const run = measure(runs, () => {
    stages.clear();
    return engine(files.head, files.base, liveText, stages);
  });
  const rssPeakMb = process.resourceUsage().maxRSS / 1024;
  if (run.value.errors > 0) throw new Error(`render reported ${run.value.errors} errors on generated manifests`);
  const cpuPerResource = (run.cpuMs * 1000) / cluster.resourceCount;
  smallestCpuPerResource ??= cpuPerResource;
  rows.push([
    fmt(cluster.resourceCount),
    fmt(inputMb, 1),
    fmt(cluster.drifted),
    fmt(run.value.drift),
    `${run.value.update}/${run.value.prune}`,
    fmt(parse.wallMs),
    fmt(parse.cpuMs),
    fmt(run.wallMs),
    fmt(run.cpuMs),
    fmt(run.cpuMs / parse.cpuMs, 2) + '×',
    fmt(run.wallMs / parse.wallMs, 2) + '×',
    fmt(cpuPerResource),
    fmt(cpuPerResource / smallestCpuPerResource, 2) + '×',
    fmt(run.heapMb),
    fmt(rssPeakMb),
  ]);
  const stageTotal = [...stages.values()].reduce((sum, ms) => sum + ms, 0);
  const driftPathMs = (['parse live', 'render head', 'diff'] as const).reduce(
    (sum, stage) => sum + (stages.get(stage) ?? 0),
    0,
  );
  stageRows.push([
    fmt(cluster.resourceCount),
    ...STAGES.map((stage) => `${fmt(stages.get(stage) ?? 0)} (${fmt((100 * (stages.get(stage) ?? 0)) / stageTotal)}%)`),
    fmt(driftPathMs / parse.cpuMs, 2) + '×',
  ]);
}

table(
  [
    'resources',
    'input MB',
    'drifted',
    'drift found',
    'plan upd/prune',
    'parse ms',
    'parse CPU ms',
    'engine ms',
    'engine CPU ms',
    'ratio CPU',
    'ratio wall',
    'CPU µs/res',
    'growth',
    'heap Δ MB',
    'peak RSS MB',
  ],
  rows,
);
console.log(
  '\nengine = parse live + render head + diff + render base + plan; parse = JSON.parse of the snapshot + YAML parse of the manifests.' +
    '\nratio = engine / parse (target ≤ 3×). growth = CPU µs/resource against the smallest size (≈1× when linear).' +
    `\nplan upd/prune: updates (hand drift an apply reverts) / prunes (the ${APPS_REMOVED} apps head deletes). peak RSS is the process's so far (target < 1,024 MB).\n`,
);
table(['resources', ...STAGES.map((stage) => `${stage} CPU ms`), 'drift path ratio'], stageRows);
console.log(
  '\ndrift path = parse live + render head + diff (what a reconcile computes), against the same parse-only CPU time.',
);

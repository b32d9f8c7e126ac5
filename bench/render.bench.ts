// Rendering cost per MB by shape: the same manifests (bench/generate.ts apps, ~1 MB) as one large
// file, and as a tree of 100 small files, each listed by a kustomization. A render must cost no more
// per MB for one large file than for many small ones. When kubectl is on PATH, `kubectl kustomize`
// (kustomize's own build) renders the same trees, its process start measured on an empty
// kustomization and taken off, for the ratio against kustomize.
//
// BENCH_RENDER_MB=1 (the default) sets the size; BENCH_RENDER_ROUNDS=7 the renders per shape (median).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { renderManifests } from '../src/core/manifests/index.js';
import { generateCluster } from './generate.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const targetBytes = Number(process.env.BENCH_RENDER_MB ?? 1) * 1024 * 1024;
const rounds = Number(process.env.BENCH_RENDER_ROUNDS ?? 7);

/** Generated app documents, as many as make `bytes`. */
function documents(bytes: number): string[] {
  const cluster = generateCluster({ resources: Math.ceil(bytes / 300) });
  const docs = [...cluster.files.values()].flatMap((text) => text.split(/^---\n/m));
  const out: string[] = [];
  let size = 0;
  for (const doc of docs) {
    if (size >= bytes) break;
    out.push(doc);
    size += Buffer.byteLength(doc);
  }
  return out;
}

function kustomization(names: string[]): string {
  return `resources:\n${names.map((n) => `- ${n}`).join('\n')}\n`;
}

function shapes(docs: string[]): Record<string, Map<string, string>> {
  const single = new Map([
    ['kustomization.yaml', kustomization(['all.yaml'])],
    ['all.yaml', docs.join('---\n')],
  ]);
  const tree = new Map<string, string>();
  const perFile = Math.ceil(docs.length / 100);
  const names: string[] = [];
  for (let i = 0; i * perFile < docs.length; i++) {
    const name = `part-${String(i).padStart(3, '0')}.yaml`;
    names.push(name);
    tree.set(name, docs.slice(i * perFile, (i + 1) * perFile).join('---\n'));
  }
  tree.set('kustomization.yaml', kustomization(names));
  return { 'one 1 MB file': single, '100-file tree': tree };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function cpuMs(body: () => void): number {
  gc();
  const start = process.cpuUsage();
  body();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function kubectlMs(dir: string): number | undefined {
  try {
    const start = process.hrtime.bigint();
    execFileSync('kubectl', ['kustomize', dir], { stdio: ['ignore', 'ignore', 'ignore'] });
    return Number(process.hrtime.bigint() - start) / 1e6;
  } catch {
    return undefined;
  }
}

function writeTree(root: string, files: Map<string, string>): void {
  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const docs = documents(targetBytes);
const work = mkdtempSync(join(tmpdir(), 'driftback-render-bench-'));
try {
  writeTree(join(work, 'empty'), new Map([['kustomization.yaml', 'resources: []\n']]));
  const startup = median(Array.from({ length: 3 }, () => kubectlMs(join(work, 'empty')) ?? NaN));
  const rows: string[] = [];
  const perMb: number[] = [];
  for (const [shape, files] of Object.entries(shapes(docs))) {
    const mb = [...files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1024 / 1024;
    let objects = 0;
    renderManifests(files, ''); // warm-up
    const ms = median(
      Array.from({ length: rounds }, () =>
        cpuMs(() => {
          objects = renderManifests(files, '').objects.length;
        }),
      ),
    );
    perMb.push(ms / mb);
    const dir = join(work, shape.replace(/\W+/g, '-'));
    writeTree(dir, files);
    const kustomize = median(Array.from({ length: 3 }, () => kubectlMs(dir) ?? NaN)) - startup;
    const against = Number.isFinite(kustomize)
      ? `, kubectl kustomize ${kustomize.toFixed(0)} ms (driftback ${(ms / kustomize).toFixed(2)}×)`
      : '';
    rows.push(
      `${shape}: ${files.size} files, ${mb.toFixed(2)} MB, ${objects} objects: ${ms.toFixed(0)} ms CPU, ${(ms / mb).toFixed(0)} ms/MB${against}`,
    );
  }
  for (const row of rows) console.log(row);
  console.log(`one large file / many small files, per MB: ${(perMb[0] / perMb[1]).toFixed(2)}× (target ≤ 1×)`);
  if (!Number.isFinite(startup)) console.log('kubectl is not on PATH: no comparison with kustomize');
  else console.log(`kubectl kustomize start-up (taken off): ${startup.toFixed(0)} ms`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// Ingest under load: the App (SQLite in a temp DATA_DIR) runs in a child process; 200 uploads of
// ~2 MB gzip snapshots of realistic objects go to it at concurrency 20 on loopback. Prints errors
// (target 0), p50/p99 latency, throughput and the App's peak RSS from /proc (target < 1 GiB).
//
// Each upload is for its own cluster, so the per-cluster rate limit (DRIFTBACK_UPLOADS_PER_MINUTE)
// never applies and every snapshot is stored and queued. The body is built as gzip members (a small
// head naming the cluster, the shared items, a tail): valid gzip that the server inflates whole, so
// the client does not spend minutes compressing 200 near-identical bodies.
// Knobs: BENCH_INGEST_UPLOADS (200), BENCH_INGEST_CONCURRENCY (20), BENCH_INGEST_GZIP_MB (2).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { deriveToken } from '../src/core/token/index.js';
import { generateCluster } from './generate.js';
import { percentile, runLoad, type LoadRequest } from './load.js';

const UPLOADS = Number(process.env.BENCH_INGEST_UPLOADS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_INGEST_CONCURRENCY ?? 20);
const TARGET_GZIP_BYTES = Number(process.env.BENCH_INGEST_GZIP_MB ?? 2) * 1024 * 1024;
const SECRET = 'bench-ingest-secret-0123456789abcdef';
const REPOSITORY = 'acme/platform-gitops';
const MiB = 1024 * 1024;

/** Live objects with what makes real snapshots compress worse than generated ones: random uids and versions. */
function itemsJson(resources: number): string {
  const { live } = generateCluster({ resources, seed: 7 });
  for (const object of live) {
    const metadata = object.metadata as unknown as Record<string, unknown>;
    metadata.uid = randomBytes(16)
      .toString('hex')
      .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
    metadata.resourceVersion = String(1_000_000 + Math.floor(Math.random() * 9_000_000));
  }
  return live.map((object) => JSON.stringify(object)).join(',');
}

/** Grows the item count until the gzip of the items reaches the target size. */
function sharedItems(): { gzip: Buffer; jsonBytes: number; objects: number } {
  let resources = 2_000;
  for (;;) {
    const json = itemsJson(resources);
    const gzip = gzipSync(json);
    if (gzip.length >= TARGET_GZIP_BYTES * 0.95 || resources > 200_000)
      return { gzip, jsonBytes: Buffer.byteLength(json), objects: resources };
    resources = Math.ceil(resources * (TARGET_GZIP_BYTES / gzip.length) * 1.02);
  }
}

function uploadFor(index: number, items: Buffer): LoadRequest {
  const cluster = `bench-${index}`;
  const head = `{"apiVersion":"driftback.dev/v1","kind":"Snapshot","repository":"${REPOSITORY}","cluster":"${cluster}","capturedAt":"2026-12-02T03:05:00Z","agent":{"version":"bench"},"scope":{"complete":true,"errors":[]},"items":[`;
  return {
    path: '/api/v1/snapshots',
    headers: {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      authorization: `Bearer ${deriveToken(SECRET, REPOSITORY, cluster)}`,
      'x-driftback-repository': REPOSITORY,
      'x-driftback-cluster': cluster,
    },
    body: [gzipSync(head), items, gzipSync(']}')],
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      server.close(() => resolve(address.port));
    });
  });
}

function statusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : NaN;
}

async function waitUntilUp(url: string, child: { exitCode: number | null }): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`the App exited with code ${child.exitCode} before answering`);
    try {
      if ((await fetch(`${url}/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the App did not answer /ping within 60 s');
}

const items = sharedItems();
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'driftback-bench-ingest-'));
const root = fileURLToPath(new URL('..', import.meta.url));
// Ingest needs no GitHub credentials; SQLite even when the shell has a DATABASE_URL.
const {
  APP_ID: _appId,
  PRIVATE_KEY: _key,
  PRIVATE_KEY_PATH: _keyPath,
  DATABASE_URL: _databaseUrl,
  ...inherited
} = process.env;
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/app/main.ts')], {
  cwd: root,
  env: {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DRIFTBACK_TOKEN_SECRET: SECRET,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
try {
  await waitUntilUp(url, child);
  const idleRssKiB = statusKiB(child.pid!, 'VmRSS');
  let sampledPeakKiB = idleRssKiB;
  const sampler = setInterval(() => (sampledPeakKiB = Math.max(sampledPeakKiB, statusKiB(child.pid!, 'VmRSS'))), 50);
  const result = await runLoad(
    url,
    Array.from({ length: UPLOADS }, (_, i) => () => uploadFor(i, items.gzip)),
    CONCURRENCY,
  );
  clearInterval(sampler);
  const peakKiB = statusKiB(child.pid!, 'VmHWM');
  const accepted = result.statuses['202'] ?? 0;
  const errors = result.failures.length + (result.sent - accepted - result.failures.length);
  const gzipMiB = (items.gzip.length / MiB).toFixed(2);
  const jsonMiB = (items.jsonBytes / MiB).toFixed(1);
  console.log(
    `snapshot: ${items.objects} objects, ${jsonMiB} MiB JSON, ${gzipMiB} MiB gzip (ratio ${(items.jsonBytes / items.gzip.length).toFixed(1)}x)`,
  );
  console.log(
    `uploads: ${result.sent} at concurrency ${CONCURRENCY}, one cluster each (no rate limit applies); statuses ${JSON.stringify(result.statuses)}`,
  );
  console.log(
    `errors: ${errors} (target 0)${result.failures.length ? ' — ' + [...new Set(result.failures)].join('; ') : ''}`,
  );
  console.log(
    `latency: p50 ${percentile(result.latenciesMs, 50).toFixed(0)} ms, p99 ${percentile(result.latenciesMs, 99).toFixed(0)} ms, max ${Math.max(...result.latenciesMs).toFixed(0)} ms`,
  );
  const seconds = result.elapsedMs / 1000;
  console.log(
    `throughput: ${(result.sent / seconds).toFixed(1)} uploads/s, ${((items.jsonBytes * result.sent) / MiB / seconds).toFixed(0)} MiB/s of JSON ingested, ${(result.bytesSent / MiB / seconds).toFixed(1)} MiB/s on the wire (${seconds.toFixed(1)} s)`,
  );
  console.log(
    `App RSS: idle ${(idleRssKiB / 1024).toFixed(0)} MiB, peak ${(peakKiB / 1024).toFixed(0)} MiB (VmHWM; sampled ${(sampledPeakKiB / 1024).toFixed(0)} MiB) — target < 1024 MiB: ${peakKiB / 1024 < 1024 ? 'met' : 'NOT met'}`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

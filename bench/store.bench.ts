// Store and queue figures: snapshot write/read cost and compression on both backends, batched vs
// one-by-one blob lookups, and how far the SQLite queue coalesces a burst of enqueues.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import Database from 'better-sqlite3';
import { SqliteJobQueue } from '../src/app/queue/sqlite-queue.js';
import type { Snapshot } from '../src/core/model/index.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { Store } from '../src/store/types.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

function snapshotOf(objects: number, capturedAt: string): Snapshot {
  const items = Array.from({ length: objects }, (_, i) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: `app-${i}`,
      namespace: `team-${i % 20}`,
      uid: randomBytes(16).toString('hex'),
      resourceVersion: String(100_000 + i),
      labels: { 'app.kubernetes.io/name': `app-${i}`, 'app.kubernetes.io/part-of': 'shop' },
      managedFields: [
        {
          manager: 'kustomize-controller',
          operation: 'Apply',
          time: capturedAt,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:template': {} } },
        },
      ],
    },
    spec: {
      replicas: 2,
      template: {
        spec: {
          containers: [
            {
              name: 'app',
              image: `registry.example.com/app-${i}:1.${i % 7}.0`,
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
            },
          ],
        },
      },
    },
    status: { replicas: 2, readyReplicas: 2, observedGeneration: 3 },
  }));
  return {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/platform-gitops',
    cluster: 'prod-eu',
    capturedAt,
    scope: { complete: true, errors: [] },
    items,
  } as Snapshot;
}

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function benchStore(name: string, store: Store): Promise<void> {
  const puts = 10;
  const objects = 2_000;
  const snapshots = Array.from({ length: puts }, (_, i) =>
    snapshotOf(objects, new Date(Date.UTC(2026, 11, 2, 3, i)).toISOString()),
  );
  const jsonBytes = JSON.stringify(snapshots[0]).length;
  let stored = 0;
  const write = await time(async () => {
    for (const [i, snapshot] of snapshots.entries())
      stored = (await store.putSnapshot(snapshot, { digest: `sha256:${name}-${i}`, receivedAt: snapshot.capturedAt }))
        .meta.bytes;
  });
  const read = await time(async () => {
    for (let i = 0; i < puts; i++) await store.latestSnapshot('acme/platform-gitops', 'prod-eu');
  });
  const blobs = new Map(
    Array.from(
      { length: 1_000 },
      (_, i) => [`${name}-sha-${i}`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n`] as const,
    ),
  );
  await store.putBlobs(blobs, Date.now());
  const batched = await time(() => store.getBlobs([...blobs.keys()]));
  const single = await time(async () => {
    for (const sha of blobs.keys()) await store.getBlobs([sha]);
  });
  console.log(
    `${name}: snapshot of ${objects} objects, ${(jsonBytes / 1e6).toFixed(2)} MB JSON → ${(stored / 1e3).toFixed(0)} kB stored (${(jsonBytes / stored).toFixed(1)}× smaller)`,
  );
  console.log(
    `${name}: putSnapshot ${(write.ms / puts).toFixed(1)} ms each, latestSnapshot ${(read.ms / puts).toFixed(1)} ms each`,
  );
  console.log(
    `${name}: 1,000 blobs in one getBlobs ${batched.ms.toFixed(1)} ms vs one by one ${single.ms.toFixed(1)} ms (${(single.ms / batched.ms).toFixed(0)}× faster batched)`,
  );
}

async function benchSqliteQueue(file: string): Promise<void> {
  const db = new Database(file);
  const queue = new SqliteJobQueue({
    file,
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  let runs = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await queue.start({
    reconcile: async () => {
      runs++;
      await held;
    },
  });
  const enqueues = 10_000;
  const keys = 100;
  const burst = await time(async () => {
    for (let i = 0; i < enqueues; i++) await queue.enqueue('reconcile', `acme/repo#cluster-${i % keys}`, { n: i });
  });
  release();
  const drained = await time(async () => {
    while ((db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n > 0)
      await new Promise((r) => setTimeout(r, 5));
  });
  await queue.stop();
  db.close();
  console.log(
    `sqlite queue: ${enqueues} enqueues over ${keys} keys in ${burst.ms.toFixed(0)} ms (${((burst.ms * 1000) / enqueues).toFixed(0)} µs each) → ${runs} runs (${(enqueues / runs).toFixed(0)}× coalesced), drained in ${drained.ms.toFixed(0)} ms`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'driftback-bench-'));
const sqlite = SqliteStore.open({ file: join(dir, 'driftback.sqlite') });
try {
  await benchStore('sqlite', sqlite);
  await benchSqliteQueue(join(dir, 'driftback.sqlite'));
} finally {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}

const schema = `bench_${process.pid}`;
try {
  const postgres = await PostgresStore.open({ connectionString: PG_URL, schema });
  try {
    await benchStore('postgres', postgres);
  } finally {
    await postgres.close();
  }
} catch (error) {
  console.log(`postgres: skipped (${(error as Error).message})`);
} finally {
  const client = new pg.Client({ connectionString: PG_URL });
  await client
    .connect()
    .then(() => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    .catch(() => undefined);
  await client.end().catch(() => undefined);
}

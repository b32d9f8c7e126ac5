// Disk use of the App's SQLite database for 50 clusters uploading every 5 minutes: a simulated day
// of uploads (each stored as the agent's gzip, with its observations), then a week more of hourly
// pushes to every cluster's repository, 5 manifests each (new versions are read and cached, every
// current version is read each hour, versions nobody read for 2 days are evicted by the hourly
// maintenance job). Prints the database size and what holds it. Knobs: BENCH_DISK_CLUSTERS (50),
// BENCH_DISK_RESOURCES (500).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { evictUnusedBlobs } from '../src/app/blob-cache.js';
import { gitBlobSha } from '../src/github/git-hash.js';
import type { Snapshot } from '../src/core/model/index.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { generateCluster, snapshotText } from './generate.js';

const CLUSTERS = Number(process.env.BENCH_DISK_CLUSTERS ?? 50);
const RESOURCES = Number(process.env.BENCH_DISK_RESOURCES ?? 500);
const EVERY_MS = 5 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Files changed by each hourly push to a cluster's repository (all read by its render). */
const FILES_PER_PUSH = 5;

const dir = mkdtempSync(join(tmpdir(), 'driftback-disk-'));
const store = SqliteStore.open({ file: join(dir, 'driftback.sqlite') });
const MiB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

try {
  const start = Date.parse('2026-12-01T00:00:00Z');
  // One generated cluster, each of the 50 with its own repository and objects (names differ).
  const template = generateCluster({ resources: RESOURCES, seed: 7 });
  const text = snapshotText(template);
  const gzip = gzipSync(text);
  const clusters = Array.from({ length: CLUSTERS }, (_, i) => ({
    repository: `acme/gitops-${i}`,
    cluster: `prod-${i}`,
  }));
  const snapshotOf = (c: { repository: string; cluster: string }, capturedAt: string): Snapshot => ({
    ...(JSON.parse(text) as Snapshot),
    repository: c.repository,
    cluster: c.cluster,
    capturedAt,
  });
  const base = JSON.parse(text) as Snapshot;

  // What each cluster's render reads: every manifest of its repository, at its current version.
  const paths = [...template.files.keys()];
  const current = clusters.map(
    (_, i) => new Map<string, string>(paths.map((path) => [path, `# ${i} ${path}\n${template.files.get(path)!}`])),
  );
  for (const files of current)
    await store.putBlobs(new Map([...files.values()].map((body) => [gitBlobSha(body), body] as const)), start);

  let now = start;
  let uploads = 0;
  // Each hour: a push to every repository changes FILES_PER_PUSH manifests (the new versions are
  // read and cached), the reconciles read (touch) every current version, maintenance evicts.
  const push = async (hour: number) => {
    for (const files of current) {
      const changed = new Map<string, string>();
      for (let k = 0; k < FILES_PER_PUSH; k++) {
        const path = paths[(hour * FILES_PER_PUSH + k) % paths.length];
        const body = `${files.get(path)!.split('\n')[0]} @${hour}\n${template.files.get(path)!}`;
        files.set(path, body);
        changed.set(gitBlobSha(body), body);
      }
      await store.putBlobs(changed, now);
      await store.touchBlobs(
        [...files.values()].map((body) => gitBlobSha(body)),
        now,
      );
    }
    await evictUnusedBlobs(store, now);
  };
  // A day of uploads every 5 minutes, with the hourly pushes.
  for (let step = 0; now < start + DAY; step++, now += EVERY_MS) {
    for (const c of clusters) {
      const capturedAt = new Date(now).toISOString();
      const stored = await store.putSnapshot(snapshotOf(c, capturedAt), {
        digest: `sha256:${c.cluster}-${step}`,
        receivedAt: capturedAt,
        compressed: gzip,
      });
      await store.recordObservations(
        c.repository,
        c.cluster,
        stored.meta.id,
        capturedAt,
        base.items.slice(0, 20).map((item) => `${item.kind}/${item.metadata.name}/spec`),
      );
      uploads++;
    }
    if (step % 12 === 0) await push(step / 12);
  }
  const afterDay = sizes();
  // A week more of hourly pushes: superseded versions age out after BLOB_UNUSED_DAYS.
  for (let hour = 24; now < start + 8 * DAY; hour++, now += HOUR) await push(hour);
  const afterWeek = sizes();

  console.log(
    `${CLUSTERS} clusters × ${RESOURCES} resources (${base.items.length} live objects each; snapshot ${mib(text.length)} JSON, ${(gzip.length / 1024).toFixed(0)} KiB gzip), uploading every 5 minutes: ${uploads} uploads in a day`,
  );
  console.log('');
  console.log(
    '| after | database file | snapshots (10 kept per cluster) | observations | blob cache | blobs + listings kept |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [label, s] of [
    ['1 day of uploads and hourly pushes', afterDay],
    ['8 days: steady state (versions unread for 2 days evicted)', afterWeek],
  ] as const) {
    console.log(
      `| ${label} | ${mib(s.file)} | ${mib(s.snapshots)} | ${mib(s.observations)} | ${mib(s.blobs)} | ${s.blobRows.toLocaleString('en-US')} |`,
    );
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

function sizes() {
  // The store hands out no handle: the bench reads the file through its own connection.
  const db = new Database(join(dir, 'driftback.sqlite'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const one = <T>(sql: string) => db.prepare(sql).get() as T;
  const figures = {
    file: statSync(join(dir, 'driftback.sqlite')).size,
    snapshots: one<{ n: number }>('SELECT COALESCE(SUM(LENGTH(body)), 0) AS n FROM snapshots').n,
    observations: one<{ n: number }>('SELECT COALESCE(SUM(LENGTH(fingerprints)), 0) AS n FROM observations').n,
    blobs: one<{ n: number }>('SELECT COALESCE(SUM(LENGTH(text)), 0) AS n FROM blobs').n,
    blobRows: one<{ n: number }>('SELECT COUNT(*) AS n FROM blobs').n,
  };
  db.close();
  return figures;
}

// SQLite queue after a crash: rows left `running` by a dead process run again at the next start,
// and a crashed run with a newer pending one for the same key runs once, on the newer payload.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteJobQueue } from '../../src/app/queue/sqlite-queue.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { sqliteOf } from '../support/sqlite-file.js';
import { recordingLogger, waitFor } from './support.js';

describe('SQLite queue recovery', () => {
  let dir: string;
  let store: SqliteStore;
  let queue: SqliteJobQueue | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'driftback-crash-'));
    store = SqliteStore.open({ file: join(dir, 'driftback.sqlite') });
  });
  afterEach(async () => {
    await queue?.stop(1_000);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // What a process killed mid-run leaves behind.
  function crashedRow(key: string, state: 'running' | 'pending', payload: Record<string, unknown>): void {
    sqliteOf(store)
      .prepare(`INSERT INTO jobs (queue, key, payload, state, attempt, run_at) VALUES ('reconcile', ?, ?, ?, 1, 0)`)
      .run(key, JSON.stringify(payload), state);
  }

  it('re-runs the jobs a crashed process was running, and folds them into newer pending ones', async () => {
    crashedRow('acme/repo#prod', 'running', { snapshotId: 'snp_1' });
    crashedRow('acme/repo#prod', 'pending', { snapshotId: 'snp_2' });
    crashedRow('acme/repo#staging', 'running', { snapshotId: 'snp_3' });
    const logger = recordingLogger();
    queue = new SqliteJobQueue({ file: join(dir, 'driftback.sqlite'), logger });
    const seen: string[] = [];
    await queue.start({
      reconcile: async (payload, meta) => void seen.push(`${meta.key}:${String(payload.snapshotId)}`),
    });
    await waitFor(
      () => (sqliteOf(store).prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n === 0,
      'the queue to drain',
    );
    expect(seen.sort()).toEqual(['acme/repo#prod:snp_2', 'acme/repo#staging:snp_3']);
    expect(logger.entries.find((e) => /interrupted/.test(e.message))?.fields).toEqual({ jobs: 1 });
  });

  it('runs a delayed retry at once when a new enqueue arrives for its key', async () => {
    sqliteOf(store)
      .prepare(
        `INSERT INTO jobs (queue, key, payload, state, attempt, run_at) VALUES ('reconcile', 'acme/repo#prod', '{"n":1}', 'pending', 3, ?)`,
      )
      .run(Date.now() + 3_600_000);
    queue = new SqliteJobQueue({ file: join(dir, 'driftback.sqlite'), logger: recordingLogger() });
    const seen: Array<{ n: unknown; attempt: number }> = [];
    await queue.start({ reconcile: async (payload, meta) => void seen.push({ n: payload.n, attempt: meta.attempt }) });
    await queue.enqueue('reconcile', 'acme/repo#prod', { n: 2 });
    await waitFor(() => seen.length === 1, 'the run');
    expect(seen).toEqual([{ n: 2, attempt: 1 }]);
  });
});

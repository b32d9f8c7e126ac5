// createQueue matches the queue to the store's database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createQueue } from '../../src/app/queue/create-queue.js';
import { GraphileJobQueue } from '../../src/app/queue/graphile-queue.js';
import { SqliteJobQueue } from '../../src/app/queue/sqlite-queue.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { PG_URL } from '../store/support.js';
import { sqliteOf } from '../support/sqlite-file.js';
import { recordingLogger } from './support.js';

describe('createQueue', () => {
  const logger = recordingLogger();

  it('keeps jobs in the SQLite file of a SQLite store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftback-cq-'));
    const store = SqliteStore.open({ file: join(dir, 'driftback.sqlite') });
    try {
      const queue = createQueue({ store, logger });
      expect(queue).toBeInstanceOf(SqliteJobQueue);
      await queue.enqueue('reconcile', 'acme/repo#prod', { reason: 'push' });
      expect(sqliteOf(store).prepare('SELECT queue, key, payload FROM jobs').all()).toEqual([
        { queue: 'reconcile', key: 'acme/repo#prod', payload: '{"reason":"push"}' },
      ]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses graphile-worker for a PostgreSQL store or a database URL', () => {
    const pgStore = { backend: { type: 'postgres', connectionString: PG_URL, schema: 'public' } } as unknown as Store;
    expect(createQueue({ store: pgStore, logger })).toBeInstanceOf(GraphileJobQueue);
    expect(createQueue({ databaseUrl: PG_URL, logger })).toBeInstanceOf(GraphileJobQueue);
  });

  it('refuses a store with no database behind it', () => {
    expect(() => createQueue({ store: {} as Store, logger })).toThrow(/no database behind it/);
  });
});

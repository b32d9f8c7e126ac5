// openStore picks the backend from the environment's settings.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { dropSchema, PG_URL, uniqueSchema } from './support.js';
import { sqliteOf } from '../support/sqlite-file.js';

describe('openStore', () => {
  it('opens a WAL-mode SQLite file in the data directory by default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftback-open-'));
    try {
      const store = await openStore({ dataDir: join(dir, 'nested') });
      expect(store.backend?.type).toBe('sqlite');
      expect(existsSync(join(dir, 'nested', 'driftback.sqlite'))).toBe(true);
      expect(sqliteOf(store).pragma('journal_mode', { simple: true })).toBe('wal');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses PostgreSQL when a database URL is given, even with a data directory', async () => {
    const schema = uniqueSchema('open');
    const store = await openStore({ databaseUrl: PG_URL, dataDir: '/nonexistent/never-created', schema });
    try {
      expect(store.backend).toEqual({ type: 'postgres', connectionString: PG_URL, schema });
      expect(existsSync('/nonexistent/never-created')).toBe(false);
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });

  it('says which file it cannot open and what to check when DATA_DIR is unusable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftback-open-'));
    try {
      writeFileSync(join(dir, 'not-a-dir'), 'x');
      await expect(openStore({ dataDir: join(dir, 'not-a-dir') })).rejects.toThrow(
        /database unavailable \(sqlite\): cannot open .*not-a-dir\/driftback\.sqlite.*DATA_DIR/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

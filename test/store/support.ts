// Factories for the store suite: a fresh SQLite file or a fresh PostgreSQL schema per test, both
// removed afterwards so parallel runs never see each other's rows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Snapshot } from '../../src/core/model/index.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { sqliteFile } from '../support/sqlite-file.js';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface StoreFactory {
  name: 'sqlite' | 'postgres';
  /** Opens a store on a fresh database; `reopen` opens a second handle on the same database. */
  create(options?: { retain?: number }): Promise<{
    store: Store;
    reopen: () => Promise<Store>;
    cleanup: () => Promise<void>;
    rows: StateRows;
    /** Runs a statement on the database past the store (to leave rows as an older version wrote them). */
    execute: (sql: string) => Promise<void>;
  }>;
}

/** The `state` table as it is on disk, past the store: to write a row an older version left, and read what was written. */
export interface StateRows {
  /** Writes a row without a version (as rows from before versions were kept: version 1), or at `version`. */
  put(repository: string, cluster: string, json: string, version?: number): Promise<void>;
  get(repository: string, cluster: string): Promise<{ value: unknown; version: number } | undefined>;
}

async function withClient<T>(schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function uniqueSchema(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export const sqliteFactory: StoreFactory = {
  name: 'sqlite',
  async create(options = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'driftback-store-'));
    const file = join(dir, 'driftback.sqlite');
    const opened: Store[] = [];
    const open = async (): Promise<Store> => {
      const store = SqliteStore.open({ file, retain: options.retain });
      opened.push(store);
      return store;
    };
    const store = await open();
    const rows: StateRows = {
      async put(repository, cluster, json, version) {
        if (version === undefined)
          sqliteFile(file)
            .prepare('INSERT INTO state (repository, cluster, value) VALUES (?, ?, ?)')
            .run(repository, cluster, json);
        else
          sqliteFile(file)
            .prepare('INSERT INTO state (repository, cluster, value, version) VALUES (?, ?, ?, ?)')
            .run(repository, cluster, json, version);
      },
      async get(repository, cluster) {
        const row = sqliteFile(file)
          .prepare('SELECT value, version FROM state WHERE repository = ? AND cluster = ?')
          .get(repository, cluster) as { value: string; version: number } | undefined;
        return row ? { value: JSON.parse(row.value), version: row.version } : undefined;
      },
    };
    return {
      store,
      reopen: open,
      rows,
      execute: async (sql) => void sqliteFile(file).exec(sql),
      cleanup: async () => {
        for (const s of opened) await s.close();
        sqliteFile(file).close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const postgresFactory: StoreFactory = {
  name: 'postgres',
  async create(options = {}) {
    const schema = uniqueSchema('store');
    const opened: Store[] = [];
    const open = async (): Promise<Store> => {
      const store = await PostgresStore.open({ connectionString: PG_URL, schema, retain: options.retain });
      opened.push(store);
      return store;
    };
    const store = await open();
    const rows: StateRows = {
      async put(repository, cluster, json, version) {
        await withClient(schema, (client) =>
          version === undefined
            ? client.query('INSERT INTO state (repository, cluster, value) VALUES ($1, $2, $3)', [
                repository,
                cluster,
                json,
              ])
            : client.query('INSERT INTO state (repository, cluster, value, version) VALUES ($1, $2, $3, $4)', [
                repository,
                cluster,
                json,
                version,
              ]),
        );
      },
      async get(repository, cluster) {
        const result = await withClient(schema, (client) =>
          client.query('SELECT value, version FROM state WHERE repository = $1 AND cluster = $2', [
            repository,
            cluster,
          ]),
        );
        return result.rows[0] as { value: unknown; version: number } | undefined;
      },
    };
    return {
      store,
      reopen: open,
      rows,
      execute: async (sql) => void (await withClient(schema, (client) => client.query(sql))),
      cleanup: async () => {
        for (const s of opened) await s.close();
        await dropSchema(schema);
      },
    };
  },
};

export function makeSnapshot(overrides: Partial<Snapshot> & { replicas?: number; count?: number } = {}): Snapshot {
  const { replicas = 1, count = 3, ...rest } = overrides;
  const items = Array.from({ length: count }, (_, i) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `app-${i}`, namespace: 'checkout', labels: { 'app.kubernetes.io/name': `app-${i}` } },
    spec: {
      replicas,
      template: { spec: { containers: [{ name: 'app', image: `registry.example.com/app-${i}:1.0.0` }] } },
    },
  }));
  return {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/platform-gitops',
    cluster: 'prod-eu',
    capturedAt: '2026-12-02T03:05:00Z',
    scope: { complete: true, errors: [] },
    items,
    ...rest,
  } as Snapshot;
}

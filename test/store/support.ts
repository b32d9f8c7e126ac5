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

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface StoreFactory {
  name: 'sqlite' | 'postgres';
  /** Opens a store on a fresh database; `reopen` opens a second handle on the same database. */
  create(options?: { retain?: number }): Promise<{ store: Store; reopen: () => Promise<Store>; cleanup: () => Promise<void> }>;
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
    return {
      store,
      reopen: open,
      cleanup: async () => {
        for (const s of opened) await s.close();
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
    return {
      store,
      reopen: open,
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
    spec: { replicas, template: { spec: { containers: [{ name: 'app', image: `registry.example.com/app-${i}:1.0.0` }] } } },
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

// PostgreSQL-only behaviour: replicas starting together, and the database dropping connections.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { dropSchema, makeSnapshot, PG_URL, uniqueSchema } from './support.js';

const opened: PostgresStore[] = [];
const schemas: string[] = [];

async function openFresh(schema = uniqueSchema('pgconn')): Promise<PostgresStore> {
  if (!schemas.includes(schema)) schemas.push(schema);
  // The application name lets the tests terminate this store's connections and nobody else's.
  const store = await PostgresStore.open({ connectionString: PG_URL, schema, applicationName: schema });
  opened.push(store);
  return store;
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL store', () => {
  it('migrates once when several processes start on an empty database at the same moment', async () => {
    const schema = uniqueSchema('pgconn');
    const stores = await Promise.all([openFresh(schema), openFresh(schema), openFresh(schema), openFresh(schema)]);
    const versions = await withClient((c) => c.query(`SELECT version FROM ${schema}.migrations ORDER BY version`));
    expect(versions.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await Promise.all(stores.map((s) => s.ping()));
  });

  it('recovers after the server terminates its connections', async () => {
    const store = await openFresh();
    await store.putSnapshot(makeSnapshot(), { digest: 'sha256:before', receivedAt: '2026-12-02T03:06:00Z' });
    const terminated = await withClient((c) =>
      c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [store.schema]),
    );
    expect(terminated.rowCount).toBeGreaterThan(0);
    // The first call may meet a socket the server has just closed; it must fail cleanly, and the
    // pool must replace the connection so that calls work again.
    const first = await store.latestSnapshotMeta('acme/platform-gitops', 'prod-eu').then(
      (meta) => ({ ok: true as const, meta }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (!first.ok) expect(first.error).toBeInstanceOf(StoreUnavailableError);
    const meta = await store.latestSnapshotMeta('acme/platform-gitops', 'prod-eu');
    expect(meta?.digest).toBe('sha256:before');
  });

  it('rejects a call cut off mid-query with a clear error, then works again', async () => {
    const store = await openFresh();
    const slow = withClient(async (c) => {
      // Terminates the store's busy backend while it is running the long statement below.
      for (let i = 0; i < 50; i++) {
        const busy = await c.query(
          `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'SELECT pg_sleep(5)%'`,
          [store.schema],
        );
        if (busy.rows.length > 0) {
          await c.query('SELECT pg_terminate_backend($1)', [busy.rows[0].pid]);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const call = (store as unknown as { query: (text: string) => Promise<unknown> }).query.call(
      store,
      'SELECT pg_sleep(5) -- store',
    );
    await expect(call).rejects.toThrow(StoreUnavailableError);
    await expect(call).rejects.toThrow(/database unavailable \(postgres\).*DATABASE_URL/);
    await slow;
    await store.ping();
  });

  it('fails to open with a message naming the fix when the server is unreachable', async () => {
    await expect(PostgresStore.open({ connectionString: 'postgresql://postgres@127.0.0.1:1/test' })).rejects.toThrow(
      /database unavailable \(postgres\).*DATABASE_URL/,
    );
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(PostgresStore.open({ connectionString: PG_URL, schema: 'x; DROP TABLE y' })).rejects.toThrow(/schema/);
  });
});

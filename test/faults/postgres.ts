// A fresh PostgreSQL database per fault test on the shared server (127.0.0.1:5432), dropped after,
// plus the operator's levers the tests pull on it: cut every connection the App holds, and refuse
// new ones for a while. Only this database is touched, never the server, which others use.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.DRIFTBACK_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  name: string;
  url: string;
  /** A query on the scratch database from a connection of the test's own. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** pg_terminate_backend for every other connection to the database; returns how many there were. */
  terminateConnections(): Promise<number>;
  /** ALLOW_CONNECTIONS false/true: while false, every new connection to it is refused. */
  allowConnections(allowed: boolean): Promise<void>;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `dbk_fault_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let own: pg.Client | undefined;
  const scratch: ScratchDatabase = {
    name,
    url: url.toString(),
    async query<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      if (!own) {
        own = new pg.Client({ connectionString: url.toString() });
        own.on('error', () => undefined);
        await own.connect();
      }
      return (await own.query<T>(text, values)).rows;
    },
    terminateConnections: () =>
      admin(async (client) => {
        const { rows } = await client.query<{ terminated: boolean }>(
          'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        // Our own probe connection went with the others.
        await own?.end().catch(() => undefined);
        own = undefined;
        return rows.filter((row) => row.terminated).length;
      }),
    allowConnections: (allowed) =>
      admin(async (client) => void (await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS ${allowed}`))),
    async drop() {
      await own?.end().catch(() => undefined);
      own = undefined;
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
  return scratch;
}

// The database drops the queue's connections (a PostgreSQL restart, a failover): enqueues keep
// working and the worker picks jobs up again without a restart of the App.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphileJobQueue } from '../../src/app/queue/graphile-queue.js';
import { dropSchema, PG_URL, uniqueSchema } from '../store/support.js';
import { recordingLogger, waitFor } from './support.js';

const schema = uniqueSchema('qconn');
let queue: GraphileJobQueue | undefined;

afterEach(async () => {
  await queue?.stop(5_000);
  await dropSchema(schema);
});

async function terminateConnections(applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const result = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe('graphile-worker queue when connections drop', () => {
  it('keeps enqueuing and running jobs after the server terminates its connections', async () => {
    // The application name marks this queue's connections so that only they are terminated.
    queue = new GraphileJobQueue({
      connectionString: `${PG_URL}?application_name=${schema}`,
      schema,
      pollIntervalMs: 50,
      logger: recordingLogger(),
    });
    const seen: unknown[] = [];
    await queue.start({ reconcile: async (payload) => void seen.push(payload.n) });
    await queue.enqueue('reconcile', 'acme/repo#prod', { n: 1 });
    await waitFor(() => seen.length === 1, 'the first run');
    expect(await terminateConnections(schema)).toBeGreaterThan(0);
    await queue.enqueue('reconcile', 'acme/repo#prod', { n: 2 });
    await waitFor(() => seen.length === 2, 'a run after the connections dropped');
    expect(seen).toEqual([1, 2]);
  });
});

// Shared pieces of the queue suites: a queue factory per backend on a fresh database, a logger
// that remembers what it was told, and small waiting helpers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger, makeWorkerUtils } from 'graphile-worker';
import pg from 'pg';
import { GraphileJobQueue } from '../../src/app/queue/graphile-queue.js';
import { SqliteJobQueue } from '../../src/app/queue/sqlite-queue.js';
import type { AppLogger } from '../../src/app/logger.js';
import type { JobQueue } from '../../src/app/queue/jobs.js';
import type { QueueOptions } from '../../src/app/queue/types.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { sqliteOf } from '../support/sqlite-file.js';
import { dropSchema, PG_URL, uniqueSchema } from '../store/support.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

export function recordingLogger(): AppLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (fields: Record<string, unknown>, message: string) =>
    void entries.push({ level, message, fields });
  return { entries, debug: () => undefined, info: at('info'), warn: at('warn'), error: at('error') };
}

export interface QueueBed {
  /** A new queue on the bed's database (a restart, or another replica). */
  queue(options: Omit<QueueOptions, 'logger'> & { logger?: AppLogger }): JobQueue;
  /** Jobs still held in the database (pending, running or waiting to retry). */
  storedJobs(): Promise<number>;
  /** What a process leaves when it dies running attempt `attempt` of a job: the job, that run cut off. */
  crashedRun(queue: string, key: string, payload: Record<string, unknown>, attempt: number): Promise<void>;
  cleanup(): Promise<void>;
}

export interface QueueFactory {
  name: 'sqlite' | 'postgres';
  create(): Promise<QueueBed>;
}

const quietLogger = recordingLogger();

export const sqliteQueueFactory: QueueFactory = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'driftback-queue-'));
    const store = SqliteStore.open({ file: join(dir, 'driftback.sqlite') });
    return {
      queue: (options) =>
        new SqliteJobQueue({ file: join(dir, 'driftback.sqlite'), ...options, logger: options.logger ?? quietLogger }),
      storedJobs: async () => (sqliteOf(store).prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n,
      crashedRun: async (queue, key, payload, attempt) => {
        sqliteOf(store)
          .prepare(`INSERT INTO jobs (queue, key, payload, state, attempt, run_at) VALUES (?, ?, ?, 'running', ?, 0)`)
          .run(queue, key, JSON.stringify(payload), attempt);
      },
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

// graphile-worker's migrations take over a second, so the PostgreSQL bed migrates one schema per
// test file and empties its job tables between tests instead of creating a schema each time.
let sharedSchema: Promise<string> | undefined;

async function withPg<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function migratedSchema(): Promise<string> {
  sharedSchema ??= (async () => {
    const schema = uniqueSchema('queue');
    const utils = await makeWorkerUtils({
      connectionString: PG_URL,
      schema,
      logger: new Logger(() => () => undefined),
    });
    await utils.migrate();
    await utils.release();
    return schema;
  })();
  return sharedSchema;
}

export const postgresQueueFactory: QueueFactory & { dispose(): Promise<void> } = {
  name: 'postgres',
  async create() {
    const schema = await migratedSchema();
    return {
      queue: (options) =>
        new GraphileJobQueue({
          connectionString: PG_URL,
          schema,
          pollIntervalMs: 50,
          ...options,
          logger: options.logger ?? quietLogger,
        }),
      storedJobs: () =>
        withPg(async (client) => Number((await client.query(`SELECT COUNT(*) AS n FROM ${schema}.jobs`)).rows[0].n)),
      // graphile-worker counts each lock as an attempt; after the dead worker's lock is released,
      // the job is back with every cut-off run counted.
      crashedRun: async (queue, key, payload, attempt) => {
        const utils = await makeWorkerUtils({
          connectionString: PG_URL,
          schema,
          logger: new Logger(() => () => undefined),
        });
        try {
          await utils.addJob(
            queue,
            { payload, key, attempt: 1 },
            { queueName: key, jobKey: `${queue}:${key}`, maxAttempts: 25 },
          );
        } finally {
          await utils.release();
        }
        await withPg((client) =>
          client.query(`UPDATE ${schema}._private_jobs SET attempts = $1 WHERE key = $2`, [attempt, `${queue}:${key}`]),
        );
      },
      cleanup: () =>
        withPg(
          async (client) =>
            void (await client.query(`DELETE FROM ${schema}._private_jobs; DELETE FROM ${schema}._private_job_queues`)),
        ),
    };
  },
  async dispose() {
    if (!sharedSchema) return;
    const schema = await sharedSchema;
    sharedSchema = undefined;
    await dropSchema(schema);
  },
};

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Counts how many runs of each key overlap, to prove a key never runs twice at once. */
export class OverlapMeter {
  private readonly current = new Map<string, number>();
  readonly maxPerKey = new Map<string, number>();
  maxOverall = 0;
  private overall = 0;

  enter(key: string): void {
    const n = (this.current.get(key) ?? 0) + 1;
    this.current.set(key, n);
    this.maxPerKey.set(key, Math.max(this.maxPerKey.get(key) ?? 0, n));
    this.overall++;
    this.maxOverall = Math.max(this.maxOverall, this.overall);
  }

  leave(key: string): void {
    this.current.set(key, (this.current.get(key) ?? 1) - 1);
    this.overall--;
  }
}

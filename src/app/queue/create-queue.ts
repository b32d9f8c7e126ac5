// Picks the queue that matches the store: graphile-worker on the store's PostgreSQL database, or
// the in-process queue persisted in the store's SQLite file.
import type { Store } from '../../store/types.js';
import { GraphileJobQueue } from './graphile-queue.js';
import type { JobQueue } from './jobs.js';
import { SqliteJobQueue } from './sqlite-queue.js';
import type { QueueOptions } from './types.js';

export type CreateQueueOptions = QueueOptions & {
  /** graphile-worker's schema on PostgreSQL. Default `graphile_worker`. */
  workerSchema?: string;
  /** PostgreSQL only: how often future jobs are looked for. Default 1000 ms. */
  pollIntervalMs?: number;
} & ({ store: Store; databaseUrl?: undefined } | { databaseUrl: string; store?: undefined });

export function createQueue(options: CreateQueueOptions): JobQueue {
  const { logger, retry, concurrency } = options;
  if (options.databaseUrl) {
    return new GraphileJobQueue({
      connectionString: options.databaseUrl,
      schema: options.workerSchema,
      pollIntervalMs: options.pollIntervalMs,
      logger,
      retry,
      concurrency,
    });
  }
  const backend = options.store?.backend;
  if (!backend)
    throw new Error(
      'createQueue: the store has no database behind it; pass a SQLite or PostgreSQL store, or databaseUrl',
    );
  if (backend.type === 'postgres') {
    return new GraphileJobQueue({
      connectionString: backend.connectionString,
      schema: options.workerSchema,
      pollIntervalMs: options.pollIntervalMs,
      logger,
      retry,
      concurrency,
    });
  }
  return new SqliteJobQueue({ file: backend.file, logger, retry, concurrency });
}

// The single-process job queue, kept in the SQLite database next to the snapshots. Jobs of one key
// run one at a time; enqueues that arrive while a job waits are folded into it (one pending row per
// queue and key), so a burst of snapshots costs one more run, on the newest state. Because every job
// is a row, a crash mid-run loses nothing: the next start runs what was pending or running.
// The queue opens its own connection to the store's file (the store never hands out its own).
import Database from 'better-sqlite3';
import { migrateSqlite } from '../../store/sqlite-store.js';
import type { AppLogger } from '../logger.js';
import type { JobQueue } from './jobs.js';
import {
  assertSchedulesHaveHandlers,
  errorMessage,
  interruptedReason,
  reportGiveUp,
  resolveRetry,
  retryDelayMs,
  type GiveUpHandler,
  type JobHandler,
  type QueueOptions,
  type RetryPolicy,
} from './types.js';

interface JobRow {
  id: number;
  queue: string;
  key: string;
  payload: string;
  attempt: number;
}

export interface SqliteQueueOptions extends QueueOptions {
  /** The SQLite file of the store (`SqliteStore.backend.file`); the `jobs` table lives in it. */
  file: string;
  /** Milliseconds since the epoch. Default Date.now. */
  now?: () => number;
}

export class SqliteJobQueue implements JobQueue {
  private readonly db: Database.Database;
  private readonly logger: AppLogger;
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  private readonly now: () => number;
  private handlers: Record<string, JobHandler> = {};
  private givenUp: Record<string, GiveUpHandler> = {};
  private readonly running = new Map<number, { key: string; done: Promise<void> }>();
  private readonly handedBack = new Set<number>();
  private readonly schedules = new Map<string, number>();
  private readonly intervals: NodeJS.Timeout[] = [];
  private wakeTimer: NodeJS.Timeout | undefined;
  private state: 'idle' | 'started' | 'stopped' = 'idle';

  constructor(options: SqliteQueueOptions) {
    if (options.file === ':memory:')
      throw new Error('the SQLite queue needs a database file: an in-memory store has none it can share');
    this.db = openQueueDatabase(options.file);
    this.logger = options.logger;
    this.retry = resolveRetry(options.retry);
    this.concurrency = options.concurrency ?? 4;
    this.now = options.now ?? Date.now;
  }

  async enqueue(queue: string, key: string, payload: Record<string, unknown>): Promise<void> {
    // The newest payload wins; a pending retry waiting out its backoff runs now instead.
    this.db
      .prepare(
        `INSERT INTO jobs (queue, key, payload, state, attempt, run_at) VALUES (?, ?, ?, 'pending', 1, ?)
         ON CONFLICT (queue, key) WHERE state = 'pending'
         DO UPDATE SET payload = excluded.payload, attempt = 1, run_at = MIN(jobs.run_at, excluded.run_at), last_error = NULL`,
      )
      .run(queue, key, JSON.stringify(payload), this.now());
    this.pump();
  }

  async start(handlers: Record<string, JobHandler>, givenUp: Record<string, GiveUpHandler> = {}): Promise<void> {
    if (this.state !== 'idle') throw new Error('this queue was already started; create a new one');
    assertSchedulesHaveHandlers(this.schedules, handlers);
    this.handlers = handlers;
    this.givenUp = givenUp;
    const { recovered, exhausted } = this.recoverInterrupted();
    if (recovered > 0) this.logger.info({ jobs: recovered }, 're-running jobs interrupted by the last shutdown');
    for (const job of exhausted) {
      await reportGiveUp(this.givenUp, this.logger, job.queue, JSON.parse(job.payload) as Record<string, unknown>, {
        key: job.key,
        attempts: job.attempt,
        reason: interruptedReason(job.attempt),
      });
    }
    this.state = 'started';
    for (const [name, everySeconds] of this.schedules) this.startInterval(name, everySeconds);
    this.pump();
  }

  async schedule(name: string, everySeconds: number): Promise<void> {
    if (!(everySeconds > 0)) throw new Error(`schedule "${name}": everySeconds must be positive, got ${everySeconds}`);
    this.schedules.set(name, everySeconds);
    if (this.state === 'started') this.startInterval(name, everySeconds);
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    clearTimeout(this.wakeTimer);
    for (const interval of this.intervals.splice(0)) clearInterval(interval);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([
      Promise.allSettled([...this.running.values()].map((job) => job.done)),
      timedOut,
    ]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.handBack();
    this.db.close();
  }

  /**
   * Jobs that were running when the process died go back to pending, one attempt used (a graceful
   * stop hands them back without); a pending run of the same key already covers them. A job whose
   * runs were all cut off is given up: whatever killed the process would kill it again.
   */
  private recoverInterrupted(): { recovered: number; exhausted: JobRow[] } {
    return this.db
      .transaction(() => {
        this.db
          .prepare(
            `DELETE FROM jobs WHERE state = 'running' AND EXISTS (SELECT 1 FROM jobs p WHERE p.state = 'pending' AND p.queue = jobs.queue AND p.key = jobs.key)`,
          )
          .run();
        const exhausted = this.db
          .prepare(`SELECT id, queue, key, payload, attempt FROM jobs WHERE state = 'running' AND attempt >= ?`)
          .all(this.retry.maxAttempts) as JobRow[];
        for (const job of exhausted) this.db.prepare('DELETE FROM jobs WHERE id = ?').run(job.id);
        const recovered = this.db
          .prepare(`UPDATE jobs SET state = 'pending', attempt = attempt + 1, run_at = ? WHERE state = 'running'`)
          .run(this.now()).changes;
        return { recovered, exhausted };
      })
      .immediate();
  }

  private handBack(): void {
    for (const [id, job] of this.running) {
      this.handedBack.add(id);
      this.returnToPending(id);
      this.logger.warn(
        { jobId: String(id), key: job.key },
        'job still running at shutdown; handed back to run again at next start',
      );
    }
  }

  private returnToPending(id: number): void {
    this.db
      .transaction(() => {
        const covered = this.db
          .prepare(
            `SELECT 1 FROM jobs p JOIN jobs r ON p.queue = r.queue AND p.key = r.key WHERE r.id = ? AND p.state = 'pending'`,
          )
          .get(id);
        if (covered) this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
        else this.db.prepare(`UPDATE jobs SET state = 'pending', run_at = ? WHERE id = ?`).run(this.now(), id);
      })
      .immediate();
  }

  private startInterval(name: string, everySeconds: number): void {
    const fire = () =>
      void this.enqueue(name, name, {}).catch((error: unknown) =>
        this.logger.error({ schedule: name, error: errorMessage(error) }, 'could not enqueue scheduled job'),
      );
    fire();
    const interval = setInterval(fire, everySeconds * 1000);
    interval.unref();
    this.intervals.push(interval);
  }

  /** Starts every due job whose key is free, up to the concurrency limit, then sleeps until the next one is due. */
  private pump(): void {
    if (this.state !== 'started') return;
    while (this.running.size < this.concurrency) {
      const job = this.claimNext();
      if (!job) break;
      // Registered before the run starts, so the key counts as busy even if the handler settles at once.
      const entry = { key: job.key, done: Promise.resolve() };
      this.running.set(job.id, entry);
      entry.done = this.runJob(job);
    }
    this.armWakeTimer();
  }

  private busyKeys(): string {
    return JSON.stringify([...new Set([...this.running.values()].map((job) => job.key))]);
  }

  private claimNext(): JobRow | undefined {
    return this.db
      .transaction(() => {
        const job = this.db
          .prepare(
            `SELECT id, queue, key, payload, attempt FROM jobs
           WHERE state = 'pending' AND run_at <= ? AND key NOT IN (SELECT value FROM json_each(?))
           ORDER BY run_at, id LIMIT 1`,
          )
          .get(this.now(), this.busyKeys()) as JobRow | undefined;
        if (job) this.db.prepare(`UPDATE jobs SET state = 'running' WHERE id = ?`).run(job.id);
        return job;
      })
      .immediate();
  }

  private armWakeTimer(): void {
    clearTimeout(this.wakeTimer);
    // With every slot taken there is nothing to wake for: the next job to finish pumps again.
    if (this.running.size >= this.concurrency) return;
    const next = this.db
      .prepare(
        `SELECT MIN(run_at) AS at FROM jobs WHERE state = 'pending' AND key NOT IN (SELECT value FROM json_each(?))`,
      )
      .get(this.busyKeys()) as { at: number | null };
    if (next.at === null) return;
    this.wakeTimer = setTimeout(() => this.pump(), Math.max(0, next.at - this.now()));
    this.wakeTimer.unref();
  }

  private async runJob(job: JobRow): Promise<void> {
    const jobId = String(job.id);
    // Yield first: bookkeeping in `finally` must never run inside the pump loop that started the job.
    await Promise.resolve();
    try {
      const handler = this.handlers[job.queue];
      if (!handler) throw new Error(`no handler registered for queue "${job.queue}"`);
      await handler(JSON.parse(job.payload) as Record<string, unknown>, { key: job.key, attempt: job.attempt, jobId });
      if (!this.handedBack.has(job.id)) this.db.prepare('DELETE FROM jobs WHERE id = ?').run(job.id);
    } catch (error) {
      if (!this.handedBack.has(job.id)) this.recordFailure(job, error);
    } finally {
      this.running.delete(job.id);
      this.handedBack.delete(job.id);
      this.pump();
    }
  }

  private recordFailure(job: JobRow, error: unknown): void {
    const fields = {
      jobId: String(job.id),
      queue: job.queue,
      key: job.key,
      attempt: job.attempt,
      error: errorMessage(error),
    };
    if (job.attempt >= this.retry.maxAttempts) {
      this.db.prepare('DELETE FROM jobs WHERE id = ?').run(job.id);
      this.logger.error(fields, `job failed ${job.attempt} times; dropped until it is enqueued again`);
      void reportGiveUp(this.givenUp, this.logger, job.queue, JSON.parse(job.payload) as Record<string, unknown>, {
        key: job.key,
        attempts: job.attempt,
        reason: fields.error,
      });
      return;
    }
    const delayMs = retryDelayMs(job.attempt, this.retry);
    this.db
      .transaction(() => {
        const newer = this.db
          .prepare(`SELECT 1 FROM jobs WHERE state = 'pending' AND queue = ? AND key = ?`)
          .get(job.queue, job.key);
        // A newer run of the same key is already waiting: it does the same work on newer state.
        if (newer) this.db.prepare('DELETE FROM jobs WHERE id = ?').run(job.id);
        else {
          this.db
            .prepare(
              `UPDATE jobs SET state = 'pending', attempt = attempt + 1, run_at = ?, last_error = ? WHERE id = ?`,
            )
            .run(this.now() + delayMs, fields.error, job.id);
        }
      })
      .immediate();
    this.logger.warn({ ...fields, retryInMs: delayMs }, 'job failed; retrying with backoff');
  }
}

/**
 * The queue's own connection: WAL (as the store's), waiting out the store's writes. The `jobs` table
 * is the store's migration 2; migrating here too lets a queue open a file no store opened yet.
 */
function openQueueDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrateSqlite(db);
  return db;
}

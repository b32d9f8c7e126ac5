// The shared job queue for several App replicas on one PostgreSQL database, built on
// graphile-worker: `queueName` = key, so one key runs on one replica at a time; `jobKey` = queue
// and key with `replace`, so enqueues that pile up while a job waits fold into it (and one that
// arrives while it runs creates exactly one follow-up run). Retries are ours, not graphile-worker's
// fixed e^n seconds, so the backoff is configurable; graphile's own retry only catches runs cut
// off by a forced shutdown.
import { Logger, makeWorkerUtils, run, type Runner, type Task, type TaskList, type WorkerUtils } from 'graphile-worker';
import { isConnectionError, StoreUnavailableError } from '../../store/errors.js';
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

export interface GraphileQueueOptions extends QueueOptions {
  connectionString: string;
  /** Schema of graphile-worker's tables. Default `graphile_worker`. */
  schema?: string;
  /** How often future jobs (retries, schedules) are looked for; new jobs are noticed at once. Default 1000 ms. */
  pollIntervalMs?: number;
}

/** What is stored as the graphile-worker payload: the caller's payload plus our retry count. */
interface Envelope {
  payload: Record<string, unknown>;
  key: string;
  attempt: number;
  everySeconds?: number;
}

// Generous: graphile-worker only counts runs cut off by a forced shutdown; handler failures are
// retried (and bounded) by our own policy.
const INTERRUPTION_ATTEMPTS = 25;

export class GraphileJobQueue implements JobQueue {
  private readonly logger: AppLogger;
  private readonly retry: RetryPolicy;
  private readonly schedules = new Map<string, number>();
  private readonly active = new Set<string>();
  private readonly handedBack = new Set<string>();
  private utilsPromise: Promise<WorkerUtils> | undefined;
  private runner: Runner | undefined;
  private taskList: TaskList = {};
  private givenUp: Record<string, GiveUpHandler> = {};
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  /** `locked_by` of the jobs this process's current runner took: what to unlock if it dies. */
  private readonly lockedBy = new Set<string>();

  private readonly schema: string;

  constructor(private readonly options: GraphileQueueOptions) {
    this.schema = options.schema ?? 'graphile_worker';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.schema))
      throw new Error(`queue schema "${this.schema}": expected lower-case letters, digits and "_"`);
    this.logger = options.logger;
    this.retry = resolveRetry(options.retry);
  }

  async enqueue(queue: string, key: string, payload: Record<string, unknown>): Promise<void> {
    const envelope: Envelope = { payload, key, attempt: 1 };
    const add = async () =>
      (await this.utils()).addJob(queue, envelope, {
        queueName: key,
        jobKey: jobKeyOf(queue, key),
        jobKeyMode: 'replace',
        maxAttempts: INTERRUPTION_ATTEMPTS,
      });
    try {
      await add();
    } catch (error) {
      if (!isConnectionError(error)) throw error;
      // An idle connection the server closed (restart, failover) fails once; the pool then opens a new one.
      await add().catch((retryError: unknown) => {
        throw isConnectionError(retryError) ? new StoreUnavailableError('postgres', retryError) : retryError;
      });
    }
  }

  async schedule(name: string, everySeconds: number): Promise<void> {
    if (!(everySeconds > 0)) throw new Error(`schedule "${name}": everySeconds must be positive, got ${everySeconds}`);
    if (this.runner) throw new Error(`schedule "${name}" must be registered before start()`);
    this.schedules.set(name, everySeconds);
  }

  async start(handlers: Record<string, JobHandler>, givenUp: Record<string, GiveUpHandler> = {}): Promise<void> {
    if (this.runner) throw new Error('this queue was already started; create a new one');
    assertSchedulesHaveHandlers(this.schedules, handlers);
    this.givenUp = givenUp;
    const taskList: TaskList = {};
    for (const [name, handler] of Object.entries(handlers)) taskList[name] = this.wrap(name, handler);
    this.taskList = taskList;
    this.runner = await this.startRunner();
    const utils = await this.utils();
    for (const [name, everySeconds] of this.schedules) {
      // One chain per name across replicas: a replica starting later finds the pending job and keeps its time.
      const envelope: Envelope = { payload: {}, key: name, attempt: 1, everySeconds };
      await utils.addJob(name, envelope, {
        queueName: name,
        jobKey: scheduleKeyOf(name),
        jobKeyMode: 'preserve_run_at',
        maxAttempts: INTERRUPTION_ATTEMPTS,
      });
    }
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const runner = this.runner;
    if (runner) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([
        runner.stop().then(
          () => 'stopped' as const,
          () => 'stopped' as const,
        ),
        timedOut,
      ]);
      clearTimeout(timer);
      if (outcome === 'timeout') await this.handBack(runner);
    }
    const utils = this.utilsPromise;
    this.utilsPromise = undefined;
    if (utils) await (await utils).release();
  }

  private async startRunner(): Promise<Runner> {
    const runner = await run({
      connectionString: this.options.connectionString,
      schema: this.schema,
      concurrency: this.options.concurrency ?? 4,
      pollInterval: this.options.pollIntervalMs ?? 1000,
      noHandleSignals: true,
      logger: graphileLogger(this.logger),
      taskList: this.taskList,
      // Unbatched, graphile-worker records a job's outcome without awaiting it, so a database that
      // is away at that moment rejects with nobody listening and Node ends the process. Batched
      // (with no delay) the failure reaches its error handler, which stops the pool; see below.
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });
    // graphile-worker shuts its whole pool down when it cannot record a job's outcome (the database
    // went away as the job ended), which settles this promise; no jobs would run until a restart.
    const ended = (error: unknown) => {
      if (this.stopping || this.runner !== runner) return;
      this.logger.error(
        { error: errorMessage(error) },
        'the job runner stopped on a database error; starting a new one',
      );
      const orphaned = [...this.lockedBy];
      this.lockedBy.clear();
      this.restartRunner(1, orphaned);
    };
    // It may also end without an error once its pool has shut itself down: either way, a runner
    // that ends while the App is not stopping has died.
    runner.promise.then(() => ended('the runner ended'), ended);
    return runner;
  }

  /** Starts a new runner once the database answers again, backing off while it does not. */
  private restartRunner(attempt: number, orphaned: string[]): void {
    const delayMs = Math.min(30_000, 500 * 2 ** (attempt - 1));
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      // The dead runner's locks would hold its jobs, and their keys' queues, for hours.
      const unlock = async () => (orphaned.length > 0 ? (await this.utils()).forceUnlockWorkers(orphaned) : undefined);
      unlock()
        .then(() => this.startRunner())
        .then(
          (runner) => {
            if (this.stopping) {
              void runner.stop().catch(() => undefined);
              return;
            }
            this.runner = runner;
            this.logger.info({ attempt }, 'job runner started again');
          },
          (error: unknown) => {
            this.logger.warn({ attempt, error: errorMessage(error) }, 'job runner could not start yet; trying again');
            this.restartRunner(attempt + 1, orphaned);
          },
        );
    }, delayMs);
    this.restartTimer.unref();
  }

  /**
   * Unlocks the still-running jobs so that another replica (or the next start) takes them now.
   * graphile-worker would otherwise hold their lock for hours.
   */
  private async handBack(runner: Runner): Promise<void> {
    const ids = [...this.active];
    for (const id of ids) this.handedBack.add(id);
    await runner.kill().catch(() => undefined);
    if (ids.length === 0) return;
    const utils = await this.utils();
    const locks = await utils.withPgClient((client) =>
      client.query<{ locked_by: string }>(
        `SELECT DISTINCT locked_by FROM "${this.schema}".jobs WHERE id = ANY($1::bigint[]) AND locked_by IS NOT NULL`,
        [ids],
      ),
    );
    await utils.forceUnlockWorkers(locks.rows.map((row) => row.locked_by));
    // Handed back, not cut off: the next run does not count this one as an attempt.
    await utils.rescheduleJobs(ids, { runAt: new Date(), attempts: 0 });
    this.logger.warn({ jobIds: ids }, 'jobs still running at shutdown; handed back to run again');
  }

  private wrap(name: string, handler: JobHandler): Task {
    return async (raw, helpers) => {
      // graphile-worker counts a lock as an attempt; each of our retries is a new job, so locks
      // beyond the first are runs the process did not live to finish (out of memory, killed).
      const cutOff = Math.max(0, helpers.job.attempts - 1);
      const envelope = { ...(raw as Envelope), attempt: (raw as Envelope).attempt + cutOff };
      const jobId = helpers.job.id;
      if (cutOff > 0 && envelope.everySeconds === undefined && envelope.attempt > this.retry.maxAttempts) {
        await reportGiveUp(this.givenUp, this.logger, name, envelope.payload, {
          key: envelope.key,
          attempts: envelope.attempt - 1,
          reason: interruptedReason(envelope.attempt - 1),
        });
        return;
      }
      if (helpers.job.locked_by) this.lockedBy.add(helpers.job.locked_by);
      const failure = await this.runTracked(handler, envelope, jobId);
      // A job handed back at shutdown belongs to whoever runs it next: completing it here would
      // delete that run. Failing it is a no-op, as this pool no longer holds its lock.
      if (this.handedBack.delete(jobId))
        throw new Error(`job ${jobId} finished after it was handed back at shutdown; it runs again elsewhere`);
      const { everySeconds } = envelope;
      if (everySeconds !== undefined)
        await this.scheduleNext(name, { ...envelope, everySeconds }, jobId, failure, helpers);
      else if (failure) await this.retryLater(name, envelope, jobId, failure.error, helpers);
    };
  }

  /** Runs the handler while the job counts as active; its failure, if it threw. */
  private async runTracked(
    handler: JobHandler,
    envelope: Envelope,
    jobId: string,
  ): Promise<{ error: unknown } | undefined> {
    this.active.add(jobId);
    try {
      await handler(envelope.payload, { key: envelope.key, attempt: envelope.attempt, jobId });
      return undefined;
    } catch (error) {
      return { error };
    } finally {
      this.active.delete(jobId);
    }
  }

  /** A scheduled job runs again at its next time, whether this run failed (logged) or not. */
  private async scheduleNext(
    name: string,
    envelope: Envelope & { everySeconds: number },
    jobId: string,
    failure: { error: unknown } | undefined,
    helpers: Parameters<Task>[1],
  ): Promise<void> {
    if (failure)
      this.logger.error(
        { schedule: name, jobId, error: errorMessage(failure.error) },
        'scheduled job failed; it runs again at its next time',
      );
    await helpers.addJob(
      name,
      { ...envelope, attempt: 1 },
      {
        queueName: name,
        jobKey: scheduleKeyOf(name),
        jobKeyMode: 'replace',
        maxAttempts: INTERRUPTION_ATTEMPTS,
        runAt: new Date(Date.now() + envelope.everySeconds * 1000),
      },
    );
  }

  private async retryLater(
    name: string,
    envelope: Envelope,
    jobId: string,
    error: unknown,
    helpers: Parameters<Task>[1],
  ): Promise<void> {
    const fields = { jobId, queue: name, key: envelope.key, attempt: envelope.attempt, error: errorMessage(error) };
    if (envelope.attempt >= this.retry.maxAttempts) {
      this.logger.error(fields, `job failed ${envelope.attempt} times; dropped until it is enqueued again`);
      await reportGiveUp(this.givenUp, this.logger, name, envelope.payload, {
        key: envelope.key,
        attempts: envelope.attempt,
        reason: fields.error,
      });
      return;
    }
    const jobKey = jobKeyOf(name, envelope.key);
    const newer = await helpers.withPgClient((client) =>
      client.query(`SELECT 1 FROM "${this.schema}".jobs WHERE key = $1 AND locked_at IS NULL LIMIT 1`, [jobKey]),
    );
    if ((newer.rowCount ?? 0) > 0) {
      // A newer run of the same key is already waiting: it does the same work on newer state.
      this.logger.warn(fields, 'job failed; a newer run of the same key is already queued');
      return;
    }
    const delayMs = retryDelayMs(envelope.attempt, this.retry);
    // preserve_run_at: should an enqueue slip in between the check and here, it keeps its earlier time.
    await helpers.addJob(
      name,
      { ...envelope, attempt: envelope.attempt + 1 },
      {
        queueName: envelope.key,
        jobKey,
        jobKeyMode: 'preserve_run_at',
        maxAttempts: INTERRUPTION_ATTEMPTS,
        runAt: new Date(Date.now() + delayMs),
      },
    );
    this.logger.warn({ ...fields, retryInMs: delayMs }, 'job failed; retrying with backoff');
  }

  private utils(): Promise<WorkerUtils> {
    this.utilsPromise ??= (async () => {
      const utils = await makeWorkerUtils({
        connectionString: this.options.connectionString,
        schema: this.schema,
        logger: graphileLogger(this.logger),
      });
      await utils.migrate();
      return utils;
    })();
    return this.utilsPromise;
  }
}

function jobKeyOf(queue: string, key: string): string {
  return `${queue}:${key}`;
}

function scheduleKeyOf(name: string): string {
  return `schedule:${name}`;
}

/** graphile-worker's chatter goes to debug; its warnings and errors keep their level. */
function graphileLogger(logger: AppLogger): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = { scope: { label: scope.label, workerId: scope.workerId, jobId: scope.jobId }, ...(meta ?? {}) };
    if (level === 'error') logger.error(fields, message);
    else if (level === 'warning') logger.warn(fields, message);
    else logger.debug(fields, message);
  });
}

// The worker threads that run jobs' renders and repository template overrides, so the App's event
// loop only waits for them: each worker has a heap limit (resourceLimits), each task a wall-clock
// limit after which its worker is killed, and a result larger than the output limit is refused in
// the worker before it is sent. Tasks wait for a free worker in arrival order, but one installation
// (tenant) never holds more than all workers but one, so a hostile repository cannot keep the
// others' jobs waiting; an idle worker is ended after a while, giving its memory back.
import { Worker } from 'node:worker_threads';
import { deserialize } from 'node:v8';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { JobLimits, JobLimitExceeded, LimitKind } from './limits.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

export interface TaskOptions {
  /** The installation the task is for (the repository owner): its share of the workers. */
  tenant: string;
  timeLimitMs: number;
  /** The error a limit ends the task with (a render's message or a template's reason). */
  stopped: (limit: LimitKind) => JobLimitExceeded;
}

export interface WorkerPool {
  run(task: string, input: unknown, options: TaskOptions): Promise<unknown>;
  /** Ends every worker; tasks still waiting are refused. */
  stop(): Promise<void>;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  current?: (reply: WorkerReply | Error) => void;
}

interface Waiting {
  task: string;
  input: unknown;
  options: TaskOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** An idle worker is ended after this long; the next task starts a new one. */
const IDLE_MS = 30_000;
/** Past the time limit, the worker gets this much longer to stop by itself (the render budget's own check). */
const GRACE_MS = 2_000;

/** The worker's entry: compiled JavaScript in dist, TypeScript run through tsx from the sources. */
function spawnWorker(limits: JobLimits): Worker {
  const here = import.meta.url;
  const entry = new URL(`../worker/entry${here.endsWith('.ts') ? '.ts' : '.js'}`, here);
  const options = {
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, stackSizeMb: 4 },
    workerData: { outputBytes: limits.outputBytes },
  };
  if (!here.endsWith('.ts')) return new Worker(entry, options);
  // tsx's ES module entry (its package resolves `require` to the CommonJS one, beside it).
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

export function createWorkerPool(limits: JobLimits): WorkerPool {
  return new JobWorkers(limits);
}

class JobWorkers implements WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Waiting[] = [];
  private readonly running = new Map<string, number>();
  private readonly share: number;
  private nextId = 0;
  private stopped = false;

  constructor(private readonly limits: JobLimits) {
    this.share = Math.max(1, limits.workers - 1);
  }

  run(task: string, input: unknown, options: TaskOptions): Promise<unknown> {
    if (this.stopped) return Promise.reject(new Error('the App is stopping'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, input, options, resolve, reject });
      this.pump();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('the App is stopping'));
    await Promise.all([...this.slots].map((slot) => slot.worker.terminate()));
  }

  /** Starts every waiting task whose installation is under its share, while a worker is free or can be made. */
  private pump(): void {
    for (let i = 0; i < this.waiting.length; i++) {
      const job = this.waiting[i]!;
      if ((this.running.get(job.options.tenant) ?? 0) >= this.share) continue;
      const idle = [...this.slots].find((slot) => !slot.busy);
      const slot = idle ?? (this.slots.size < this.limits.workers ? this.newSlot() : undefined);
      if (!slot) return;
      this.waiting.splice(i--, 1);
      void this.start(slot, job);
    }
  }

  private newSlot(): Slot {
    const worker = spawnWorker(this.limits);
    const slot: Slot = { worker, busy: false, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    slot.ready.catch(() => undefined);
    worker.on('message', (reply: WorkerReply) => slot.current?.(reply));
    worker.on('error', (error) => slot.current?.(error));
    worker.on('exit', () => {
      this.slots.delete(slot);
      slot.current?.(new Error('the worker exited'));
    });
    worker.unref();
    this.slots.add(slot);
    return slot;
  }

  private async start(slot: Slot, job: Waiting): Promise<void> {
    const { tenant } = job.options;
    clearTimeout(slot.idleTimer);
    slot.busy = true;
    // A busy worker keeps the process alive; an idle one does not.
    slot.worker.ref();
    this.running.set(tenant, (this.running.get(tenant) ?? 0) + 1);
    try {
      await slot.ready;
    } catch (error) {
      job.reject(error as Error);
      return this.finish(slot, tenant, false);
    }
    const timer = setTimeout(() => {
      job.reject(job.options.stopped('time'));
      this.finish(slot, tenant, false);
    }, job.options.timeLimitMs + GRACE_MS);
    slot.current = (reply) => {
      clearTimeout(timer);
      const outcome = settle(reply, job.options);
      if (outcome instanceof Error) job.reject(outcome);
      else job.resolve(outcome.value);
      this.finish(slot, tenant, !(reply instanceof Error));
    };
    const request: WorkerRequest = {
      id: ++this.nextId,
      task: job.task,
      input: job.input,
      timeLimitMs: job.options.timeLimitMs,
    };
    slot.worker.postMessage(request);
  }

  /** Frees the worker (or ends it, after a limit or a crash) and starts what waits. */
  private finish(slot: Slot, tenant: string, keep: boolean): void {
    slot.current = undefined;
    slot.busy = false;
    slot.worker.unref();
    this.running.set(tenant, (this.running.get(tenant) ?? 1) - 1);
    if (!keep) {
      this.slots.delete(slot);
      void slot.worker.terminate();
    } else slot.idleTimer = setTimeout(() => void slot.worker.terminate(), IDLE_MS).unref();
    this.pump();
  }
}

/** A worker's reply as a value, or the error the task ends with. */
function settle(reply: WorkerReply | Error, options: TaskOptions): { value: unknown } | Error {
  if (reply instanceof Error) {
    const code = (reply as Error & { code?: string }).code;
    return code === 'ERR_WORKER_OUT_OF_MEMORY' ? options.stopped('memory') : reply;
  }
  if (reply.type === 'ready') return new Error('the worker answered no task');
  if (reply.type === 'result') return { value: deserialize(Buffer.from(reply.result)) };
  if (reply.type === 'too-large') return options.stopped('output');
  return new Error(reply.message);
}

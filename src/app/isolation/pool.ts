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
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

export function createWorkerPool(limits: JobLimits): WorkerPool {
  const slots = new Set<Slot>();
  const waiting: Waiting[] = [];
  const running = new Map<string, number>();
  const share = Math.max(1, limits.workers - 1);
  let nextId = 0;
  let stopped = false;

  const newSlot = (): Slot => {
    const worker = spawnWorker(limits);
    const slot: Slot = { worker, busy: false, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    slot.ready.catch(() => undefined);
    worker.on('message', (reply: WorkerReply) => slot.current?.(reply));
    worker.on('error', (error) => slot.current?.(error));
    worker.on('exit', () => {
      slots.delete(slot);
      slot.current?.(new Error('the worker exited'));
    });
    worker.unref();
    slots.add(slot);
    return slot;
  };

  const finish = (slot: Slot, tenant: string, keep: boolean): void => {
    slot.current = undefined;
    slot.busy = false;
    slot.worker.unref();
    running.set(tenant, (running.get(tenant) ?? 1) - 1);
    if (!keep) {
      slots.delete(slot);
      void slot.worker.terminate();
    } else slot.idleTimer = setTimeout(() => void slot.worker.terminate(), IDLE_MS).unref();
    pump();
  };

  const start = async (slot: Slot, job: Waiting): Promise<void> => {
    const { tenant } = job.options;
    clearTimeout(slot.idleTimer);
    slot.busy = true;
    // A busy worker keeps the process alive; an idle one does not.
    slot.worker.ref();
    running.set(tenant, (running.get(tenant) ?? 0) + 1);
    try {
      await slot.ready;
    } catch (error) {
      job.reject(error as Error);
      return finish(slot, tenant, false);
    }
    const id = ++nextId;
    const timer = setTimeout(() => {
      job.reject(job.options.stopped('time'));
      finish(slot, tenant, false);
    }, job.options.timeLimitMs + GRACE_MS);
    slot.current = (reply) => {
      clearTimeout(timer);
      const outcome = settle(reply, job.options);
      if (outcome instanceof Error) job.reject(outcome);
      else job.resolve(outcome.value);
      finish(slot, tenant, !(reply instanceof Error));
    };
    const request: WorkerRequest = { id, task: job.task, input: job.input, timeLimitMs: job.options.timeLimitMs };
    slot.worker.postMessage(request);
  };

  const pump = (): void => {
    for (let i = 0; i < waiting.length; i++) {
      const job = waiting[i]!;
      if ((running.get(job.options.tenant) ?? 0) >= share) continue;
      const slot = [...slots].find((s) => !s.busy) ?? (slots.size < limits.workers ? newSlot() : undefined);
      if (!slot) return;
      waiting.splice(i--, 1);
      void start(slot, job);
    }
  };

  return {
    run(task, input, options) {
      if (stopped) return Promise.reject(new Error('the App is stopping'));
      return new Promise((resolve, reject) => {
        waiting.push({ task, input, options, resolve, reject });
        pump();
      });
    },
    async stop() {
      stopped = true;
      for (const job of waiting.splice(0)) job.reject(new Error('the App is stopping'));
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
    },
  };
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

// The limits every job of the App runs under, the same for every installation (set per App by its
// environment, never by a repository). A job's render (every source, every file, head and base) runs
// in a worker thread that is killed past its time or memory limit, or when its result is too large;
// a repository's template override runs in one with its own time limit. docs/operations.md lists
// each limit, its default and what a user reads when a job reaches it.
import type { RenderLimits } from '../../core/manifests/index.js';

export interface JobLimits {
  /** Wall-clock time one job's renders may take, in all. Default 60 s. */
  timeMs: number;
  /** Heap (V8 old generation) of the worker running a job. Default 320 MiB. */
  memoryMb: number;
  /** Size of a job's result, serialized, handed back to the App. Default 32 MiB. */
  outputBytes: number;
  /** Wall-clock time one repository template override may take to render. Default 10 s. */
  templateTimeMs: number;
  /** Workers running jobs at once; one installation may use all but one of them. Default 2. */
  workers: number;
  /** The core render budget of one job (nodes, documents, bytes); default the core's. */
  render?: Omit<RenderLimits, 'time'>;
}

export const DEFAULT_JOB_LIMITS: JobLimits = {
  timeMs: 60_000,
  memoryMb: 320,
  outputBytes: 32 * 1024 * 1024,
  templateTimeMs: 10_000,
  workers: 2,
};

export type LimitKind = 'time' | 'memory' | 'output';

/** A job (or a template) stopped by one of its limits: its worker was killed, the App goes on. */
export class JobLimitExceeded extends Error {
  constructor(
    readonly limit: LimitKind,
    message: string,
  ) {
    super(message);
    this.name = 'JobLimitExceeded';
  }
}

const FIX = 'split the cluster path or remove what it should not read';

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

/** What a user reads when a job's render is stopped by a limit (check run, plan comment, dashboard). */
export function renderStopped(limit: LimitKind, limits: JobLimits): JobLimitExceeded {
  const seconds = Math.round(limits.timeMs / 1000);
  const message =
    limit === 'time'
      ? `render stopped after ${seconds} s, the time limit of one job: ${FIX}`
      : limit === 'memory'
        ? `render stopped: it needed more than ${limits.memoryMb} MiB of memory, the limit of one job: ${FIX}`
        : `render stopped: its result is larger than ${mib(limits.outputBytes)}, the limit of one job: ${FIX}`;
  return new JobLimitExceeded(limit, message);
}

/** Why a template override was not used when a limit stopped it (the document names the file). */
export function templateStopped(limit: LimitKind, limits: JobLimits): JobLimitExceeded {
  const seconds = Math.round(limits.templateTimeMs / 1000);
  const message =
    limit === 'time'
      ? `it rendered for more than ${seconds} s`
      : limit === 'memory'
        ? `it needed more than ${limits.memoryMb} MiB of memory`
        : `its output is larger than ${mib(limits.outputBytes)}`;
  return new JobLimitExceeded(limit, message);
}

// Isolation of what a repository supplies: a job's render and a template override run in a job
// worker under the App's limits (limits.ts); a limit ends the task with a message, never the App.
import { createWorkerPool } from './pool.js';
import { DEFAULT_JOB_LIMITS, JobLimitExceeded, renderStopped, templateStopped, type JobLimits } from './limits.js';
import {
  renderHere,
  templatesOf,
  TEMPLATE_OF,
  withFailedOverride,
  type DocumentArgs,
  type DocumentName,
  type DocumentResult,
} from './documents.js';

export { DEFAULT_JOB_LIMITS, JobLimitExceeded, type JobLimits } from './limits.js';

export type RenderTask = 'reconcile' | 'plan';

/** The installation a repository's jobs count against: its owner (an App is installed once per owner). */
export function tenantOf(repository: string): string {
  return repository.split('/')[0]!.toLowerCase();
}

export interface Isolation {
  readonly limits: JobLimits;
  /**
   * A job's render in a worker, under the job's limits: rejects with JobLimitExceeded (its message
   * is what the user reads) when one stops it. `timeLimitMs`: what is left of the job's time.
   */
  render(task: RenderTask, input: unknown, tenant: string, timeLimitMs?: number): Promise<unknown>;
  /**
   * A document: in a worker when the repository overrides its template, in place otherwise. An
   * override stopped by a limit is replaced by the built-in template, and the document says why.
   */
  document<K extends DocumentName>(tenant: string, name: K, ...args: DocumentArgs<K>): Promise<DocumentResult<K>>;
  stop(): Promise<void>;
}

export function createIsolation(limits: JobLimits = DEFAULT_JOB_LIMITS): Isolation {
  const pool = createWorkerPool(limits);
  return {
    limits,
    render: (task, input, tenant, timeLimitMs = limits.timeMs) =>
      pool.run(task, input, { tenant, timeLimitMs, stopped: (limit) => renderStopped(limit, limits) }),
    async document(tenant, name, ...args) {
      const templates = templatesOf(args);
      if (templates?.templates[TEMPLATE_OF[name]] === undefined) return renderHere(name, args);
      const options = {
        tenant,
        timeLimitMs: limits.templateTimeMs,
        stopped: (limit: 'time' | 'memory' | 'output') => templateStopped(limit, limits),
      };
      try {
        return (await pool.run('document', { name, args }, options)) as DocumentResult<typeof name>;
      } catch (error) {
        if (!(error instanceof JobLimitExceeded)) throw error;
        return renderHere(name, withFailedOverride(name, args, error.message));
      }
    },
    stop: () => pool.stop(),
  };
}

// What the plan, dashboard and alert jobs need from the running App, passed in (no module state):
// the store, the queue, installation clients per repository, metrics, a clock and a logger.
import type { AppIdentity } from '../../github/index.js';
import type { JobQueue, Store } from '../../store/types.js';
import type { InstallationClients } from '../github-client.js';
import type { Metrics } from '../metrics.js';

/** Pino-compatible (Probot's `app.log`). */
export interface JobLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface ReviewDeps {
  store: Store;
  queue: JobQueue;
  clients: Pick<InstallationClients, 'forRepository'>;
  /** Who the App is: only comments and issues it wrote are found again by their markers. */
  appIdentity: () => Promise<AppIdentity>;
  metrics: Metrics;
  now: () => Date;
  log: JobLogger;
}

export const PLAN_QUEUE = 'plan';
export const PLAN_CHECK_NAME = 'driftback / plan';
/** Marker key of the sticky plan comment (parts are `plan#1`, `plan#2`, …). */
export const PLAN_COMMENT_KEY = 'plan';

/** One pending plan per pull request: a burst of pushes plans once, on the newest head. */
export function planJobKey(repository: string, number: number): string {
  return `${repository.toLowerCase()}#pr-${number}`;
}

export interface PlanJob {
  repository: string;
  number: number;
  reason: 'opened' | 'synchronize' | 'reopened' | 'ready_for_review' | 'rerequested' | 'snapshot';
}

export function isPlanJob(payload: Record<string, unknown>): payload is PlanJob & Record<string, unknown> {
  return typeof payload.repository === 'string' && typeof payload.number === 'number' && Number.isInteger(payload.number);
}

// What the plan, dashboard and alert jobs need from the running App, passed in (no module state):
// the store, the queue, installation clients per repository, metrics, a clock and a logger.
import type { AppIdentity } from '../../github/index.js';
import type { Store } from '../../store/types.js';
import type { InstallationClients } from '../github-client.js';
import type { Isolation } from '../isolation/index.js';
import type { AppLogger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { JobQueue } from '../queue/jobs.js';

export { isPlanJob, PLAN_QUEUE, planJobKey, type PlanJob } from '../queue/jobs.js';

export interface ReviewDeps {
  store: Store;
  queue: JobQueue;
  clients: Pick<InstallationClients, 'forRepository'>;
  /** Who the App is: only comments and issues it wrote are found again by their markers. */
  appIdentity: () => Promise<AppIdentity>;
  metrics: Metrics;
  now: () => Date;
  log: AppLogger;
  /** Job workers: the plans' renders and a repository's template overrides run there, under the App's limits. */
  isolation: Isolation;
}

export const PLAN_CHECK_NAME = 'driftback / plan';
/** Marker key of the sticky plan comment (parts are `plan#1`, `plan#2`, …). */
export const PLAN_COMMENT_KEY = 'plan';

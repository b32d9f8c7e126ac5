// Public surface of the job queue.
export { createQueue, type CreateQueueOptions } from './create-queue.js';
export { SqliteJobQueue, type SqliteQueueOptions } from './sqlite-queue.js';
export { GraphileJobQueue, type GraphileQueueOptions } from './graphile-queue.js';
export {
  DEFAULT_RETRY,
  retryDelayMs,
  type GiveUpHandler,
  type JobHandler,
  type QueueOptions,
  type RetryPolicy,
} from './types.js';
export {
  ALERTS_QUEUE,
  isPlanJob,
  isReconcileJob,
  MAINTENANCE_QUEUE,
  PLAN_QUEUE,
  planJobKey,
  RECONCILE_QUEUE,
  reconcileKey,
  type JobQueue,
  type PlanJob,
  type ReconcileJob,
} from './jobs.js';

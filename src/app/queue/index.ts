// Public surface of the job queue.
export { createQueue, type CreateQueueOptions } from './create-queue.js';
export { SqliteJobQueue, type SqliteQueueOptions } from './sqlite-queue.js';
export { GraphileJobQueue, type GraphileQueueOptions } from './graphile-queue.js';
export { DEFAULT_RETRY, retryDelayMs, type GiveUpHandler, type JobHandler, type QueueLogger, type QueueOptions, type RetryPolicy } from './types.js';

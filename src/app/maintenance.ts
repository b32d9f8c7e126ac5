// The `maintenance` job, scheduled hourly once across replicas: evicts cached blobs and tree
// listings no job used for BLOB_UNUSED_DAYS, so the cache holds what current renders read.
import { evictUnusedBlobs } from './blob-cache.js';
import type { AppLogger } from './logger.js';
import type { JobHandler } from './queue/types.js';
import type { Store } from '../store/types.js';

/** How often maintenance runs, in seconds. Default hourly. */
export const MAINTENANCE_EVERY_SECONDS = 3600;

export function maintenanceHandler(deps: {
  store: Pick<Store, 'evictBlobs'>;
  now: () => Date;
  log: Pick<AppLogger, 'info'>;
}): JobHandler {
  return async (_payload, meta) => {
    const evicted = await evictUnusedBlobs(deps.store, deps.now().getTime());
    if (evicted > 0)
      deps.log.info({ jobId: meta.jobId, evicted }, 'blob cache: evicted blobs and listings no job used for 2 days');
  };
}

// The `maintenance` job, scheduled hourly once across replicas: evicts cached blobs and tree
// listings no job used for BLOB_UNUSED_DAYS, so the cache holds what current renders read, and
// forgets the comment commands handled more than COMMANDS_KEPT_DAYS ago.
import { evictUnusedBlobs } from './blob-cache.js';
import type { AppLogger } from './logger.js';
import type { JobHandler } from './queue/types.js';
import type { Store } from '../store/types.js';

/** How often maintenance runs, in seconds. Default hourly. */
export const MAINTENANCE_EVERY_SECONDS = 3600;

/** A comment's command is remembered this long: an edit within it does not run the command again. */
export const COMMANDS_KEPT_DAYS = 30;

export function maintenanceHandler(deps: {
  store: Pick<Store, 'evictBlobs' | 'forgetCommands'>;
  now: () => Date;
  log: Pick<AppLogger, 'info'>;
}): JobHandler {
  return async (_payload, meta) => {
    const evicted = await evictUnusedBlobs(deps.store, deps.now().getTime());
    if (evicted > 0)
      deps.log.info({ jobId: meta.jobId, evicted }, 'blob cache: evicted blobs and listings no job used for 2 days');
    const forgotten = await deps.store.forgetCommands(deps.now().getTime() - COMMANDS_KEPT_DAYS * 86_400_000);
    if (forgotten > 0)
      deps.log.info(
        { jobId: meta.jobId, forgotten },
        `comment commands handled over ${COMMANDS_KEPT_DAYS} days ago forgotten`,
      );
  };
}

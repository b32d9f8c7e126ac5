// The `reconcile` queue handler: checks the payload, runs reconcileCluster, times it. Throwing
// hands the job back to the queue, which retries it with backoff.
import { countReconcileError, timeReconcile } from '../metrics.js';
import { isReconcileJob } from '../queue/jobs.js';
import type { JobHandler } from '../queue/types.js';
import { reconcileCluster, type ReconcileDeps } from './run-reconcile.js';

export function createReconcileHandler(deps: ReconcileDeps): JobHandler {
  return async (payload, meta) => {
    if (!isReconcileJob(payload)) {
      deps.log.warn({ key: meta.key, payload }, 'reconcile job without repository and cluster: dropped');
      return;
    }
    const { repository, cluster } = payload;
    const timer = timeReconcile(deps.metrics);
    try {
      // An installation may bring a new default branch or a rewritten HEAD: both are read again. (A
      // push recorded its new HEAD from the webhook: its reconcile reads nothing it already knows.)
      const refreshDefaultBranch = payload.reason === 'installation';
      const outcome = await reconcileCluster(deps, { repository, cluster, refreshDefaultBranch });
      timer(outcome.type);
    } catch (error) {
      timer('error');
      countReconcileError(deps.metrics, repository, cluster);
      deps.log.warn(
        { repository, cluster, attempt: meta.attempt, err: error },
        'reconcile failed; the queue retries it',
      );
      throw error;
    }
  };
}

// The `alerts` job, scheduled every minute once across replicas: watches every repository that
// has sent snapshots. One repository's failure (uninstalled, GitHub down) is logged and the rest go on.
import { NotInstalledError } from '../github-client.js';
import type { JobHandler } from '../queue/types.js';
import { watchRepository, type WatchDeps, type WatchOutcome } from './watch-repository.js';

/** How often the watch runs, in seconds. */
export const ALERTS_EVERY_SECONDS = 60;

export async function runAlerts(deps: WatchDeps, jobId = ''): Promise<WatchOutcome[]> {
  const repositories = new Map<string, string>();
  for (const meta of await deps.store.listClusters())
    if (!repositories.has(meta.repository.toLowerCase()))
      repositories.set(meta.repository.toLowerCase(), meta.repository);
  const outcomes: WatchOutcome[] = [];
  for (const repository of repositories.values()) {
    const started = deps.now().getTime();
    try {
      const outcome = await watchRepository(deps, repository);
      outcomes.push(outcome);
      const changed = outcome.alerts.length > 0 || outcome.dashboard !== 'not-due' || outcome.refreshed.length > 0;
      if (changed)
        deps.log.info(
          {
            jobId,
            repository,
            alerts: outcome.alerts,
            dashboard: outcome.dashboard,
            refreshed: outcome.refreshed,
            durationMs: deps.now().getTime() - started,
          },
          'watch: alerts and dashboard updated',
        );
    } catch (error) {
      const fields = {
        jobId,
        repository,
        durationMs: deps.now().getTime() - started,
        error: error instanceof Error ? error.message : String(error),
      };
      if (error instanceof NotInstalledError)
        deps.log.warn(fields, 'watch skipped: the App is not installed on the repository');
      else deps.log.error(fields, 'watch failed for this repository; the next run tries again');
    }
  }
  return outcomes;
}

/** The `alerts` queue's handler; what this process last read of each cluster is kept between runs. */
export function createAlertsHandler(deps: Omit<WatchDeps, 'seen'>): JobHandler {
  const watchDeps: WatchDeps = { ...deps, seen: new Map<string, string>() };
  return async (_payload, meta) => {
    await runAlerts(watchDeps, meta.jobId);
  };
}

// Wires plans, alerts and the dashboard into the App: the plan webhooks, the `alerts` schedule, and
// the queue handlers start.ts hands to the queue. Each handler logs what it did with the job id and
// duration; a throw means the queue retries with backoff.
import type { Probot } from 'probot';
import type { JobHandler } from '../queue/index.js';
import { ALERTS_EVERY_SECONDS, ALERTS_QUEUE, runAlerts } from '../alerts/index.js';
import { isPlanJob, PLAN_QUEUE, type ReviewDeps } from './deps.js';
import { runPlanJob } from './plan-job.js';
import { registerPlanWebhooks } from './webhooks.js';

export async function registerReview(app: Probot, deps: ReviewDeps): Promise<Record<string, JobHandler>> {
  registerPlanWebhooks(app, deps);
  await deps.queue.schedule(ALERTS_QUEUE, ALERTS_EVERY_SECONDS);
  const watchDeps = { ...deps, seen: new Map<string, string>() };
  return {
    [PLAN_QUEUE]: async (payload, meta) => {
      if (!isPlanJob(payload)) return deps.log.error({ jobId: meta.jobId, payload }, 'plan job without repository and number: dropped');
      const started = deps.now().getTime();
      const fields = { jobId: meta.jobId, repository: payload.repository, pullRequest: payload.number, reason: payload.reason };
      try {
        const outcome = await runPlanJob(deps, payload);
        deps.log.info({ ...fields, ...outcome, durationMs: deps.now().getTime() - started }, outcome.type === 'published' ? 'plan published' : 'plan skipped');
      } catch (error) {
        deps.log.warn({ ...fields, attempt: meta.attempt, durationMs: deps.now().getTime() - started, error: error instanceof Error ? error.message : String(error) }, 'plan failed; retried with backoff');
        throw error;
      }
    },
    [ALERTS_QUEUE]: async (_payload, meta) => {
      await runAlerts(watchDeps, meta.jobId);
    },
  };
}

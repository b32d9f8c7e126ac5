// Webhooks that ask for a plan: a pull request opened, pushed to, reopened or marked ready, and a
// re-run of the `driftback / plan` check. Handlers only enqueue (keyed per PR, so bursts coalesce);
// the plan job does the work. wiring.ts subscribes them.
import type { Context } from 'probot';
import type { GitHubClient } from '../../github/index.js';
import { PLAN_CHECK_NAME, PLAN_QUEUE, planJobKey, type PlanJob, type ReviewDeps } from './deps.js';

export const PLAN_PULL_REQUEST_ACTIONS = [
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.reopened',
  'pull_request.ready_for_review',
] as const;

type PlanWebhookDeps = Pick<ReviewDeps, 'queue' | 'log'>;

export function onPlanRequested(deps: PlanWebhookDeps) {
  return async (context: Context<(typeof PLAN_PULL_REQUEST_ACTIONS)[number]>): Promise<void> => {
    const { repository, pull_request: pull, action } = context.payload;
    const fields = { repository: repository.full_name, pullRequest: pull.number, action };
    if (pull.draft && action !== 'ready_for_review') {
      return deps.log.info(fields, 'draft pull request: planned when it is ready for review');
    }
    const job: PlanJob = { repository: repository.full_name, number: pull.number, reason: action as PlanJob['reason'] };
    await enqueuePlan(deps, job);
  };
}

export function onPlanRerun(deps: PlanWebhookDeps) {
  return async (context: Context<'check_run.rerequested'>): Promise<void> => {
    const { repository, check_run: run } = context.payload;
    if (run.name !== PLAN_CHECK_NAME) return;
    // GitHub leaves pull_requests empty for fork PRs (and sometimes otherwise): find it by head sha.
    const numbers =
      run.pull_requests.length > 0
        ? run.pull_requests.map((pull) => pull.number)
        : await pullRequestsWithHead(context.octokit, repository.owner.login, repository.name, run.head_sha);
    if (numbers.length === 0) {
      const fields = { repository: repository.full_name, headSha: run.head_sha };
      return deps.log.info(fields, 'check re-run for a commit that is the head of no open pull request');
    }
    for (const number of numbers) {
      await enqueuePlan(deps, { repository: repository.full_name, number, reason: 'rerequested' });
    }
  };
}

async function enqueuePlan(deps: PlanWebhookDeps, job: PlanJob): Promise<void> {
  await deps.queue.enqueue(PLAN_QUEUE, planJobKey(job.repository, job.number), { ...job });
  deps.log.info({ repository: job.repository, pullRequest: job.number, reason: job.reason }, 'plan queued');
}

export async function pullRequestsWithHead(
  octokit: GitHubClient,
  owner: string,
  repo: string,
  headSha: string,
): Promise<number[]> {
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100 });
  return pulls.filter((pull) => pull.head.sha === headSha).map((pull) => pull.number);
}

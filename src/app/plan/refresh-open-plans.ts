// A new snapshot changes what merging would do: the plans of open pull requests are queued again,
// newest first and bounded, so a reviewer does not read a plan against old state unknowingly.
// Each plan job decides for itself whether its PR touches the cluster (no comment when not).
import type { GitHubClient } from '../../github/index.js';
import { splitRepository } from '../github-client.js';
import { PLAN_QUEUE, planJobKey, type JobQueue, type PlanJob } from '../queue/jobs.js';

/** Plans refreshed per new snapshot at most. Default 10. */
export const REFRESH_LIMIT = 10;

export async function refreshOpenPlans(
  octokit: GitHubClient,
  queue: Pick<JobQueue, 'enqueue'>,
  repository: string,
  limit = REFRESH_LIMIT,
): Promise<number[]> {
  const { owner, repo } = splitRepository(repository);
  const { data } = await octokit.rest.pulls.list({
    owner,
    repo,
    state: 'open',
    sort: 'updated',
    direction: 'desc',
    per_page: Math.min(100, limit),
  });
  const numbers = data
    .filter((pull) => !pull.draft)
    .slice(0, limit)
    .map((pull) => pull.number);
  for (const number of numbers) {
    const job: PlanJob = { repository, number, reason: 'snapshot' };
    await queue.enqueue(PLAN_QUEUE, planJobKey(repository, number), { ...job });
  }
  return numbers;
}

// The `plan` job of one pull request: reads the PR as it is now (so a burst of pushes plans the
// newest head once), finds the clusters it touches, plans each, publishes the comment and check run.
// Returns what it did as data; the caller logs it.
import { CONFIG_PATH } from '../../core/config/index.js';
import { templateOverrides } from '../../core/report/index.js';
import { listPullRequestFiles } from '../../github/index.js';
import { splitRepository } from '../github-client.js';
import { loadRepositoryAt } from '../repository.js';
import { buildPlans } from './build-plans.js';
import type { PlanJob, ReviewDeps } from './deps.js';
import { publishPlan } from './publish-plan.js';

export type PlanOutcome =
  | { type: 'published'; headSha: string; clusters: string[]; conclusion: string; fork: boolean; comment: { created: number; updated: number; unchanged: number } }
  | { type: 'skipped'; reason: string };

export async function runPlanJob(deps: ReviewDeps, job: PlanJob): Promise<PlanOutcome> {
  const { owner, repo } = splitRepository(job.repository);
  const octokit = await deps.clients.forRepository(job.repository);
  const { data: pull } = await octokit.rest.pulls.get({ owner, repo, pull_number: job.number });
  if (pull.state !== 'open') return { type: 'skipped', reason: `#${job.number} is ${pull.state}` };
  if (pull.draft) return { type: 'skipped', reason: `#${job.number} is a draft (planned when marked ready for review)` };
  const fork = pull.head.repo?.full_name?.toLowerCase() !== pull.base.repo.full_name.toLowerCase();
  const changed = await listPullRequestFiles(octokit, { owner, repo, number: job.number });
  // A fork's head commit is read through the base repository (GitHub serves it there as refs/pull/N/head).
  const head = await loadRepositoryAt(octokit, { owner, repo, sha: pull.head.sha }, deps.store);
  if (!head.config.ok) {
    if (!changed.includes(CONFIG_PATH)) return { type: 'skipped', reason: `${CONFIG_PATH} is invalid on the base branch too (see the dashboard issue)` };
    const published = await publishPlan(octokit, { owner, repo, number: job.number, headSha: pull.head.sha }, { plans: [], errors: head.config.problems, snapshots: {} });
    return { type: 'published', headSha: pull.head.sha, clusters: [], conclusion: published.conclusion, fork, comment: published.comment };
  }
  const base = await loadRepositoryAt(octokit, { owner, repo, sha: pull.base.sha }, deps.store);
  const built = await buildPlans(deps.store, {
    repository: job.repository, config: head.config.config, headFiles: head.files, baseFiles: base.files, headSha: pull.head.sha, changed, now: deps.now().toISOString(),
  });
  if (built.plans.length === 0 && built.errors.length === 0) return { type: 'skipped', reason: 'the pull request touches no cluster path' };
  // The base's templates: a pull request cannot change how its own plan is reported.
  const target = { owner, repo, number: job.number, headSha: pull.head.sha };
  const published = await publishPlan(octokit, target, built, templateOverrides(base.files));
  return { type: 'published', headSha: pull.head.sha, clusters: built.plans.map((p) => p.cluster), conclusion: published.conclusion, fork, comment: published.comment };
}

// The `plan` job of one pull request: reads the PR as it is now (so a burst of pushes plans the
// newest head once), finds the clusters it touches, plans each under the base branch's config,
// publishes the comment and check run (with what a changed config would change).
// Returns what it did as data; the caller logs it.
import { CONFIG_PATH, defaultConfig, describeConfigChange, type ConfigResult } from '../../core/config/index.js';
import { templateOverrides, type ConfigChangeNote, type TemplateOverrides } from '../../core/report/index.js';
import { listPullRequestFiles, type GitHubClient } from '../../github/index.js';
import { splitRepository } from '../github-client.js';
import { withAllFilesRead } from '../read-as-needed.js';
import { keepRead, loadRepositoryAt, type LoadedRepository } from '../repository.js';
import { latestSnapshots, type BuiltPlans, type PlanInputs } from './build-plans.js';
import { JobLimitExceeded, tenantOf } from '../isolation/index.js';
import type { Documents } from '../isolation/documents.js';
import type { JobHandler } from '../queue/types.js';
import { isPlanJob, type PlanJob, type ReviewDeps } from './deps.js';
import { publishPlan } from './publish-plan.js';

export type PlanOutcome =
  | {
      type: 'published';
      headSha: string;
      clusters: string[];
      conclusion: string;
      fork: boolean;
      comment: { created: number; updated: number; unchanged: number };
    }
  | { type: 'skipped'; reason: string };

type PullRequest = Awaited<ReturnType<GitHubClient['rest']['pulls']['get']>>['data'];

/** Why a pull request is not planned now (closed, or a draft), if it is not. */
function notPlanned(pull: PullRequest, number: number): PlanOutcome | undefined {
  if (pull.state !== 'open') return { type: 'skipped', reason: `#${number} is ${pull.state}` };
  if (pull.draft) return { type: 'skipped', reason: `#${number} is a draft (planned when marked ready for review)` };
  return undefined;
}

/** Whether the pull request's head lives in another repository (a fork). */
function isFork(pull: PullRequest): boolean {
  return pull.head.repo?.full_name?.toLowerCase() !== pull.base.repo.full_name.toLowerCase();
}

/** Publishes the plans as the comment and check run of the pull request's head. */
async function published(
  deps: ReviewDeps,
  job: PlanJob,
  octokit: GitHubClient,
  pull: PullRequest,
  built: BuiltPlans,
  templates: TemplateOverrides,
): Promise<PlanOutcome> {
  const fork = isFork(pull);
  const target = { ...splitRepository(job.repository), number: job.number, headSha: pull.head.sha };
  const documents: Documents = (name, ...args) => deps.isolation.document(tenantOf(job.repository), name, ...args);
  const result = await publishPlan(octokit, target, built, await deps.appIdentity(), templates, documents);
  return {
    type: 'published',
    headSha: pull.head.sha,
    clusters: built.plans.map((p) => p.cluster),
    conclusion: result.conclusion,
    fork,
    comment: result.comment,
  };
}

export async function runPlanJob(deps: ReviewDeps, job: PlanJob): Promise<PlanOutcome> {
  const { owner, repo } = splitRepository(job.repository);
  const octokit = await deps.clients.forRepository(job.repository);
  const { data: pull } = await octokit.rest.pulls.get({ owner, repo, pull_number: job.number });
  const skipped = notPlanned(pull, job.number);
  if (skipped) return skipped;
  const changed = await listPullRequestFiles(octokit, { owner, repo, number: job.number });
  // The config comes from the base commit: the pull request under review does not decide how it is
  // planned (what is protected, which directory is a cluster). A fork's head commit is read through
  // the base repository (GitHub serves it there as refs/pull/N/head).
  const maxBytes = deps.isolation.limits.render?.maxBytes;
  const reading = maxBytes === undefined ? {} : { maxBytes };
  const base = await loadRepositoryAt(octokit, { owner, repo, sha: pull.base.sha, ...reading }, deps.store);
  const configChanged = changed.includes(CONFIG_PATH);
  if (!base.config.ok && !configChanged)
    return { type: 'skipped', reason: `${CONFIG_PATH} is invalid on the base branch (see the dashboard issue)` };
  const head = await loadRepositoryAt(octokit, { owner, repo, sha: pull.head.sha, ...reading }, deps.store);
  head.budget = base.budget; // one budget for what the job's renders ask to read, head and base
  const configChange = configChanged ? proposedConfig(base.config, head.config, pull.base.ref) : undefined;
  const proposedErrors = configChanged && !head.config.ok ? head.config.problems : [];
  const keep = async (read: readonly string[]) => {
    for (const loaded of [base, head]) await keepRead(deps.store, loaded, read, deps.now().getTime());
  };
  // The base's templates, like its config: a pull request cannot change how its own plan is reported.
  const publish = (built: BuiltPlans) => published(deps, job, octokit, pull, built, templateOverrides(base.files));
  if (!base.config.ok) {
    await keep([]);
    return publish({ plans: [], errors: proposedErrors, snapshots: {}, configChange });
  }
  const built = await renderReading(deps, octokit, [head, base], {
    repository: job.repository,
    config: base.config.config,
    headSha: pull.head.sha,
    changed,
    now: deps.now().toISOString(),
    fork: isFork(pull),
  });
  await keep(built.filesRead ?? []);
  if (built.plans.length === 0 && built.errors.length === 0 && !configChange)
    return { type: 'skipped', reason: 'the pull request touches no cluster path' };
  return publish({ ...built, errors: [...proposedErrors, ...built.errors], ...(configChange ? { configChange } : {}) });
}

/**
 * The plans, rendered with head's and base's files as the renders read them (a file no manifest is,
 * such as a generator's image, fetched once a render asks for it), under one time limit for all rounds.
 */
async function renderReading(
  deps: ReviewDeps,
  octokit: GitHubClient,
  [head, base]: [LoadedRepository, LoadedRepository],
  input: Omit<PlanInputs, 'headFiles' | 'baseFiles'>,
): Promise<BuiltPlans> {
  const deadline = deps.now().getTime() + deps.isolation.limits.timeMs;
  return withAllFilesRead(
    octokit,
    [head, base],
    ([headFiles, baseFiles]) => {
      const left = Math.max(1, deadline - deps.now().getTime());
      return renderPlans(deps, { ...input, headFiles: headFiles!, baseFiles: baseFiles! }, left);
    },
    (built) => built.filesRead ?? [],
  );
}

/**
 * The plans, rendered in a job worker under the App's limits. A limit that stops the render is the
 * plan's error (the check run fails with it, the comment says it): the job is done, not retried.
 */
async function renderPlans(deps: ReviewDeps, input: PlanInputs, timeLimitMs: number): Promise<BuiltPlans> {
  const plan = { ...input, latest: await latestSnapshots(deps.store, input) };
  const work = { plan, render: deps.isolation.limits.render };
  try {
    return (await deps.isolation.render('plan', work, tenantOf(input.repository), timeLimitMs)) as BuiltPlans;
  } catch (error) {
    if (!(error instanceof JobLimitExceeded)) throw error;
    deps.log.warn({ repository: input.repository, limit: error.limit }, error.message);
    const errors = (input.config.clusters ?? []).map((cluster) => ({
      file: cluster.path ?? '.',
      message: error.message,
    }));
    return { plans: [], errors, snapshots: {}, filesRead: [] };
  }
}

/** The `plan` queue's handler: logs what the job did with its id and duration; a throw means retry. */
export function createPlanHandler(deps: ReviewDeps): JobHandler {
  return async (payload, meta) => {
    if (!isPlanJob(payload))
      return deps.log.error({ jobId: meta.jobId, payload }, 'plan job without repository and number: dropped');
    const started = deps.now().getTime();
    const fields = {
      jobId: meta.jobId,
      repository: payload.repository,
      pullRequest: payload.number,
      reason: payload.reason,
    };
    try {
      const outcome = await runPlanJob(deps, payload);
      deps.log.info(
        { ...fields, ...outcome, durationMs: deps.now().getTime() - started },
        outcome.type === 'published' ? 'plan published' : 'plan skipped',
      );
    } catch (error) {
      deps.log.warn(
        {
          ...fields,
          attempt: meta.attempt,
          durationMs: deps.now().getTime() - started,
          error: error instanceof Error ? error.message : String(error),
        },
        'plan failed; retried with backoff',
      );
      throw error;
    }
  };
}

/** What the pull request's own config would change, against the base branch's (or its absence). */
function proposedConfig(base: ConfigResult, proposed: ConfigResult, baseRef: string): ConfigChangeNote {
  const note: ConfigChangeNote = { file: CONFIG_PATH };
  if (proposed.ok) note.changes = describeConfigChange(base.ok ? base.config : defaultConfig(), proposed.config);
  if (!base.ok)
    note.unplanned = `Nothing is planned: plans use the configuration of the base branch, and ${CONFIG_PATH} on ${baseRef} is missing or invalid.`;
  return note;
}

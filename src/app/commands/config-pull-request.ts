// `/driftback ignore` as a pull request to `.github/driftback.yml`: the ignore rule (with its reason)
// goes on the App's config branch, one commit on the default branch's HEAD, and the App's pull request
// from it is opened or updated. Rules already on that open pull request are kept (the file is edited
// afresh from the default branch each time, so the branch never reverts a later change there). A
// branch someone else committed on is never written.
import { isDeepStrictEqual } from 'node:util';
import {
  addIgnoreRules,
  configBranch,
  configIgnoreRules,
  configPullRequestBody,
  configPullRequestTitle,
  ignoreRulesFor,
  ruleReason,
  type CommandItem,
  type ConfigChange,
  type Target,
} from '../../core/commands/index.js';
import { CONFIG_PATH, defaultConfig, parseConfig, type IgnoreRule } from '../../core/config/index.js';
import {
  branchHasForeignCommits,
  branchHead,
  findPullRequest,
  openOrUpdatePullRequest,
  readFileAt,
  writeBranch,
  type AppIdentity,
  type GitHubClient,
  type PullRequestSummary,
} from '../../github/index.js';
import { splitRepository } from '../github-client.js';
import type { ReviewDeps } from '../plan/deps.js';
import type { CommandJob } from '../queue/jobs.js';

export interface IgnoreRequest {
  items: readonly CommandItem[];
  target: Target;
  reason?: string;
}

/** Marker key of the config pull request's body. */
const CONFIG_PULL_KEY = 'config/ignore';

interface ConfigBase {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  defaultBranch: string;
  baseSha: string;
  text: string | undefined;
  rules: IgnoreRule[];
  branch: string;
  prefix: string;
  labels: string[];
  app: AppIdentity;
}

/** The default branch's HEAD, its config and the App's config branch. */
async function readBase(deps: ReviewDeps, job: CommandJob): Promise<ConfigBase | string> {
  const { owner, repo } = splitRepository(job.repository);
  const octokit = await deps.clients.forRepository(job.repository);
  const { data: repository } = await octokit.rest.repos.get({ owner, repo });
  const defaultBranch = repository.default_branch;
  const baseSha = await branchHead(octokit, { owner, repo }, defaultBranch);
  if (!baseSha) return `the default branch ${defaultBranch} has no commit`;
  const text = await readFileAt(octokit, { owner, repo, ref: baseSha, path: CONFIG_PATH });
  const rules = configIgnoreRules(text);
  if (typeof rules === 'string') return `${CONFIG_PATH} on ${defaultBranch} cannot be edited: ${rules}`;
  const parsed = text === undefined ? undefined : parseConfig(text);
  const config = parsed?.ok ? parsed.config : defaultConfig();
  const { branchPrefix: prefix, labels } = config.pullRequests;
  const app = await deps.appIdentity();
  return {
    octokit,
    owner,
    repo,
    defaultBranch,
    baseSha,
    text,
    rules,
    branch: configBranch(prefix),
    prefix,
    labels,
    app,
  };
}

/** Rules on the open config pull request that the default branch does not have yet. */
async function pendingRules(base: ConfigBase, open: PullRequestSummary | undefined): Promise<IgnoreRule[]> {
  if (!open) return [];
  const { octokit, owner, repo } = base;
  const onBranch = configIgnoreRules(await readFileAt(octokit, { owner, repo, ref: open.headSha, path: CONFIG_PATH }));
  if (typeof onBranch === 'string') return [];
  return onBranch.filter((rule) => !base.rules.some((known) => isDeepStrictEqual(known, rule)));
}

/** Commits on the config branch that the App did not write (none when it has no branch). */
async function foreignCommits(base: ConfigBase, head: string | undefined): Promise<string[]> {
  if (head === undefined) return [];
  if (!base.app.login) return ['(unknown author)'];
  const authorship = await branchHasForeignCommits(base.octokit, {
    owner: base.owner,
    repo: base.repo,
    branch: base.branch,
    base: base.defaultBranch,
    appLogin: base.app.login,
  });
  return authorship.type === 'foreign'
    ? authorship.commits.map((commit) => `${commit.sha.slice(0, 7)} by ${commit.author}`)
    : [];
}

/**
 * Proposes the ignore rule for the items: opens or updates the config pull request, or says why not.
 * A GitHub error is said in general terms (its text stays in the log): the decision is recorded by
 * then, so the command is not failed for it.
 */
export async function proposeIgnoreRule(
  deps: ReviewDeps,
  job: CommandJob,
  request: IgnoreRequest,
): Promise<ConfigChange> {
  try {
    return await proposeRule(deps, job, request);
  } catch (error) {
    const fields = { repository: job.repository, pullRequest: job.number, comment: job.commentId, err: error };
    deps.log.warn(fields, 'driftback command: the config pull request for an ignore rule could not be written');
    return {
      type: 'failed',
      reason:
        "GitHub answered with an error while driftback wrote it (the App's log has it, under this comment's id). " +
        'Add the rule to `.github/driftback.yml` by hand (`drift.ignore`), or run the command again when the field shows again',
    };
  }
}

async function proposeRule(deps: ReviewDeps, job: CommandJob, request: IgnoreRequest): Promise<ConfigChange> {
  if (!request.items.some((item) => item.path !== '')) return { type: 'whole-objects' };
  const base = await readBase(deps, job);
  if (typeof base === 'string') return { type: 'failed', reason: base };
  const { octokit, owner, repo, branch } = base;
  const open = (await findPullRequest(octokit, { owner, repo, head: branch, author: base.app })).own;
  const head = await branchHead(octokit, { owner, repo }, branch);
  const foreign = await foreignCommits(base, head);
  if (foreign.length > 0)
    return { type: 'foreign', branch, commits: foreign, ...(open ? { number: open.number } : {}) };
  const pending = await pendingRules(base, open);
  const reason = ruleReason(request.reason, job.login, job.number);
  const rules = ignoreRulesFor(request.items, request.target, reason, [...base.rules, ...pending]);
  if (rules.length === 0) return { type: 'exists', ...(open ? { number: open.number } : {}) };
  const all = [...pending, ...rules];
  const message = `driftback: ignore ${rules.flatMap((rule) => rule.paths ?? []).join(', ')} (${job.login} on #${job.number})`;
  return publish(base, { head, open }, all, message);
}

/** The config file with `rules` on the App's branch (one commit on the default branch), and its pull request. */
async function publish(
  base: ConfigBase,
  seen: { head: string | undefined; open: PullRequestSummary | undefined },
  rules: IgnoreRule[],
  message: string,
): Promise<ConfigChange> {
  const { octokit, owner, repo, branch } = base;
  const edited = addIgnoreRules(base.text, rules);
  if (!edited.ok) return { type: 'failed', reason: edited.reason };
  const written = await writeBranch(octokit, {
    owner,
    repo,
    branch,
    prefix: base.prefix,
    defaultBranch: base.defaultBranch,
    baseCommitSha: base.baseSha,
    files: new Map([[CONFIG_PATH, edited.text]]),
    message,
    ...(seen.head !== undefined ? { expectedHeadSha: seen.head } : {}),
  });
  if (written.type === 'head-moved')
    return { type: 'failed', reason: `${branch} moved while driftback was writing it: run the command again` };
  const pull = await openOrUpdatePullRequest(octokit, {
    owner,
    repo,
    head: branch,
    base: base.defaultBranch,
    title: configPullRequestTitle(rules.length),
    body: configPullRequestBody(rules),
    key: CONFIG_PULL_KEY,
    labels: base.labels,
    author: base.app,
    found: { pull: seen.open },
  });
  return { type: pull.type === 'opened' ? 'opened' : 'updated', number: pull.number, branch };
}

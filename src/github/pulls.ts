// The App's pull requests: find by head branch and author, open or update (no call when the body's
// marker hash is unchanged), close with a comment and delete the branch, comment once.
import { assertOwnBranch } from './guard.js';
import { isAppAuthored, isAppPullRequest, type AppIdentity, type AuthoredPull } from './authorship.js';
import { markerFor, sameContent, stampMarker } from './marker.js';
import { deleteBranch } from './write-branch.js';
import type { GitHubClient, RepoRef } from './types.js';

export interface PullRequestSummary {
  number: number;
  state: 'open' | 'closed';
  merged: boolean;
  title: string;
  body: string | null;
  headSha: string;
  labels: string[];
  htmlUrl: string;
  /** Who opened it (its author's login). */
  author?: string;
}

interface RawPull extends AuthoredPull {
  number: number;
  state: string;
  merged_at: string | null;
  title: string;
  body: string | null;
  head: { sha: string; ref: string; repo?: { full_name?: string } | null };
  labels: Array<{ name?: string }>;
  html_url: string;
}

function summarise(pull: RawPull): PullRequestSummary {
  return {
    number: pull.number,
    state: pull.state === 'open' ? 'open' : 'closed',
    merged: pull.merged_at !== null,
    title: pull.title,
    body: pull.body,
    headSha: pull.head.sha,
    labels: pull.labels.flatMap((label) => (label.name ? [label.name] : [])),
    htmlUrl: pull.html_url,
    ...(pull.user?.login ? { author: pull.user.login } : {}),
  };
}

export interface PullRequestsFrom {
  /** The newest pull request the App opened from the branch. */
  own: PullRequestSummary | undefined;
  /** Pull requests from the branch that someone else opened: never adopted, never written. */
  others: PullRequestSummary[];
}

/**
 * The pull requests from `head` (a branch of this repository), open ones by default, told apart by
 * who opened them (isAppPullRequest). `opened`: the PR the App recorded opening.
 */
export async function findPullRequest(
  octokit: GitHubClient,
  options: RepoRef & { head: string; state?: 'open' | 'closed' | 'all'; author: AppIdentity; opened?: number },
): Promise<PullRequestsFrom> {
  const { owner, repo, head } = options;
  const { data } = await octokit.rest.pulls.list({
    owner,
    repo,
    head: `${owner}:${head}`,
    state: options.state ?? 'open',
    per_page: 10,
  });
  const from = { owner, repo, branch: head, ...(options.opened !== undefined ? { opened: options.opened } : {}) };
  const pulls = data as RawPull[];
  const own = pulls.find((pull) => isAppPullRequest(pull, options.author, from));
  return {
    own: own ? summarise(own) : undefined,
    others: pulls.filter((pull) => pull !== own && !isAppPullRequest(pull, options.author, from)).map(summarise),
  };
}

export interface PullRequestContent extends RepoRef {
  head: string;
  base: string;
  title: string;
  /** Rendered body; it should carry a `<!-- driftback:<key> hash:… -->` marker (one is added for `key` if not). */
  body: string;
  /** Marker key of the body, e.g. `drift/prod-eu`. */
  key: string;
  labels: string[];
  /** The App: only a PR it opened from `head` is updated (without one, a new PR is opened). */
  author: AppIdentity;
  /** The App's open PR from `head` when the caller already looked it up (`pull` undefined: none is open). */
  found?: { pull: PullRequestSummary | undefined };
}

export type PullRequestResult =
  { type: 'opened'; number: number } | { type: 'updated'; number: number } | { type: 'unchanged'; number: number };

export async function openOrUpdatePullRequest(
  octokit: GitHubClient,
  content: PullRequestContent,
): Promise<PullRequestResult> {
  const { owner, repo } = content;
  const body = stampMarker(content.body, content.key);
  const existing = content.found
    ? content.found.pull
    : (await findPullRequest(octokit, { owner, repo, head: content.head, author: content.author })).own;
  if (!existing) {
    const { data } = await octokit.rest.pulls.create({
      owner,
      repo,
      head: content.head,
      base: content.base,
      title: content.title,
      body,
      maintainer_can_modify: false,
    });
    if (content.labels.length > 0)
      await octokit.rest.issues.addLabels({ owner, repo, issue_number: data.number, labels: content.labels });
    return { type: 'opened', number: data.number };
  }
  const missingLabels = content.labels.filter((label) => !existing.labels.includes(label));
  const same = existing.title === content.title && sameContent(existing.body, body, content.key);
  if (!same) await octokit.rest.pulls.update({ owner, repo, pull_number: existing.number, title: content.title, body });
  if (missingLabels.length > 0)
    await octokit.rest.issues.addLabels({ owner, repo, issue_number: existing.number, labels: missingLabels });
  return { type: same && missingLabels.length === 0 ? 'unchanged' : 'updated', number: existing.number };
}

export interface ClosePullRequestOptions extends RepoRef {
  number: number;
  /** Why it is closed, posted before closing. */
  comment: string;
  /** The head branch to delete, through the ref guard. */
  branch: string;
  prefix: string;
  defaultBranch: string;
}

export async function closePullRequest(
  octokit: GitHubClient,
  options: ClosePullRequestOptions,
): Promise<{ type: 'closed'; branch: 'deleted' | 'absent' }> {
  const { owner, repo } = options;
  // Checked before anything is written, so a wrong branch cannot leave a closed PR behind.
  assertOwnBranch(options.branch, options.prefix, options.defaultBranch);
  await octokit.rest.issues.createComment({ owner, repo, issue_number: options.number, body: options.comment });
  await octokit.rest.pulls.update({ owner, repo, pull_number: options.number, state: 'closed' });
  const deleted = await deleteBranch(octokit, {
    owner,
    repo,
    branch: options.branch,
    prefix: options.prefix,
    defaultBranch: options.defaultBranch,
  });
  return { type: 'closed', branch: deleted.type };
}

/** Posts `body` on an issue or PR unless a comment with the marker `key` is already there. */
export async function commentOnce(
  octokit: GitHubClient,
  options: RepoRef & { issueNumber: number; key: string; body: string; author: AppIdentity },
): Promise<{ type: 'commented'; id: number } | { type: 'exists'; id: number }> {
  const { owner, repo } = options;
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner,
    repo,
    issue_number: options.issueNumber,
    per_page: 100,
  });
  const existing = comments.find(
    (comment) => isAppAuthored(comment, options.author) && markerFor(comment.body, options.key),
  );
  if (existing) return { type: 'exists', id: existing.id };
  const { data } = await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number: options.issueNumber,
    body: stampMarker(options.body, options.key),
  });
  return { type: 'commented', id: data.id };
}

/** Paths a pull request changes (renames give both names), every page. */
export async function listPullRequestFiles(
  octokit: GitHubClient,
  options: RepoRef & { number: number },
): Promise<string[]> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
    owner: options.owner,
    repo: options.repo,
    pull_number: options.number,
    per_page: 100,
  });
  return files.flatMap((file) => (file.previous_filename ? [file.previous_filename, file.filename] : [file.filename]));
}

// Codified drift → the group's branch (one tree, one commit, one ref write; nothing when the tree
// is unchanged) → its PR opened or updated (no call when the marker hash is unchanged). A branch
// that moved under the App is checked for someone else's commits before anything is written. The
// branch's open PR is listed once: it answers "was it closed?", gives the branch head the App
// last wrote (so an unchanged tree needs no ref read), and is the PR that is updated.
import {
  findPullRequest,
  markerFor,
  openOrUpdatePullRequest,
  stampMarker,
  writeBranch,
  type PullRequestSummary,
  type WriteBranchResult,
} from '../../github/index.js';
import type { ActionOf } from '../../core/decide/index.js';
import { markerComment } from '../../core/report/index.js';
import type { DriftGroup } from './evaluate.js';
import { foreignCommitsOn, type GitHubContext } from './github-context.js';
import { markForeign, markForeignPullRequests } from './mark-foreign.js';
import { commitMessage, markerKeyFor, pullRequestBody } from './pull-request-body.js';
import type { BranchState } from './state.js';

export type PublishResult =
  | { type: 'opened' | 'updated' | 'unchanged'; number: number; state: BranchState; written: boolean }
  /** The PR the App opened for these fingerprints was closed unmerged (a decision it had not heard of). */
  | { type: 'declined'; number: number; fingerprints: string[] }
  | { type: 'foreign'; state: BranchState };

type BranchWritten = Exclude<WriteBranchResult, { type: 'head-moved' }>;

// Commits of the App remembered per branch: enough to recognise a branch rebuilt many times.
const APP_COMMITS_KEPT = 50;

async function write(
  ctx: GitHubContext,
  group: DriftGroup,
  previous: BranchState | undefined,
  expectedHeadSha: string | undefined,
  headSeen?: string,
): Promise<WriteBranchResult> {
  return writeBranch(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    branch: group.branch,
    prefix: ctx.config.pullRequests.branchPrefix,
    defaultBranch: ctx.defaultBranch,
    baseCommitSha: ctx.baseSha,
    files: new Map(group.codify.edits),
    message: commitMessage(ctx.cluster, group, ctx.snapshot),
    ...(expectedHeadSha !== undefined ? { expectedHeadSha } : {}),
    ...(ctx.baseListing ? { baseTree: ctx.baseListing } : {}),
    ...(previous?.lastWritten ? { lastWritten: previous.lastWritten } : {}),
    ...(headSeen !== undefined ? { headSeen } : {}),
  });
}

/** A PR the App opened that is closed without merge, and not yet known as declined. */
async function closedUnmerged(
  ctx: GitHubContext,
  previous: BranchState | undefined,
  open: PullRequestSummary | undefined,
): Promise<number | undefined> {
  if (previous?.pullRequest === undefined || open) return undefined;
  const { data } = await ctx.octokit.rest.pulls.get({
    owner: ctx.owner,
    repo: ctx.repo,
    pull_number: previous.pullRequest,
  });
  return data.state === 'closed' && !data.merged_at ? data.number : undefined;
}

// What the App knows of its open drift PR is trusted this long after it was last read from GitHub.
const PULL_REQUEST_TRUSTED_MS = 60 * 60 * 1000;

/**
 * The open drift PR as the App last read or left it, when nothing since says it changed: read within
 * the hour, no webhook about the branch or its PR after that, and the branch head the App wrote.
 */
function knownOpenPullRequest(ctx: GitHubContext, previous: BranchState | undefined): PullRequestSummary | undefined {
  const seen = previous?.pullRequestSeen;
  if (
    !previous ||
    previous.pullRequest === undefined ||
    previous.foreign ||
    !seen ||
    seen.headSha !== previous.lastWritten?.commitSha
  )
    return undefined;
  const verifiedAt = Date.parse(seen.verifiedAt);
  if (!(ctx.now().getTime() - verifiedAt < PULL_REQUEST_TRUSTED_MS)) return undefined;
  const event = ctx.branchEvents?.[previous.branch];
  if (event !== undefined && Date.parse(event) >= verifiedAt) return undefined;
  return {
    number: previous.pullRequest,
    state: 'open',
    merged: false,
    title: seen.title,
    body: markerComment(markerKeyFor(previous.branch), seen.bodyHash),
    headSha: seen.headSha,
    labels: seen.labels,
    htmlUrl: '',
  };
}

/** Which pull requests from a drift branch are the App's: its author, and the PR it recorded opening. */
export function fromBranch(
  ctx: GitHubContext,
  branch: string,
  previous: BranchState | undefined,
): { owner: string; repo: string; head: string; author: GitHubContext['app']; opened?: number } {
  return {
    owner: ctx.owner,
    repo: ctx.repo,
    head: branch,
    author: ctx.app,
    ...(previous?.pullRequest !== undefined ? { opened: previous.pullRequest } : {}),
  };
}

/** What the decision fixed for the group's PR: the group, its title and its labels. */
export type PublishRequest = Pick<ActionOf<'drift-pr.publish'>, 'group' | 'title' | 'labels' | 'removeLabels'>;

/** The branch written (someone else's commits found first, a closed PR recognised as declined), then its PR. */
export async function publishDrift(
  ctx: GitHubContext,
  request: PublishRequest,
  previous: BranchState | undefined,
): Promise<PublishResult> {
  const { group } = request;
  const known = knownOpenPullRequest(ctx, previous);
  const verifiedAt = known ? previous!.pullRequestSeen!.verifiedAt : ctx.now().toISOString();
  const listed = known ? undefined : await findPullRequest(ctx.octokit, fromBranch(ctx, group.branch, previous));
  const open = known ?? listed?.own;
  if (!open && listed && listed.others.length > 0)
    return { type: 'foreign', state: markForeignPullRequests(ctx, group.branch, previous, listed.others) };
  const declined = known ? undefined : await closedUnmerged(ctx, previous, open);
  if (declined !== undefined) return { type: 'declined', number: declined, fingerprints: previous!.fingerprints };
  const written = await writeOwnBranch(ctx, group, previous, open);
  if (written.type === 'foreign') return written;
  const body = await pullRequestBody(
    ctx.cluster,
    group,
    ctx.snapshot,
    ctx.templates,
    ctx.emergency?.get(group.branch) ?? [],
    ctx.documents,
    ctx.decisions?.get(group.branch) ?? [],
  );
  const pr = await openOrUpdatePullRequest(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    head: group.branch,
    base: ctx.defaultBranch,
    key: markerKeyFor(group.branch),
    title: request.title,
    body,
    labels: request.labels,
    ...(request.removeLabels.length > 0 ? { removeLabels: request.removeLabels } : {}),
    author: ctx.app,
    found: { pull: open },
  });
  const state = branchState(request, previous, written.result, { open, body, verifiedAt, number: pr.number });
  return { type: pr.type, number: pr.number, state, written: written.result.type === 'written' };
}

/**
 * The group's one commit on its branch. '' never matches a head: an existing branch the App has no
 * record of is checked for someone else's commits before it is written; a branch that moved under
 * the App is checked too, then rebuilt on the default branch's HEAD.
 */
async function writeOwnBranch(
  ctx: GitHubContext,
  group: DriftGroup,
  previous: BranchState | undefined,
  open: PullRequestSummary | undefined,
): Promise<{ type: 'branch'; result: BranchWritten } | Extract<PublishResult, { type: 'foreign' }>> {
  let written = await write(ctx, group, previous, previous?.lastWritten?.commitSha ?? '', open?.headSha);
  if (written.type === 'head-moved') {
    if (written.actualHeadSha !== undefined) {
      const foreign = await foreignCommitsOn(ctx, group.branch, previous);
      if (foreign.length > 0)
        return { type: 'foreign', state: await markForeign(ctx, group.branch, previous, foreign) };
    }
    // No branch: created without a check; the App's own branch: rebuilt, as long as it is still there.
    written = await write(ctx, group, previous, written.actualHeadSha);
    if (written.type === 'head-moved')
      throw new Error(`${group.branch} moved while driftback was writing it; the job will retry`);
  }
  return { type: 'branch', result: written };
}

/** The branch as the App leaves it: its commits, the last one written, and the PR as it now reads. */
function branchState(
  request: PublishRequest,
  previous: BranchState | undefined,
  written: BranchWritten,
  pull: { open: PullRequestSummary | undefined; body: string; verifiedAt: string; number: number },
): BranchState {
  const { group, title, labels, removeLabels } = request;
  const appCommits = [...(previous?.appCommits ?? [])];
  if (written.type === 'written') appCommits.push(written.commitSha);
  // A head found unchanged after a lost state write is still the App's own commit.
  else if (written.commitSha && !appCommits.includes(written.commitSha)) appCommits.push(written.commitSha);
  const lastWritten =
    written.type === 'written' ? { commitSha: written.commitSha, treeSha: written.treeSha } : previous?.lastWritten;
  const headSha = written.type === 'written' ? written.commitSha : (written.commitSha ?? pull.open?.headSha);
  const key = markerKeyFor(group.branch);
  const seenLabels = [...new Set([...(pull.open?.labels ?? []), ...labels])].filter((l) => !removeLabels.includes(l));
  return {
    branch: group.branch,
    pullRequest: pull.number,
    fingerprints: group.fingerprints,
    appCommits: appCommits.slice(-APP_COMMITS_KEPT),
    ...(lastWritten ? { lastWritten } : {}),
    ...(headSha
      ? {
          pullRequestSeen: {
            headSha,
            title,
            bodyHash: markerFor(stampMarker(pull.body, key), key)!.hash,
            labels: seenLabels,
            verifiedAt: pull.verifiedAt,
          },
        }
      : {}),
  };
}

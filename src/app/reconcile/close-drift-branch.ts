// Drift gone (merged, reverted by the controller, or fixed by hand): the PR is closed with a
// comment saying why and the branch deleted — unless someone else committed on it.
import { driftGoneComment } from '../../core/report/index.js';
import { branchHead, closePullRequest, deleteBranch, findPullRequest } from '../../github/index.js';
import { foreignCommitsOn, type GitHubContext } from './github-context.js';
import { markForeign, markForeignPullRequests } from './mark-foreign.js';
import { fromBranch } from './publish-drift.js';
import type { BranchState } from './state.js';

export type CloseResult =
  | { type: 'closed'; number: number }
  | { type: 'branch-deleted' }
  | { type: 'nothing-open' }
  | { type: 'foreign'; state: BranchState };

export async function closeDriftBranch(ctx: GitHubContext, previous: BranchState): Promise<CloseResult> {
  const { octokit, owner, repo } = ctx;
  const branch = previous.branch;
  const head = await branchHead(octokit, { owner, repo }, branch);
  if (head !== undefined && head !== previous.lastWritten?.commitSha) {
    const foreign = await foreignCommitsOn(ctx, branch, previous);
    if (foreign.length > 0) return { type: 'foreign', state: await markForeign(ctx, branch, previous, foreign) };
  }
  const guard = { branch, prefix: ctx.config.pullRequests.branchPrefix, defaultBranch: ctx.defaultBranch };
  const listed = await findPullRequest(octokit, fromBranch(ctx, branch, previous));
  const open = listed.own;
  // Someone else's pull request from the branch: closing it or deleting its branch is not the App's call.
  if (!open && listed.others.length > 0)
    return { type: 'foreign', state: markForeignPullRequests(ctx, branch, previous, listed.others) };
  if (open) {
    const { cluster, defaultBranch, baseSha, snapshot } = ctx;
    const comment = driftGoneComment({ cluster, defaultBranch, baseSha, branch, snapshot });
    await closePullRequest(octokit, { owner, repo, number: open.number, comment, ...guard });
    return { type: 'closed', number: open.number };
  }
  if (head === undefined) return { type: 'nothing-open' };
  await deleteBranch(octokit, { owner, repo, ...guard });
  return { type: 'branch-deleted' };
}

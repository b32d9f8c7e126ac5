// A drift branch with someone else's commits: the App stops writing it and says so once on its PR.
// A drift branch with someone else's pull request: the App stops writing it and writes nothing on it.
import { foreignCommitsComment } from '../../core/report/index.js';
import { commentOnce, findPullRequest, type PullRequestSummary } from '../../github/index.js';
import type { GitHubContext } from './github-context.js';
import type { BranchState } from './state.js';

export async function markForeign(
  ctx: GitHubContext,
  branch: string,
  previous: BranchState | undefined,
  commits: string[],
): Promise<BranchState> {
  const state: BranchState = {
    ...(previous ?? { branch, group: '', fingerprints: [], appCommits: [] }),
    foreign: { commits, since: ctx.now().toISOString() },
  };
  const number =
    previous?.pullRequest ??
    (await findPullRequest(ctx.octokit, { owner: ctx.owner, repo: ctx.repo, head: branch, author: ctx.app })).own
      ?.number;
  ctx.log.warn(
    { branch, commits, pullRequest: number },
    'someone else committed on the drift branch: the App no longer writes it',
  );
  if (number !== undefined) {
    await commentOnce(ctx.octokit, {
      owner: ctx.owner,
      repo: ctx.repo,
      issueNumber: number,
      key: `foreign/${branch}`,
      author: ctx.app,
      body: foreignCommitsComment(branch, commits),
    });
  }
  return { ...state, ...(number !== undefined ? { pullRequest: number } : {}) };
}

/**
 * Pull requests from the branch that the App did not open (someone pushed a branch of that name and
 * opened one, or opened one from the App's branch): they are not adopted, so the App neither
 * rewrites their body nor force-pushes under them, until the branch is deleted.
 */
export function markForeignPullRequests(
  ctx: GitHubContext,
  branch: string,
  previous: BranchState | undefined,
  others: PullRequestSummary[],
): BranchState {
  const described = others.map((pull) => `pull request #${pull.number} by ${pull.author ?? '(unknown)'}`);
  ctx.log.warn(
    { branch, pullRequests: others.map((pull) => pull.number) },
    'a pull request the App did not open is using the drift branch: the App no longer writes it',
  );
  return {
    ...(previous ?? { branch, fingerprints: [], appCommits: [] }),
    foreign: { commits: described, since: ctx.now().toISOString() },
  };
}

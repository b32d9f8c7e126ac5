// Tells whether someone other than the App committed on a drift branch. The App then stops
// force-pushing it: it never overwrites human work.
import { hasStatus, type GitHubClient, type RepoRef } from './types.js';

export interface ForeignCommitsOptions extends RepoRef {
  branch: string;
  /** Usually the default branch: commits already there are nobody's concern. */
  base: string;
  /** Commits the App wrote (from its state). */
  appCommitShas?: Iterable<string>;
  /** The App's bot login (`<slug>[bot]`): commits GitHub attributes to it are the App's. */
  appLogin?: string;
}

export interface ForeignCommit {
  sha: string;
  author: string;
  message: string;
}

export type BranchAuthorship =
  { type: 'no-branch' } | { type: 'own'; commits: number } | { type: 'foreign'; commits: ForeignCommit[] };

export async function branchHasForeignCommits(
  octokit: GitHubClient,
  options: ForeignCommitsOptions,
): Promise<BranchAuthorship> {
  const known = new Set(options.appCommitShas ?? []);
  if (known.size === 0 && !options.appLogin)
    throw new Error("branchHasForeignCommits needs appCommitShas or appLogin to recognise the App's commits");
  let commits;
  try {
    ({
      data: { commits },
    } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: options.owner,
      repo: options.repo,
      basehead: `${options.base}...${options.branch}`,
    }));
  } catch (error) {
    if (hasStatus(error, 404)) return { type: 'no-branch' };
    throw error;
  }
  const foreign = commits
    .filter(
      (commit) =>
        !known.has(commit.sha) &&
        !(
          options.appLogin &&
          (commit.author?.login === options.appLogin || commit.committer?.login === options.appLogin)
        ),
    )
    .map((commit) => ({
      sha: commit.sha,
      author: commit.author?.login ?? commit.commit.author?.name ?? 'unknown',
      message: commit.commit.message,
    }));
  return foreign.length > 0 ? { type: 'foreign', commits: foreign } : { type: 'own', commits: commits.length };
}

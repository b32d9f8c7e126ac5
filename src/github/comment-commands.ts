// What answering a PR comment command takes on GitHub: a reaction on the comment (👀 on receipt, 👍 or
// 😕 on the outcome), a reply on the pull request, and the commenter's permission on the repository.
import { hasStatus, type GitHubClient, type RepoRef } from './types.js';

/** The reactions the App uses, as GitHub's reactions API names them. */
export type CommandReaction = 'eyes' | '+1' | 'confused';

export async function reactToComment(
  octokit: GitHubClient,
  target: RepoRef & { commentId: number },
  content: CommandReaction,
): Promise<void> {
  // GitHub answers 200 (not 201) for a reaction the App already left: reacting again is harmless.
  await octokit.rest.reactions.createForIssueComment({
    owner: target.owner,
    repo: target.repo,
    comment_id: target.commentId,
    content,
  });
}

export async function replyOnPullRequest(
  octokit: GitHubClient,
  target: RepoRef & { number: number },
  body: string,
): Promise<number> {
  const { data } = await octokit.rest.issues.createComment({
    owner: target.owner,
    repo: target.repo,
    issue_number: target.number,
    body,
  });
  return data.id;
}

/**
 * The commenter's permission on the repository as GitHub's legacy base role: `admin`, `write`
 * (maintain counts as write), `read` (triage counts as read) or `none`. A login GitHub does not know
 * has none.
 */
export async function permissionOf(octokit: GitHubClient, target: RepoRef & { login: string }): Promise<string> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: target.owner,
      repo: target.repo,
      username: target.login,
    });
    return data.permission;
  } catch (error) {
    if (hasStatus(error, 404)) return 'none';
    throw error;
  }
}

/** Whether a permission lets its holder change what the App does (write, or admin). */
export function canWrite(permission: string): boolean {
  return permission === 'admin' || permission === 'write';
}

// One comment per pull request and purpose (the plan), edited in place. A body too long for one
// comment arrives as numbered parts; each part is its own comment with its own marker.
import { isAppAuthored, type AppIdentity } from './authorship.js';
import { markerFor, sameContent, stampMarker } from './marker.js';
import type { GitHubClient, RepoRef } from './types.js';

export interface StickyCommentResult {
  created: number;
  updated: number;
  unchanged: number;
  /** Parts from an earlier, longer body, emptied so no stale text remains. */
  retired: number;
}

const RETIRED = '_This part of an earlier comment is no longer used._';

export function partKey(key: string, index: number): string {
  return `${key}#${index + 1}`;
}

/** `author`: only the App's own comments are edited; one that merely carries its marker is left alone. */
export async function upsertStickyComment(
  octokit: GitHubClient,
  options: RepoRef & { issueNumber: number; key: string; parts: string[]; author: AppIdentity },
): Promise<StickyCommentResult> {
  const { owner, repo, issueNumber } = options;
  const listed = await octokit.paginate(octokit.rest.issues.listComments, {
    owner,
    repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  const comments = listed.filter((comment) => isAppAuthored(comment, options.author));
  const result: StickyCommentResult = { created: 0, updated: 0, unchanged: 0, retired: 0 };
  const partOf = (index: number): { id: number; body?: string | null } | undefined =>
    comments.find((comment) => markerFor(comment.body, partKey(options.key, index)));
  for (const [index, part] of options.parts.entries()) {
    const key = partKey(options.key, index);
    const body = stampMarker(part, key);
    const existing = partOf(index);
    if (!existing) {
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
      result.created += 1;
    } else if (sameContent(existing.body, body, key)) {
      result.unchanged += 1;
    } else {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      result.updated += 1;
    }
  }
  for (let index = options.parts.length; partOf(index); index += 1) {
    const existing = partOf(index)!;
    const body = stampMarker(RETIRED, partKey(options.key, index));
    if (sameContent(existing.body, body, partKey(options.key, index))) continue;
    await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
    result.retired += 1;
  }
  return result;
}

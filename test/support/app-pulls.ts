// Pull requests on the App harness's stand-in as a person opens and merges them, each followed by the
// webhook GitHub sends and the App's queue drained.
import { expect } from 'vitest';
import { drain, pullRequestPayload, pushPayload, sendWebhook, type AppHarness } from './app.js';

/** The comment bodies on issue or pull request `number`, oldest first. */
export function commentsOn(harness: AppHarness, number: number): string[] {
  const repo = harness.standIn.state.repo(harness.owner, harness.repo);
  return [...repo.comments.values()]
    .filter((comment) => comment.issueNumber === number)
    .sort((a, b) => a.id - b.id)
    .map((comment) => comment.body);
}

/**
 * Opens a pull request that changes `files` (null deletes) on `branch`, as a person does, and sends
 * GitHub's pull_request opened webhook; `message` is the commit message (the stand-in's own if left out).
 */
export async function openPullRequest(
  harness: AppHarness,
  branch: string,
  files: Record<string, string | null>,
  options: { title: string; message?: string },
): Promise<number> {
  const { owner, repo: name } = harness;
  harness.standIn.pushCommit({
    owner,
    repo: name,
    branch,
    files,
    ...(options.message ? { message: options.message } : {}),
  });
  const repo = harness.standIn.state.repo(owner, name);
  const number = repo.nextNumber++;
  const at = harness.standIn.state.timestamp();
  repo.issues.set(number, {
    number,
    title: options.title,
    body: null,
    state: 'open',
    stateReason: null,
    labels: [],
    user: 'octocat',
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    pull: { head: branch, base: repo.defaultBranch, draft: false, merged: false },
  });
  expect(await sendWebhook(harness, 'pull_request', pullRequestPayload(harness, number, branch, 'opened'))).toBe(200);
  await drain(harness);
  return number;
}

/** Merges pull request `number` and sends the push to main; the merge commit's sha. */
export async function mergePullRequest(harness: AppHarness, number: number): Promise<string> {
  const sha = harness.standIn.mergePullRequest({ owner: harness.owner, repo: harness.repo, number });
  expect(await sendWebhook(harness, 'push', pushPayload(harness, 'main', sha))).toBe(200);
  await drain(harness);
  return sha;
}

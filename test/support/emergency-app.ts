// What the alert and emergency tests of the App read on the GitHub stand-in and how they move the App
// on: its pull requests and issues, the alert issues by title, the checklist an emergency PR ticks, a
// commit pushed to the default branch (with GitHub's webhook), the every-minute watch run once, and a
// snapshot uploaded with the clock at its capture time.
import { expect } from 'vitest';
import type { Snapshot } from '../../src/core/model/index.js';
import { drain, pushPayload, sendWebhook, uploadSnapshot, type AppHarness } from './app.js';
import type { IssueRecord } from './github/state.js';

const everything = (app: AppHarness): IssueRecord[] => [...app.standIn.state.repo(app.owner, app.repo).issues.values()];

export const pullsOf = (app: AppHarness): IssueRecord[] => everything(app).filter((issue) => issue.pull);

export const issuesOf = (app: AppHarness): IssueRecord[] => everything(app).filter((issue) => !issue.pull);

/** The issues titled `title`, in the order they were opened. */
export const issuesTitled = (app: AppHarness, title: string): IssueRecord[] =>
  issuesOf(app).filter((issue) => issue.title === title);

/** The items of an emergency PR's checklist that are ticked (`merged`, `resumed`, `applied`, `in sync`). */
export const ticked = (body: string | null | undefined): string[] =>
  [...(body ?? '').matchAll(/^- \[x\] (\w[\w ]*):/gm)].map((m) => m[1]!);

/** The scheduled watch run once now (what the every-minute schedule does). */
export async function runWatch(app: AppHarness): Promise<void> {
  await app.app.queue.enqueue('alerts', 'alerts', {});
  await drain(app);
}

/** A commit of `files` on the default branch, as a person pushes it, and GitHub's push webhook; its sha. */
export async function pushToMain(app: AppHarness, files: Record<string, string>, message: string): Promise<string> {
  const repo = app.standIn.state.repo(app.owner, app.repo);
  const before = app.standIn.state.resolve(repo, 'main')!;
  const sha = app.standIn.pushCommit({ owner: app.owner, repo: app.repo, branch: 'main', files, message });
  expect(await sendWebhook(app, 'push', pushPayload(app, 'main', sha, before))).toBe(200);
  await drain(app);
  return sha;
}

/** Uploads `snapshot` with the App's clock at its capture time, and waits for what it set off. */
export async function uploadAtCapture(
  app: AppHarness,
  clock: { now: Date },
  snapshot: Pick<Snapshot, 'capturedAt' | 'repository' | 'cluster'>,
): Promise<void> {
  clock.now = new Date(snapshot.capturedAt);
  expect((await uploadSnapshot(app, snapshot)).status).toBe(202);
  await drain(app);
}

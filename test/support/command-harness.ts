// The real App on the GitHub stand-in (test/app/plan-harness.ts) set up for comment commands: people
// with their roles on the repository, a cluster's snapshots uploaded at the times a test names, and a
// person's `/driftback …` comment delivered as GitHub's webhook, read back as the App's replies and
// reactions. The switch issue, the command faults and the command scenarios start the same way.
import { expect } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import {
  drain,
  issueCommentPayload,
  OWNER,
  REPO,
  REPOSITORY,
  sendWebhook,
  startHarness,
  uploadSnapshot,
  type Harness,
} from '../app/plan-harness.js';
import { pushPayload } from './app.js';
import { APP_LOGIN } from './github/index.js';
import type { CollaboratorRole } from './github/state.js';

export interface CommandHarness extends Harness {
  /** Uploads `live` as `cluster`'s snapshot at each time (the clock moved there), the App done after each. */
  snapshots(cluster: string, live: () => KubeObject[], at: readonly string[]): Promise<void>;
  /** The App's comments on an issue or pull request, after comment id `after`. */
  appComments(number: number, after?: number): Array<{ id: number; user: string; body: string }>;
  /**
   * Writes `body` on `number` as `login`, delivers the webhook and waits for the App: the App's replies
   * (its marked documents, such as a plan comment, left out) and the reactions on the comment as
   * `user:content`.
   */
  command(
    number: number,
    login: string,
    body: string,
  ): Promise<{ comment: Record<string, any>; replies: string[]; reactions: string[] }>;
  /** Delivers the push webhook of commit `sha` on `branch`. */
  push(branch: string, sha: string): Promise<void>;
}

export async function startCommandHarness(
  files: Record<string, string>,
  options: { start: string; roles?: Record<string, CollaboratorRole> },
): Promise<CommandHarness> {
  const h = await startHarness(files, options.start);
  for (const [login, role] of Object.entries(options.roles ?? {})) h.standIn.setRole(OWNER, REPO, login, role);
  const appComments = (number: number, after = 0) =>
    h.standIn.commentsOn(OWNER, REPO, number).filter((comment) => comment.id > after && comment.user === APP_LOGIN);
  return {
    ...h,
    appComments,
    async snapshots(cluster, live, at) {
      for (const time of at) {
        h.clock.now = new Date(time);
        expect(await uploadSnapshot(h, cluster, live())).toBe(202);
        await drain(h);
      }
    },
    async command(number, login, body) {
      const comment = h.standIn.postComment({ owner: OWNER, repo: REPO, number, body, login });
      expect(await sendWebhook(h, 'issue_comment', issueCommentPayload(h, number, comment))).toBe(200);
      await drain(h);
      const replies = appComments(number, comment.id).filter((reply) => !reply.body.includes('driftback-marker'));
      const reactions = h.standIn
        .reactionsOn(OWNER, REPO, comment.id)
        .map((reaction) => `${reaction.user}:${reaction.content}`);
      return { comment, replies: replies.map((reply) => reply.body), reactions };
    },
    async push(branch, sha) {
      const harness = { ...h, owner: OWNER, repo: REPO, repository: REPOSITORY, dataDir: '', restart: async () => {} };
      expect(await sendWebhook(h, 'push', pushPayload(harness, branch, sha))).toBe(200);
    },
  };
}

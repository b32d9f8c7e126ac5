// What the App records when the queue gives a job up (its last attempt failed, or the process did
// not survive running it): the pull request's `driftback / plan` check run fails with the reason,
// a cluster's dashboard entry shows why its drift check stopped, and a comment command is answered
// with a reply saying it failed and how to run it again (and 😕 on the comment). Nothing is retried from here:
// the next push, snapshot or re-run enqueues the work again.
import { givenUpReply } from '../core/commands/index.js';
import { givenUpCheckRun } from '../core/report/index.js';
import { createOrUpdateCheckRun, reactToComment, replyOnPullRequest, type AppIdentity } from '../github/index.js';
import type { Store } from '../store/types.js';
import { splitRepository, type InstallationClients } from './github-client.js';
import { PLAN_CHECK_NAME } from './plan/deps.js';
import { COMMAND_QUEUE, isCommandJob, isPlanJob, isReconcileJob, PLAN_QUEUE, RECONCILE_QUEUE } from './queue/jobs.js';
import { wasInterrupted, type GiveUpHandler } from './queue/types.js';
import { readClusterState, writeClusterState } from './reconcile/state.js';

export interface GiveUpDeps {
  store: Store;
  clients: Pick<InstallationClients, 'forRepository'>;
  appIdentity: () => Promise<AppIdentity>;
  now: () => Date;
}

export function givenUpHandlers(deps: GiveUpDeps): Record<string, GiveUpHandler> {
  return {
    [PLAN_QUEUE]: async (payload, info) => {
      if (!isPlanJob(payload)) return;
      const { owner, repo } = splitRepository(payload.repository);
      const octokit = await deps.clients.forRepository(payload.repository);
      const { data: pull } = await octokit.rest.pulls.get({ owner, repo, pull_number: payload.number });
      await createOrUpdateCheckRun(octokit, {
        owner,
        repo,
        name: PLAN_CHECK_NAME,
        headSha: pull.head.sha,
        ...givenUpCheckRun(info.attempts, info.reason),
      });
    },
    [COMMAND_QUEUE]: async (payload, info) => {
      if (!isCommandJob(payload)) return;
      const { owner, repo } = splitRepository(payload.repository);
      const octokit = await deps.clients.forRepository(payload.repository);
      const reply = givenUpReply(payload.line, info.attempts, wasInterrupted(info.reason));
      await replyOnPullRequest(octokit, { owner, repo, number: payload.number }, reply);
      await reactToComment(octokit, { owner, repo, commentId: payload.commentId }, 'confused');
    },
    [RECONCILE_QUEUE]: async (payload, info) => {
      if (!isReconcileJob(payload)) return;
      const { repository, cluster } = payload;
      const state = await readClusterState(deps.store, repository, cluster);
      const message = `the drift check of ${cluster} was given up after ${info.attempts} attempt${info.attempts === 1 ? '' : 's'}: ${info.reason}; the next snapshot or push checks again`;
      await writeClusterState(deps.store, repository, cluster, {
        ...state,
        lastReconcileAt: deps.now().toISOString(),
        outcome: { type: 'failed', message },
        problems: [{ file: `cluster ${cluster}`, message }],
      });
    },
  };
}

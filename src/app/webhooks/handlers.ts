// Webhook handlers: short adapters that return early with a logged reason, then call one function.
import type { Context } from 'probot';
import type { Store } from '../../store/types.js';
import type { InstallationClients } from '../github-client.js';
import type { JobQueue } from '../queue/jobs.js';
import { confirmClosedUnmerged, recordDeclinedPullRequest } from '../reconcile/decline.js';
import { recordBranchEvent, recordPushedHead } from '../reconcile/state.js';
import { enqueueClustersOf } from './enqueue-clusters.js';

export interface WebhookDeps {
  store: Store;
  queue: JobQueue;
  clients: InstallationClients;
  now: () => Date;
}

/**
 * A push to the default branch changes the desired state of every cluster of the repository; its new
 * HEAD (commit and tree) is recorded so the reconciles it starts need not read it. A push to another
 * branch may be to a drift branch: what the App knows of that branch's PR is read again before use.
 */
export function onPush(deps: WebhookDeps) {
  return async (context: Context<'push'>): Promise<void> => {
    const { ref, repository, before, after, head_commit: head, deleted } = context.payload;
    if (!ref.startsWith('refs/heads/')) return context.log.debug({ ref }, 'push of a tag: nothing to reconcile');
    if (ref !== `refs/heads/${repository.default_branch}`) {
      await recordBranchEvent(deps.store, repository.full_name, ref.slice('refs/heads/'.length), deps.now());
      return context.log.debug({ ref }, 'push to another branch than the default: nothing to reconcile');
    }
    const push = {
      defaultBranch: repository.default_branch,
      before,
      after,
      ...(head && !deleted ? { treeSha: head.tree_id } : {}),
    };
    const recorded = await recordPushedHead(deps.store, repository.full_name, push, deps.now());
    if (recorded === 'stale')
      context.log.info(
        { repository: repository.full_name, before, after },
        'push does not follow on from the HEAD known: the next reconcile reads HEAD from GitHub',
      );
    const clusters = await enqueueClustersOf(deps.store, deps.queue, repository.full_name, 'push');
    context.log.info(
      { repository: repository.full_name, clusters },
      clusters.length
        ? 'push to the default branch: reconciling'
        : 'push to the default branch: no cluster has a snapshot yet',
    );
  };
}

/** A new installation (or repositories added to one): reconcile clusters whose snapshots were waiting. */
export function onInstallation(deps: WebhookDeps) {
  return async (context: Context<'installation.created' | 'installation_repositories.added'>): Promise<void> => {
    const payload = context.payload as {
      repositories?: Array<{ full_name: string }>;
      repositories_added?: Array<{ full_name: string }>;
    };
    const repositories = payload.repositories_added ?? payload.repositories ?? [];
    for (const { full_name } of repositories) {
      deps.clients.forget(full_name);
      const clusters = await enqueueClustersOf(deps.store, deps.queue, full_name, 'installation');
      context.log.info(
        { repository: full_name, clusters },
        'installed: reconciling clusters that already have snapshots',
      );
    }
  };
}

/** Any pull_request event: what the App knows of the PR of that branch is read again before use. */
export function onPullRequestEvent(deps: WebhookDeps) {
  return async (context: Context<'pull_request'>): Promise<void> => {
    const { pull_request: pull, repository } = context.payload;
    if (pull.head.repo?.full_name?.toLowerCase() !== repository.full_name.toLowerCase()) return;
    await recordBranchEvent(deps.store, repository.full_name, pull.head.ref, deps.now());
  };
}

/** A drift PR closed without merge: its fingerprints become a decision. */
export function onPullRequestClosed(deps: WebhookDeps) {
  return async (context: Context<'pull_request.closed'>): Promise<void> => {
    const { pull_request: pull, repository } = context.payload;
    if (pull.merged)
      return context.log.debug({ number: pull.number }, 'pull request merged: the next reconcile sees the drift gone');
    // The App closes its own PRs when the drift is gone: that is not a person declining it.
    if (context.payload.sender.type === 'Bot')
      return context.log.debug({ number: pull.number }, 'pull request closed by a bot: not a decision');
    if (pull.head.repo?.full_name?.toLowerCase() !== repository.full_name.toLowerCase())
      return context.log.debug({ number: pull.number }, 'pull request from a fork: not a drift PR');
    const input = { repository: repository.full_name, branch: pull.head.ref, number: pull.number };
    const confirm = async () => confirmClosedUnmerged(await deps.clients.forRepository(input.repository), input);
    const result = await recordDeclinedPullRequest(
      deps.store,
      { ...input, decidedAt: deps.now().toISOString() },
      confirm,
    );
    context.log.info(
      { number: pull.number, branch: pull.head.ref, result },
      result.type === 'recorded'
        ? 'drift PR closed unmerged: its drift is not proposed again'
        : 'closed pull request is not a drift PR',
    );
  };
}

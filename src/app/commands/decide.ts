// `/driftback ignore` and `/driftback allow` on a drift PR: the items the target names are recorded
// as decisions (who, when, why) and the cluster is reconciled again, so its drift PR is rebuilt with
// the decision applied and listed. An `ignore` also opens (or updates) the pull request that adds
// the ignore rule to `.github/driftback.yml`, so that it holds for any live value once merged.
import {
  decidedReply,
  matchItems,
  noMatchReply,
  notDriftPullRequestReply,
  nothingToDecideReply,
  type Command,
  type CommandItem,
} from '../../core/commands/index.js';
import { displayKey } from '../../core/model/index.js';
import type { ItemDecision } from '../../store/types.js';
import type { ReviewDeps } from '../plan/deps.js';
import { RECONCILE_QUEUE, reconcileKey, type CommandJob } from '../queue/jobs.js';
import { decisionView } from '../reconcile/item-decisions.js';
import { proposeIgnoreRule } from './config-pull-request.js';
import { pullRequestItems } from './pull-request-items.js';

/** What a command came to: done (👍) or not (😕), what the log says, and the reply. */
export interface Answer {
  ok: boolean;
  outcome: string;
  reply?: string;
}

type Decide = Extract<Command, { type: 'ignore' | 'allow' }>;

/** An item a decision can apply to: ignore what is proposed or held back; allow only what is held back. */
function decidable(item: CommandItem, action: Decide['type']): boolean {
  if (!item.fingerprint) return false;
  return action === 'allow' ? item.status === 'held-back' : item.status !== 'reported';
}

export async function decideItems(deps: ReviewDeps, job: CommandJob, command: Decide): Promise<Answer> {
  const { drift } = await pullRequestItems(deps.store, job.repository, job.number);
  if (!drift) return { ok: false, outcome: 'not a drift PR', reply: notDriftPullRequestReply(command.type) };
  const matched = matchItems(drift.items, command.target);
  if (matched.length === 0) return { ok: false, outcome: 'no match', reply: noMatchReply(command.target, drift.items) };
  const chosen = matched.filter((item) => decidable(item, command.type));
  const skipped = matched.filter((item) => !decidable(item, command.type));
  if (chosen.length === 0)
    return { ok: false, outcome: 'nothing to decide', reply: nothingToDecideReply(command.type, skipped) };
  const decidedAt = deps.now().toISOString();
  const decisions: ItemDecision[] = chosen.map((item) => ({
    repository: drift.repository,
    cluster: drift.cluster,
    fingerprint: item.fingerprint,
    action: command.type,
    object: displayKey(item.key),
    field: item.field,
    reason: command.reason ?? 'no reason given',
    by: job.login,
    decidedAt,
    pullRequest: job.number,
    commentId: job.commentId,
  }));
  await deps.store.recordItemDecisions(decisions);
  await deps.queue.enqueue(RECONCILE_QUEUE, reconcileKey(drift.repository, drift.cluster), {
    repository: drift.repository,
    cluster: drift.cluster,
    reason: 'command',
  });
  // An ignore is also proposed as a rule in the config, so it holds for any live value once merged.
  const config =
    command.type === 'ignore'
      ? await proposeIgnoreRule(deps, job, {
          items: chosen,
          target: command.target,
          ...(command.reason !== undefined ? { reason: command.reason } : {}),
        })
      : undefined;
  const outcome = `${command.type}: ${decisions.length} items decided on ${drift.cluster}${config ? `; config rule ${config.type}` : ''}`;
  return {
    ok: true,
    outcome,
    reply: decidedReply(decisions.map(decisionView), skipped, config, drift.switchIssue === true),
  };
}

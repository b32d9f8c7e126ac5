// The `command` job: answers one `/driftback …` comment. The comment gets 👀 at once, then a reply and
// 👍 (done) or 😕 (refused, not understood, nothing to do). Commands that change what driftback does
// (plan, ignore, allow) need write access, checked through GitHub's collaborator permission API.
import {
  changesState,
  explainReply,
  helpReply,
  invalidReply,
  matchItems,
  notOnSwitchIssueReply,
  parseCommand,
  planReply,
  rateLimitedReply,
  refusalReply,
  type Command,
  type Target,
} from '../../core/commands/index.js';
import { canWrite, permissionOf, reactToComment, replyOnPullRequest, type GitHubClient } from '../../github/index.js';
import { splitRepository } from '../github-client.js';
import type { ReviewDeps } from '../plan/deps.js';
import { isCommandJob, PLAN_QUEUE, planJobKey, type CommandJob } from '../queue/jobs.js';
import type { JobHandler } from '../queue/types.js';
import { decideItems, type Answer } from './decide.js';
import { decisionView } from '../reconcile/item-decisions.js';
import { pullRequestItems } from './pull-request-items.js';

/** Commands one pull request may run in RATE_WINDOW_MINUTES; past that they are refused. */
export const RATE_LIMIT = 10;
export const RATE_WINDOW_MINUTES = 10;

export async function runCommand(deps: ReviewDeps, job: CommandJob): Promise<Answer> {
  const { owner, repo } = splitRepository(job.repository);
  const octokit = await deps.clients.forRepository(job.repository);
  const comment = { owner, repo, commentId: job.commentId };
  await reactToComment(octokit, comment, 'eyes');
  const answer = await answerCommand(deps, octokit, job);
  if (answer.reply) await replyOnPullRequest(octokit, { owner, repo, number: job.number }, answer.reply);
  await reactToComment(octokit, comment, answer.ok ? '+1' : 'confused');
  return answer;
}

async function answerCommand(deps: ReviewDeps, octokit: GitHubClient, job: CommandJob): Promise<Answer> {
  const command = parseCommand(job.line);
  if (!command) return { ok: false, outcome: 'not a command' };
  if (command.type === 'invalid') return { ok: false, outcome: 'invalid', reply: invalidReply(command.message) };
  const since = deps.now().getTime() - RATE_WINDOW_MINUTES * 60_000;
  const recent = await deps.store.commandsSince(job.repository.toLowerCase(), job.number, since);
  if (recent > RATE_LIMIT) {
    // Said once; later commands in the window only get 😕.
    const reply = recent === RATE_LIMIT + 1 ? rateLimitedReply(RATE_LIMIT, RATE_WINDOW_MINUTES) : undefined;
    return { ok: false, outcome: 'rate-limited', ...(reply ? { reply } : {}) };
  }
  if (changesState(command)) {
    const { owner, repo } = splitRepository(job.repository);
    const permission = await permissionOf(octokit, { owner, repo, login: job.login });
    if (!canWrite(permission))
      return {
        ok: false,
        outcome: `refused (${permission})`,
        reply: refusalReply(command.type, job.login, permission),
      };
  }
  return runParsed(deps, job, command);
}

async function runParsed(
  deps: ReviewDeps,
  job: CommandJob,
  command: Exclude<Command, { type: 'invalid' }>,
): Promise<Answer> {
  // On an emergency switch issue there is no plan to run and no field to ignore: only the switches to keep.
  if (job.issue && (command.type === 'plan' || command.type === 'ignore'))
    return { ok: false, outcome: `${command.type} on a switch issue`, reply: notOnSwitchIssueReply(command.type) };
  switch (command.type) {
    case 'help':
      return { ok: true, outcome: 'help', reply: helpReply() };
    case 'plan':
      await deps.queue.enqueue(PLAN_QUEUE, planJobKey(job.repository, job.number), {
        repository: job.repository,
        number: job.number,
        reason: 'command',
      });
      return { ok: true, outcome: 'plan queued', reply: planReply() };
    case 'explain':
      return explain(deps, job, command.target);
    case 'ignore':
    case 'allow':
      return decideItems(deps, job, command);
  }
}

async function explain(deps: ReviewDeps, job: CommandJob, target: Target): Promise<Answer> {
  const found = await pullRequestItems(deps.store, job.repository, job.number);
  const scope = found.drift ? [found.drift] : found.clusters;
  const items = scope.flatMap((cluster) => matchItems(cluster.items, target));
  const decided = [];
  for (const cluster of scope) {
    const decisions = await deps.store.itemDecisions(cluster.repository, cluster.cluster);
    decided.push(...matchDecisions(decisions.map(decisionView), target));
  }
  return { ok: true, outcome: `explained ${items.length} items`, reply: explainReply(target, items, decided) };
}

/** Decisions on the target: recorded with the object's and field's names, matched as items are. */
function matchDecisions<T extends { object: string; field: string }>(decisions: readonly T[], target: Target): T[] {
  const asItems = decisions.map((decision) => {
    const [kind = '', a = '', b] = decision.object.split('/');
    const key =
      b === undefined ? { group: '', kind, namespace: '', name: a } : { group: '', kind, namespace: a, name: b };
    return { key, field: decision.field, path: '', decision };
  });
  return matchItems(asItems, target).map((entry) => entry.decision);
}

export function createCommandHandler(deps: ReviewDeps): JobHandler {
  return async (payload) => {
    if (!isCommandJob(payload)) return deps.log.warn({ payload }, 'command job without repository, comment or line');
    const answer = await runCommand(deps, payload);
    deps.log.info(
      { repository: payload.repository, pullRequest: payload.number, comment: payload.commentId, ok: answer.ok },
      `driftback command: ${answer.outcome}`,
    );
  };
}

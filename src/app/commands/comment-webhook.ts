// `issue_comment` webhooks: a comment on an open pull request (or on an emergency switch issue the App
// opened) whose first line starts with `/driftback`, written by a person, becomes a command job. A comment id is claimed once, so an
// edited comment (or a redelivered webhook) does not run its command again; bots, the App itself
// included, are never answered (two bots would answer each other forever).
import type { Context } from 'probot';
import { COMMAND_PREFIX } from '../../core/commands/index.js';
import type { Store } from '../../store/types.js';
import type { AppLogger } from '../logger.js';
import { isSwitchIssue } from './pull-request-items.js';
import { COMMAND_LINE_MAX, COMMAND_QUEUE, commandJobKey, type CommandJob, type JobQueue } from '../queue/jobs.js';

export const COMMAND_COMMENT_ACTIONS = ['issue_comment.created', 'issue_comment.edited'] as const;

interface CommentWebhookDeps {
  store: Store;
  queue: JobQueue;
  now: () => Date;
  log: AppLogger;
}

function commandLine(body: string | null | undefined): string | undefined {
  const line = (body ?? '').replace(/^\s+/, '').split(/\r?\n/, 1)[0] ?? '';
  const first = line.split(/\s+/, 1)[0]?.toLowerCase();
  return first === COMMAND_PREFIX ? line.slice(0, COMMAND_LINE_MAX) : undefined;
}

export function onCommentCommand(deps: CommentWebhookDeps) {
  return async (context: Context<(typeof COMMAND_COMMENT_ACTIONS)[number]>): Promise<void> => {
    const { issue, comment, repository, sender } = context.payload;
    const line = commandLine(comment.body);
    if (line === undefined) return;
    const fields = { repository: repository.full_name, pullRequest: issue.number, comment: comment.id };
    if (sender.type === 'Bot' || comment.user?.type === 'Bot' || comment.performed_via_github_app)
      return deps.log.info(fields, 'driftback command written by a bot: not answered');
    if (!issue.pull_request && !(await isSwitchIssue(deps.store, repository.full_name, issue.number)))
      return deps.log.info(fields, 'driftback command on an issue: commands work on pull requests and switch issues');
    if (issue.state !== 'open') return deps.log.info(fields, 'driftback command on a closed pull request: ignored');
    const claim = {
      repository: repository.full_name.toLowerCase(),
      commentId: comment.id,
      pullRequest: issue.number,
      receivedMs: deps.now().getTime(),
    };
    if (!(await deps.store.claimCommand(claim)))
      return deps.log.info(fields, 'driftback command of a comment already handled (edited or delivered again)');
    const job: CommandJob = {
      repository: repository.full_name,
      number: issue.number,
      commentId: comment.id,
      line,
      login: comment.user?.login ?? sender.login,
      ...(issue.pull_request ? {} : { issue: true as const }),
    };
    await deps.queue.enqueue(COMMAND_QUEUE, commandJobKey(job.repository, job.commentId), { ...job });
    deps.log.info(fields, 'driftback command queued');
  };
}

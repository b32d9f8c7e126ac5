// Writes the emergency switch issue the reconcile decided on (core/decide/switch-issue-actions.ts): the drift
// PR a decision opened in this run gives its number to the text; an unchanged text makes no call; a
// closed one gets its comment first. What it did is the record the cluster state keeps.
import { EMERGENCY_LABEL, type ActionOf, type SwitchIssueRecord } from '../../core/decide/index.js';
import { contentHash } from '../../core/report/index.js';
import { closeIssue, upsertIssueByMarker } from '../../github/index.js';
import { renderInPlace } from '../isolation/documents.js';
import type { GitHubContext } from './github-context.js';
import type { BranchState } from './state.js';

/** The labels of a switch issue: driftback's, and the emergency label its drift PRs carry. */
export const SWITCH_ISSUE_LABELS = ['driftback', EMERGENCY_LABEL];

export async function writeSwitchIssue(
  ctx: GitHubContext,
  action: ActionOf<'switch-issue.write'>,
  previous: SwitchIssueRecord | undefined,
  branches: Readonly<Record<string, BranchState>>,
): Promise<SwitchIssueRecord> {
  // A decision's drift PR opened in this run: its number is known only now.
  const switches = action.switches.map((entry) => {
    const number =
      entry.decided?.pullRequest ?? (entry.decided ? branches[entry.decided.branch]?.pullRequest : undefined);
    return entry.decided && number !== undefined
      ? { ...entry, decided: { ...entry.decided, pullRequest: number } }
      : entry;
  });
  // The repository's `switch-issue` template (default branch HEAD), in a job worker when there is one.
  const documents = ctx.documents ?? renderInPlace;
  const { title, body } = await documents(
    'renderSwitchIssue',
    { ...action.view, switches },
    { templates: ctx.templates },
  );
  const hash = contentHash(JSON.stringify([title, body]));
  const listed = switches.map((entry) => ({
    key: entry.key,
    path: entry.path,
    field: entry.field,
    ...(entry.live !== undefined ? { live: entry.live } : {}),
    ...(entry.decided?.pullRequest !== undefined ? { pullRequest: entry.decided.pullRequest } : {}),
  }));
  if (previous && previous.hash === hash) return { ...previous, switches: listed };
  const content = { owner: ctx.owner, repo: ctx.repo, key: action.key, title, body, labels: SWITCH_ISSUE_LABELS };
  const result = await upsertIssueByMarker(ctx.octokit, { ...content, author: ctx.app });
  ctx.log.info({ cluster: ctx.cluster, issue: result.number, result: result.type }, 'emergency switch issue written');
  return { issue: result.number, hash, switches: listed };
}

export async function closeSwitchIssue(ctx: GitHubContext, action: ActionOf<'switch-issue.close'>): Promise<void> {
  const closed = await closeIssue(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    number: action.issue,
    comment: action.comment,
  });
  ctx.log.info({ cluster: ctx.cluster, issue: action.issue, result: closed.type }, 'emergency switch issue closed');
}

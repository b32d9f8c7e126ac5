// The "<source> is still suspended" alert: one issue per suspension once it has lasted longer than
// emergency.resumeWithin (with its emergency PR, or, when there is no drift and no PR, as a forgotten
// suspension naming who suspended it), opened once and not rewritten while it stays open, closed
// with a comment when the source reconciles again.
import { parseDuration, type Config } from '../../core/config/index.js';
import { NO_OVERRIDES, type TemplateOverrides } from '../../core/report/index.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';
import {
  closeIssue,
  upsertIssueByMarker,
  type AppIdentity,
  type GitHubClient,
  type RepoRef,
} from '../../github/index.js';
import { suspensionView } from '../reconcile/follow-emergency.js';
import type { SuspensionState } from '../reconcile/state.js';
import type { WatchState } from './alert-state.js';
import { ALERT_LABELS } from './not-reporting.js';

export function suspendedKey(cluster: string, source: string): string {
  return `alert/${cluster}/suspended/${source}`;
}

export interface SuspendedAlertChange {
  type: 'opened' | 'reopened' | 'closed';
  resource: string;
  issue: number;
}

export async function checkSuspended(
  octokit: GitHubClient,
  repo: RepoRef,
  cluster: string,
  suspensions: readonly SuspensionState[],
  emergency: Config['emergency'],
  state: WatchState,
  now: Date,
  author: AppIdentity,
  templates: () => Promise<TemplateOverrides> = async () => NO_OVERRIDES,
  documents: Documents = renderInPlace,
): Promise<SuspendedAlertChange[]> {
  const limit = parseDuration(emergency.resumeWithin) ?? 8 * 3600;
  const previous = state.suspended?.[cluster] ?? {};
  const next: Record<string, { issue: number }> = {};
  const changes: SuspendedAlertChange[] = [];
  const label = (source: string) => `${cluster}/${source}`;
  for (const suspended of suspensions) {
    const source = suspended.suspension.id;
    const open = previous[source];
    if (open) {
      next[source] = open;
      continue;
    }
    if (now.getTime() - Date.parse(suspended.since) <= limit * 1000) continue;
    const { title, body } = await documents(
      'renderSuspendedAlert',
      {
        cluster,
        now: now.toISOString(),
        resumeWithin: emergency.resumeWithin,
        view: suspensionView(suspended),
        ...(suspended.pullRequest !== undefined ? { pullRequest: suspended.pullRequest } : {}),
        ...(suspended.merged ? { merged: true } : {}),
      },
      { templates: await templates() },
    );
    const key = suspendedKey(cluster, source);
    const result = await upsertIssueByMarker(octokit, { ...repo, key, title, body, labels: ALERT_LABELS, author });
    next[source] = { issue: result.number };
    changes.push({
      type: result.type === 'reopened' ? 'reopened' : 'opened',
      resource: label(source),
      issue: result.number,
    });
  }
  for (const [source, open] of Object.entries(previous)) {
    if (next[source]) continue;
    const comment = `\`${source}\` in \`${cluster}\` reconciles again: it was resumed. Closing.`;
    await closeIssue(octokit, { ...repo, number: open.issue, comment });
    changes.push({ type: 'closed', resource: label(source), issue: open.issue });
  }
  const { [cluster]: _before, ...others } = state.suspended ?? {};
  state.suspended = Object.keys(next).length > 0 ? { ...others, [cluster]: next } : others;
  return changes;
}

// The "<source> is still suspended" alert: one issue per suspension once it has lasted longer than
// emergency.resumeWithin (with its emergency PR, or, when there is no drift and no PR, as a forgotten
// suspension naming who suspended it), opened once and not rewritten while it stays open, closed
// with a comment when the source reconciles again.
import { parseDuration, type Config } from '../../core/config/index.js';
import { renderSuspendedAlert } from '../../core/report/index.js';
import {
  closeIssue, upsertIssueByMarker, type AppIdentity, type GitHubClient, type RepoRef,
} from '../../github/index.js';
import { suspensionView } from '../reconcile/emergency.js';
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
  octokit: GitHubClient, repo: RepoRef, cluster: string, suspensions: readonly SuspensionState[],
  emergency: Config['emergency'], state: WatchState, now: Date, author: AppIdentity,
): Promise<SuspendedAlertChange[]> {
  const limit = parseDuration(emergency.resumeWithin) ?? 8 * 3600;
  const prefix = `${cluster}/`;
  const previous = state.suspended ?? {};
  const next: NonNullable<WatchState['suspended']> = {};
  for (const [id, open] of Object.entries(previous)) if (!id.startsWith(prefix)) next[id] = open;
  const changes: SuspendedAlertChange[] = [];
  for (const suspended of suspensions) {
    const id = `${prefix}${suspended.suspension.id}`;
    const open = previous[id];
    if (open) {
      next[id] = open;
      continue;
    }
    if (now.getTime() - Date.parse(suspended.since) <= limit * 1000) continue;
    const { title, body } = renderSuspendedAlert({
      cluster, now: now.toISOString(), resumeWithin: emergency.resumeWithin,
      view: suspensionView(suspended),
      ...(suspended.pullRequest !== undefined ? { pullRequest: suspended.pullRequest } : {}),
      ...(suspended.merged ? { merged: true } : {}),
    });
    const key = suspendedKey(cluster, suspended.suspension.id);
    const result = await upsertIssueByMarker(octokit, { ...repo, key, title, body, labels: ALERT_LABELS, author });
    next[id] = { issue: result.number };
    changes.push({ type: result.type === 'reopened' ? 'reopened' : 'opened', resource: id, issue: result.number });
  }
  const still = new Set(suspensions.map((suspended) => `${prefix}${suspended.suspension.id}`));
  for (const [id, open] of Object.entries(previous)) {
    if (!id.startsWith(prefix) || still.has(id)) continue;
    const comment = `\`${id.slice(prefix.length)}\` in \`${cluster}\` reconciles again: it was resumed. Closing.`;
    await closeIssue(octokit, { ...repo, number: open.issue, comment });
    changes.push({ type: 'closed', resource: id, issue: open.issue });
  }
  state.suspended = next;
  return changes;
}

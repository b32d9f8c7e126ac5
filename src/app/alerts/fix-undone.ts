// The "emergency fix was undone" alert: the reconcile recorded an emergency PR's outcome as undone
// (the source was resumed and the value the fix set is gone: resumed before the merge, so the
// controller reverted it, or the drift came back). Opened once per emergency PR; a person closes it
// once the fix is in Git.
import { NO_OVERRIDES, renderFixUndoneAlert, type TemplateOverrides } from '../../core/report/index.js';
import { upsertIssueByMarker, type AppIdentity, type GitHubClient, type RepoRef } from '../../github/index.js';
import type { EmergencyRecord } from '../reconcile/state.js';
import type { WatchState } from './alert-state.js';
import { ALERT_LABELS } from './not-reporting.js';

export function fixUndoneKey(cluster: string, source: string): string {
  return `alert/${cluster}/emergency-undone/${source}`;
}

export async function checkFixesUndone(
  octokit: GitHubClient,
  repo: RepoRef,
  cluster: string,
  records: Readonly<Record<string, EmergencyRecord>>,
  state: WatchState,
  author: AppIdentity,
  templates: () => Promise<TemplateOverrides> = async () => NO_OVERRIDES,
): Promise<Array<{ type: 'opened'; resource: string; issue: number }>> {
  const opened: Array<{ type: 'opened'; resource: string; issue: number }> = [];
  const known = { ...state.undone?.[cluster] };
  for (const [source, record] of Object.entries(records)) {
    const id = `${source}#${record.pullRequest}`;
    if (record.outcome !== 'undone' || known[id]) continue;
    const { title, body } = renderFixUndoneAlert(
      {
        cluster,
        source,
        changes: record.changes,
        resumedAt: record.resumedAt ?? '',
        pullRequest: record.pullRequest,
        merged: record.mergeSha !== undefined,
      },
      { templates: await templates() },
    );
    const key = fixUndoneKey(cluster, source);
    const issue = await upsertIssueByMarker(octokit, { ...repo, key, title, body, labels: ALERT_LABELS, author });
    known[id] = { issue: issue.number };
    opened.push({ type: 'opened', resource: `${cluster}/${source}`, issue: issue.number });
  }
  if (opened.length > 0) state.undone = { ...state.undone, [cluster]: known };
  return opened;
}

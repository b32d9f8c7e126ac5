// The "emergency fix was undone" alert: the reconcile recorded an emergency PR's outcome as undone
// (the source was resumed and the value the fix set is gone: resumed before the merge, so the
// controller reverted it, or the drift came back). Opened once per emergency PR; closed with a comment
// once the reconcile no longer records it undone (the merged value is back in the cluster).
import { NO_OVERRIDES, type TemplateOverrides } from '../../core/report/index.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';
import {
  closeIssue,
  upsertIssueByMarker,
  type AppIdentity,
  type GitHubClient,
  type RepoRef,
} from '../../github/index.js';
import type { EmergencyRecord } from '../reconcile/state.js';
import type { WatchState } from './alert-state.js';
import { ALERT_LABELS } from './not-reporting.js';

export function fixUndoneKey(cluster: string, source: string): string {
  return `alert/${cluster}/emergency-undone/${source}`;
}

export interface FixUndoneAlertChange {
  type: 'opened' | 'closed';
  resource: string;
  issue: number;
}

export async function checkFixesUndone(
  octokit: GitHubClient,
  repo: RepoRef,
  cluster: string,
  records: Readonly<Record<string, EmergencyRecord>>,
  state: WatchState,
  author: AppIdentity,
  templates: () => Promise<TemplateOverrides> = async () => NO_OVERRIDES,
  documents: Documents = renderInPlace,
): Promise<FixUndoneAlertChange[]> {
  const opened: FixUndoneAlertChange[] = [];
  const known = { ...state.undone?.[cluster] };
  for (const [id, open] of Object.entries(known)) {
    const source = id.slice(0, id.lastIndexOf('#'));
    const record = records[source];
    if (!record || `${source}#${record.pullRequest}` !== id || record.outcome === 'undone') continue;
    const comment = `The fix of #${record.pullRequest} under \`${source}\` in \`${cluster}\` is back in the cluster. Closing.`;
    await closeIssue(octokit, { ...repo, number: open.issue, comment });
    delete known[id];
    opened.push({ type: 'closed', resource: `${cluster}/${source}`, issue: open.issue });
  }
  for (const [source, record] of Object.entries(records)) {
    const id = `${source}#${record.pullRequest}`;
    if (record.outcome !== 'undone' || known[id]) continue;
    const { title, body } = await documents(
      'renderFixUndoneAlert',
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
  if (opened.length > 0) {
    const { [cluster]: _before, ...others } = state.undone ?? {};
    state.undone = Object.keys(known).length > 0 ? { ...others, [cluster]: known } : others;
  }
  return opened;
}

// The "emergency fix was undone" alert: the reconcile recorded an emergency PR's outcome as undone
// (the source was resumed and the value the fix set is gone: resumed before the merge, so the
// controller reverted it, or the drift came back), or, within emergency.followFor after "verified",
// a live value moved away from the merged value. Opened once per emergency PR; closed with a comment
// once the reconcile no longer records it undone (the merged value is back in the cluster, or Git
// changed the field).
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

/** The record calls its fix undone: before "verified" (outcome), or moved away after it. */
function undone(record: EmergencyRecord | undefined): boolean {
  return record !== undefined && (record.outcome === 'undone' || record.moved !== undefined);
}

/** Why an open alert closes: Git changed the fields, or the fix is back (or no longer followed). */
function closingComment(cluster: string, source: string, pullRequest: string, record: EmergencyRecord): string {
  const where = `The fix of #${pullRequest} under \`${source}\` in \`${cluster}\``;
  const released = record.released ?? [];
  if (record.changes.length === 0 && released.length > 0)
    return `Git now declares another value for ${released.map((field) => `\`${field}\``).join(', ')}: ${where.replace('The fix', 'the fix')} is no longer followed there. Closing.`;
  return `${where} is back in the cluster. Closing.`;
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
    const split = id.lastIndexOf('#');
    const source = id.slice(0, split);
    const record = records[source];
    const same = record !== undefined && `${source}#${record.pullRequest}` === id;
    if (same && undone(record)) continue;
    const comment = same
      ? closingComment(cluster, source, id.slice(split + 1), record)
      : `The fix of #${id.slice(split + 1)} under \`${source}\` in \`${cluster}\` is no longer followed${record ? `: #${record.pullRequest} is the emergency pull request of this source now` : ''}. Closing.`;
    await closeIssue(octokit, { ...repo, number: open.issue, comment });
    delete known[id];
    opened.push({ type: 'closed', resource: `${cluster}/${source}`, issue: open.issue });
  }
  for (const [source, record] of Object.entries(records)) {
    const id = `${source}#${record.pullRequest}`;
    if (!undone(record) || known[id]) continue;
    const { title, body } = await documents(
      'renderFixUndoneAlert',
      {
        cluster,
        source,
        changes: record.changes,
        resumedAt: record.resumedAt ?? '',
        pullRequest: record.pullRequest,
        merged: record.mergeSha !== undefined,
        ...(record.moved && record.verifiedAt ? { verifiedAt: record.verifiedAt, moved: record.moved.fields } : {}),
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

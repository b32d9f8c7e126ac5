// The "emergency fix was undone" alert: the source was resumed and the value the fix set is gone
// (resumed before the merge, so the controller reverted it, or the drift came back). Opened once per
// emergency record by the reconcile that sees it; a person closes it once the fix is in Git.
import { renderFixUndoneAlert, type FixUndoneView } from '../../core/report/index.js';
import { upsertIssueByMarker, type AppIdentity, type GitHubClient, type RepoRef } from '../../github/index.js';
import { ALERT_LABELS } from './not-reporting.js';

export function fixUndoneKey(cluster: string, source: string): string {
  return `alert/${cluster}/emergency-undone/${source}`;
}

export async function alertFixUndone(
  octokit: GitHubClient, repo: RepoRef, undone: FixUndoneView & { pullRequest: number }, author: AppIdentity,
): Promise<number> {
  const alert = renderFixUndoneAlert(undone);
  const key = fixUndoneKey(undone.cluster, undone.source);
  const { title, body } = alert;
  const issue = await upsertIssueByMarker(octokit, { ...repo, key, title, body, labels: ALERT_LABELS, author });
  return issue.number;
}

// The "<namespace>/<name> is not reconciling" alert for a GitOps controller object (Flux
// Kustomization/HelmRelease, Argo CD Application) that applies this cluster's path: a merged change
// that never deploys. Only what wakes people alerts: the condition must hold for an hour (or
// staleAfter, when longer). A suspension is no failure: it has its own deadline (alerts/suspended.ts).
import { parseDuration, type ClusterConfig } from '../../core/config/index.js';
import { reconcilerStateOf } from '../../core/health/index.js';
import type { KubeObject, ReconcilerState } from '../../core/model/index.js';
import { appliesPath, notReconcilingReason } from '../../core/plan/index.js';
import { renderNotReconcilingAlert } from '../../core/report/index.js';
import { closeIssue, upsertIssueByMarker, type AppIdentity, type GitHubClient, type RepoRef } from '../../github/index.js';
import type { WatchState } from './alert-state.js';
import { ALERT_LABELS } from './not-reporting.js';

/** How long a controller must be failing or behind before it is an alert. */
export const NOT_RECONCILING_FOR_SECONDS = 3600;

export function notReconcilingKey(cluster: string, state: Pick<ReconcilerState, 'namespace' | 'name'>): string {
  return `alert/${cluster}/not-reconciling/${state.namespace}/${state.name}`;
}

export interface ReconcilerAlertChange {
  type: 'opened' | 'reopened' | 'closed' | 'pending';
  resource: string;
  issue?: number;
}

export async function checkNotReconciling(octokit: GitHubClient, repo: RepoRef, cluster: ClusterConfig, live: KubeObject[], state: WatchState, now: Date, author: AppIdentity): Promise<ReconcilerAlertChange[]> {
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const holdFor = Math.max(NOT_RECONCILING_FOR_SECONDS, staleAfter);
  const prefix = `${cluster.name}/`;
  const previous = state.notReconciling ?? {};
  const next: NonNullable<WatchState['notReconciling']> = Object.fromEntries(Object.entries(previous).filter(([id]) => !id.startsWith(prefix)));
  const changes: ReconcilerAlertChange[] = [];
  for (const object of live) {
    const reconciler = reconcilerStateOf(object);
    if (!reconciler || reconciler.suspended || !appliesPath(reconciler, cluster.path)) continue;
    const reason = notReconcilingReason(reconciler, now.toISOString(), staleAfter);
    if (!reason) continue;
    const id = `${prefix}${reconciler.namespace}/${reconciler.name}`;
    const entry = previous[id] ?? { since: now.toISOString(), reason };
    next[id] = entry;
    if (entry.issue !== undefined || now.getTime() - Date.parse(entry.since) < holdFor * 1000) {
      if (entry.issue === undefined) changes.push({ type: 'pending', resource: id });
      continue;
    }
    const rendered = renderNotReconcilingAlert({ cluster: cluster.name, state: reconciler, reason });
    const result = await upsertIssueByMarker(octokit, { ...repo, key: notReconcilingKey(cluster.name, reconciler), title: rendered.title, body: rendered.body, labels: ALERT_LABELS, author });
    next[id] = { ...entry, issue: result.number };
    changes.push({ type: result.type === 'reopened' ? 'reopened' : 'opened', resource: id, issue: result.number });
  }
  for (const [id, entry] of Object.entries(previous)) {
    if (!id.startsWith(prefix) || next[id] || entry.issue === undefined) continue;
    await closeIssue(octokit, { ...repo, number: entry.issue, comment: `\`${id.slice(prefix.length)}\` in \`${cluster.name}\` reconciles again. Closing.` });
    changes.push({ type: 'closed', resource: id, issue: entry.issue });
  }
  state.notReconciling = next;
  return changes;
}

// The "<namespace>/<name> is not reconciling" alert for a GitOps controller object (Flux
// Kustomization/HelmRelease, Argo CD Application) that applies this cluster's path: a merged change
// that never deploys. Only what wakes people alerts: the condition must hold for an hour (or
// staleAfter, when longer). A suspension is no failure: it has its own deadline (alerts/suspended.ts).
import { parseDuration, type ClusterConfig } from '../../core/config/index.js';
import { reconcilerStateOf } from '../../core/health/index.js';
import type { KubeObject, ReconcilerState } from '../../core/model/index.js';
import { appliesPath, notReconcilingReason } from '../../core/plan/index.js';
import { NO_OVERRIDES, type TemplateOverrides } from '../../core/report/index.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';
import {
  closeIssue,
  upsertIssueByMarker,
  type AppIdentity,
  type GitHubClient,
  type RepoRef,
} from '../../github/index.js';
import type { ReconcilerRef } from '../../store/state/index.js';
import type { WatchState } from './alert-state.js';
import { ALERT_LABELS } from './not-reporting.js';

type Entry = NonNullable<WatchState['notReconciling']>[string][number];

/** How long a controller must be failing or behind before it is an alert. */
export const NOT_RECONCILING_FOR_SECONDS = 3600;

export function notReconcilingKey(cluster: string, state: Pick<ReconcilerState, 'namespace' | 'name'>): string {
  return `alert/${cluster}/not-reconciling/${state.namespace}/${state.name}`;
}

export interface ReconcilerAlertChange {
  type: 'opened' | 'reopened' | 'closed' | 'pending';
  /** `<cluster>/<namespace>/<name>`, for the log. */
  resource: string;
  issue?: number;
}

/** An entry carried over without its kind stands for any reconciler of that namespace and name. */
function sameReconciler(a: ReconcilerRef, b: ReconcilerRef): boolean {
  if (a.namespace !== b.namespace || a.name !== b.name) return false;
  return a.kind === undefined || b.kind === undefined || a.kind === b.kind;
}

/** `templates` is asked for only when an issue is written. */
export async function checkNotReconciling(
  octokit: GitHubClient,
  repo: RepoRef,
  cluster: ClusterConfig,
  live: KubeObject[],
  state: WatchState,
  now: Date,
  author: AppIdentity,
  templates: () => Promise<TemplateOverrides> = async () => NO_OVERRIDES,
  documents: Documents = renderInPlace,
): Promise<ReconcilerAlertChange[]> {
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const holdFor = Math.max(NOT_RECONCILING_FOR_SECONDS, staleAfter);
  const previous = state.notReconciling?.[cluster.name] ?? [];
  const next: Entry[] = [];
  const changes: ReconcilerAlertChange[] = [];
  const label = (ref: ReconcilerRef) => `${cluster.name}/${ref.namespace}/${ref.name}`;
  for (const object of live) {
    const reconciler = reconcilerStateOf(object);
    if (!reconciler || reconciler.suspended || !appliesPath(reconciler, cluster.path)) continue;
    const reason = notReconcilingReason(reconciler, now.toISOString(), staleAfter);
    if (!reason) continue;
    const ref: ReconcilerRef = { kind: reconciler.kind, namespace: reconciler.namespace, name: reconciler.name };
    const before = previous.find((entry) => sameReconciler(entry.reconciler, ref));
    const entry: Entry = { ...(before ?? { since: now.toISOString(), reason }), reconciler: ref };
    next.push(entry);
    if (entry.issue !== undefined || now.getTime() - Date.parse(entry.since) < holdFor * 1000) {
      if (entry.issue === undefined) changes.push({ type: 'pending', resource: label(ref) });
      continue;
    }
    const rendered = await documents(
      'renderNotReconcilingAlert',
      { cluster: cluster.name, state: reconciler, reason },
      { templates: await templates() },
    );
    const key = notReconcilingKey(cluster.name, reconciler);
    const issue = { ...repo, key, title: rendered.title, body: rendered.body, labels: ALERT_LABELS, author };
    const result = await upsertIssueByMarker(octokit, issue);
    entry.issue = result.number;
    const type = result.type === 'reopened' ? 'reopened' : 'opened';
    changes.push({ type, resource: label(ref), issue: result.number });
  }
  for (const entry of previous) {
    if (entry.issue === undefined || next.some((kept) => sameReconciler(entry.reconciler, kept.reconciler))) continue;
    const { namespace, name } = entry.reconciler;
    const comment = `\`${namespace}/${name}\` in \`${cluster.name}\` reconciles again. Closing.`;
    await closeIssue(octokit, { ...repo, number: entry.issue, comment });
    changes.push({ type: 'closed', resource: label(entry.reconciler), issue: entry.issue });
  }
  const { [cluster.name]: _replaced, ...others } = state.notReconciling ?? {};
  state.notReconciling = next.length > 0 ? { ...others, [cluster.name]: next } : others;
  return changes;
}

// The "<namespace>/<name> is not reconciling" alert for a GitOps controller object (Flux
// Kustomization/HelmRelease, Argo CD Application) that applies this cluster's path: a merged change
// that never deploys. Only what wakes people alerts: the condition must hold for an hour (or
// staleAfter, when longer). A suspension is no failure: it has its own deadline (alerts/suspended.ts).
import { parseDuration, type ClusterConfig } from '../../core/config/index.js';
import { reconcilerStateOf } from '../../core/health/index.js';
import type { KubeObject, ReconcilerState } from '../../core/model/index.js';
import {
  appliesPath,
  controllerStopped,
  notReconcilingReason,
  stoppedReason,
  type StoppedController,
} from '../../core/plan/index.js';
import { revisionCommit } from '../../core/emergency/index.js';
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

/** What the snapshot and the repository show: the live objects, and HEAD and when the App learned it. */
export interface ReconcilingInput {
  items: readonly KubeObject[];
  head?: { sha: string; at: string };
}

interface Condition {
  reason: string;
  /** How long it must hold before it is an alert, in seconds. */
  holdFor: number;
  stopped?: StoppedController;
}

/** Why a reconciler is not reconciling, if it is not: failing or behind, or its controller stopped. */
function conditionOf(
  object: KubeObject,
  reconciler: ReconcilerState,
  input: ReconcilingInput,
  now: Date,
  staleAfter: number,
): Condition | undefined {
  const reason = notReconcilingReason(reconciler, now.toISOString(), staleAfter);
  if (reason) return { reason, holdFor: Math.max(NOT_RECONCILING_FOR_SECONDS, staleAfter) };
  const stopped = controllerStopped(object, reconciler, input.items, input.head, now.toISOString());
  if (!stopped) return undefined;
  const holdFor = stopped.type === 'controller-stopped' ? stopped.thresholdSeconds : 0;
  return { reason: stoppedReason(stopped), holdFor, stopped };
}

/** The commits of HEAD the source has not applied (oldest first); undefined when HEAD does not follow it. */
async function pendingCommits(
  octokit: GitHubClient,
  repo: RepoRef,
  applied: string | undefined,
  head: string | undefined,
): Promise<Array<{ sha: string; message: string }> | undefined> {
  if (!applied || !head) return [];
  try {
    const { data } = await octokit.rest.repos.compareCommits({ ...repo, base: applied, head });
    if (data.status !== 'ahead') return undefined;
    return data.commits.map((commit) => ({ sha: commit.sha, message: commit.commit.message }));
  } catch {
    // A revision GitHub does not know here (another repository, a rewritten history).
    return undefined;
  }
}

/** `templates` is asked for only when an issue is written. */
export async function checkNotReconciling(
  octokit: GitHubClient,
  repo: RepoRef,
  cluster: ClusterConfig,
  input: ReconcilingInput,
  state: WatchState,
  now: Date,
  author: AppIdentity,
  templates: () => Promise<TemplateOverrides> = async () => NO_OVERRIDES,
  documents: Documents = renderInPlace,
): Promise<ReconcilerAlertChange[]> {
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const previous = state.notReconciling?.[cluster.name] ?? [];
  const next: Entry[] = [];
  const changes: ReconcilerAlertChange[] = [];
  const label = (ref: ReconcilerRef) => `${cluster.name}/${ref.namespace}/${ref.name}`;
  for (const object of input.items) {
    const reconciler = reconcilerStateOf(object);
    if (!reconciler || reconciler.suspended || !appliesPath(reconciler, cluster.path)) continue;
    const condition = conditionOf(object, reconciler, input, now, staleAfter);
    if (!condition) continue;
    const ref: ReconcilerRef = { kind: reconciler.kind, namespace: reconciler.namespace, name: reconciler.name };
    const before = previous.find((entry) => sameReconciler(entry.reconciler, ref));
    const since = condition.stopped?.type === 'behind-head' && input.head ? input.head.at : now.toISOString();
    const entry: Entry = { ...(before ?? { since, reason: condition.reason }), reconciler: ref };
    if (entry.issue !== undefined || now.getTime() - Date.parse(entry.since) < condition.holdFor * 1000) {
      next.push(entry);
      if (entry.issue === undefined) changes.push({ type: 'pending', resource: label(ref) });
      continue;
    }
    const pending = condition.stopped
      ? await pendingCommits(octokit, repo, condition.stopped.applied, input.head?.sha)
      : [];
    // Behind a HEAD that does not follow what it applied: a source of another repository or branch.
    if (pending === undefined && condition.stopped?.type === 'behind-head') continue;
    next.push(entry);
    const stopped = condition.stopped
      ? { stopped: condition.stopped, since: entry.since, pending: pending ?? [] }
      : undefined;
    const rendered = await documents(
      'renderNotReconcilingAlert',
      { cluster: cluster.name, state: reconciler, reason: condition.reason, ...(stopped ? { stopped } : {}) },
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
    const applied = appliedNow(input.items, entry.reconciler);
    const caughtUp = applied ? ` (applied \`${applied.slice(0, 7)}\`)` : '';
    const comment = `\`${namespace}/${name}\` in \`${cluster.name}\` reconciles again${caughtUp}. Closing.`;
    await closeIssue(octokit, { ...repo, number: entry.issue, comment });
    changes.push({ type: 'closed', resource: label(entry.reconciler), issue: entry.issue });
  }
  const { [cluster.name]: _replaced, ...others } = state.notReconciling ?? {};
  state.notReconciling = next.length > 0 ? { ...others, [cluster.name]: next } : others;
  return changes;
}

/** The commit a reconciler of the snapshot applied, when its revision names one. */
function appliedNow(items: readonly KubeObject[], ref: ReconcilerRef): string | undefined {
  for (const object of items) {
    const state = reconcilerStateOf(object);
    if (state && sameReconciler(ref, { kind: state.kind, namespace: state.namespace, name: state.name }))
      return revisionCommit(state.lastAppliedRevision);
  }
  return undefined;
}

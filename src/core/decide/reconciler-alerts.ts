// The "<namespace>/<name> is not reconciling" alert as data, for a GitOps controller object (Flux
// Kustomization/HelmRelease, Argo CD Application) that applies this cluster's path, or the first one a
// stopped controller runs when none of those names it: a merged change that never deploys. Only what wakes people alerts: the condition must hold for an hour (or
// staleAfter, when longer). A suspension is no failure: it has its own deadline (decideSuspended).
//
// Two pure steps around one read: `commitsToCompare` names the applied revisions whose commits up to
// HEAD the alert would quote; the App reads them from GitHub (`compare`) and passes them, as plain
// data, to `decideNotReconciling`, which returns the issues to open and close and the state to keep.
import { parseDuration, type ClusterConfig } from '../config/index.js';
import { revisionCommit } from '../emergency/index.js';
import { reconcilerStateOf } from '../health/index.js';
import type { KubeObject, ReconcilerState } from '../model/index.js';
import {
  appliesPath,
  argoBehind,
  controllerStopped,
  notReconcilingReason,
  stoppedReason,
  touchesPaths,
  type StoppedController,
} from '../plan/index.js';
import type { NotReconcilingAlertView } from '../report/index.js';
import type { AlertAction } from './alert-issues.js';

/** How long a controller must be failing or behind before it is an alert. */
export const NOT_RECONCILING_FOR_SECONDS = 3600;

/** A GitOps controller object; `kind` is unknown only for entries carried over from an old state. */
export interface ReconcilerRef {
  kind?: ReconcilerState['kind'];
  namespace: string;
  name: string;
}

/** A reconciler not reconciling: since when, why, and its issue once opened. */
export interface NotReconcilingEntry {
  reconciler: ReconcilerRef;
  since: string;
  reason: string;
  issue?: number;
}

/** A commit of HEAD the source has not applied. */
export interface PendingCommit {
  sha: string;
  message: string;
}

/**
 * GitHub's comparison of an applied revision with HEAD: the commits in between (oldest first), or
 * 'unrelated' when HEAD does not follow it (another repository or branch, a rewritten history).
 */
export type Comparison = readonly PendingCommit[] | 'unrelated';

export interface NotReconcilingInput {
  cluster: Pick<ClusterConfig, 'name' | 'path' | 'staleAfter'>;
  /** The live objects of the latest snapshot. */
  items: readonly KubeObject[];
  /** HEAD and when the App learned it. */
  head?: { sha: string; at: string };
  previous: readonly NotReconcilingEntry[];
  now: string;
}

export function notReconcilingKey(cluster: string, state: Pick<ReconcilerRef, 'namespace' | 'name'>): string {
  return `alert/${cluster}/not-reconciling/${state.namespace}/${state.name}`;
}

/** An entry carried over without its kind stands for any reconciler of that namespace and name. */
function sameReconciler(a: ReconcilerRef, b: ReconcilerRef): boolean {
  if (a.namespace !== b.namespace || a.name !== b.name) return false;
  return a.kind === undefined || b.kind === undefined || a.kind === b.kind;
}

interface Condition {
  reason: string;
  /** How long it must hold before it is an alert, in seconds. */
  holdFor: number;
  stopped?: StoppedController;
}

/**
 * Why a reconciler is not reconciling, if it is not: failing or behind, or its controller stopped; an
 * Argo CD Application OutOfSync at HEAD that does not sync (argoBehind: automated sync off included),
 * unless its controller is the one stopped.
 */
function conditionOf(
  object: KubeObject,
  reconciler: ReconcilerState,
  input: NotReconcilingInput,
  staleAfter: number,
): Condition | undefined {
  const check = { source: object, state: reconciler, items: input.items, head: input.head, now: input.now };
  const argo = argoBehind(check);
  // Whether its controller is the one stopped, automated sync on or off.
  const down = () => controllerStopped({ ...check, state: { ...reconciler, suspended: false } })?.type;
  if (argo && down() !== 'controller-stopped') return { reason: stoppedReason(argo), holdFor: 0, stopped: argo };
  if (reconciler.suspended) return undefined;
  const reason = notReconcilingReason(reconciler, input.now, staleAfter);
  if (reason) return { reason, holdFor: Math.max(NOT_RECONCILING_FOR_SECONDS, staleAfter) };
  const stopped = controllerStopped(check);
  if (!stopped) return undefined;
  const holdFor = stopped.type === 'controller-stopped' ? stopped.thresholdSeconds : 0;
  return { reason: stoppedReason(stopped), holdFor, stopped };
}

/** A reconciler of the snapshot not reconciling: its condition, its entry, and whether its alert is due. */
interface Observed {
  reconciler: ReconcilerState;
  condition: Condition;
  entry: NotReconcilingEntry;
  /** Held long enough and no issue yet: the alert opens now. */
  due: boolean;
}

interface Found {
  reconciler: ReconcilerState;
  condition: Condition;
}

/** The workload a condition names as stopped (`StatefulSet/argocd/argocd-application-controller`). */
const stoppedWorkload = (condition: Condition): string | undefined =>
  condition.stopped?.type === 'controller-stopped' ? (condition.stopped.controller ?? 'workload') : undefined;

/**
 * A Flux source of any path behind HEAD while its controller runs: Flux applies every new revision of
 * its GitRepository, whatever files it changed, so behind is behind. (Whether HEAD follows what it
 * applied — a source of another repository never does — GitHub says before the alert opens.) An Argo CD
 * Application's sync revision moves at each refresh, so its evidence is another one.
 */
const behindAnyPath = (item: Found): boolean =>
  (item.condition.stopped?.type === 'behind-head' && item.reconciler.kind !== 'argocd-application') ||
  item.condition.stopped?.type === 'out-of-sync';

/**
 * Which not-reconciling reconcilers get an alert: each that applies the cluster's path; and for a
 * controller workload with no ready replica that none of those names, the first reconciler it runs.
 * An Argo CD cluster's path usually holds the Applications, which apply other paths: a stopped
 * argocd-application-controller is still one alert, naming it, not none.
 */
function alertedReconcilers<T extends Found>(found: readonly T[], path: string | undefined): T[] {
  const alerted = found.filter((item) => appliesPath(item.reconciler, path) || behindAnyPath(item));
  const named = new Set(alerted.map((item) => stoppedWorkload(item.condition)));
  for (const item of found) {
    const workload = stoppedWorkload(item.condition);
    if (workload === undefined || named.has(workload)) continue;
    named.add(workload);
    alerted.push(item);
  }
  return found.filter((item) => alerted.includes(item));
}

/** The reconcilers of the snapshot that are not reconciling and get an alert (alertedReconcilers), in order. */
function observe(input: NotReconcilingInput): Observed[] {
  const staleAfter = parseDuration(input.cluster.staleAfter) ?? 1800;
  const found: Found[] = [];
  for (const object of input.items) {
    const reconciler = reconcilerStateOf(object);
    if (!reconciler) continue;
    const condition = conditionOf(object, reconciler, input, staleAfter);
    if (condition) found.push({ reconciler, condition });
  }
  return alertedReconcilers(found, input.cluster.path).map(({ reconciler, condition }) => {
    const ref: ReconcilerRef = { kind: reconciler.kind, namespace: reconciler.namespace, name: reconciler.name };
    const before = input.previous.find((entry) => sameReconciler(entry.reconciler, ref));
    const behind = condition.stopped?.type === 'behind-head' || condition.stopped?.type === 'out-of-sync';
    const since = behind && input.head ? input.head.at : input.now;
    const entry: NotReconcilingEntry = { ...(before ?? { since, reason: condition.reason }), reconciler: ref };
    const held = Date.parse(input.now) - Date.parse(entry.since) >= condition.holdFor * 1000;
    return { reconciler, condition, entry, due: entry.issue === undefined && held };
  });
}

/** The applied revisions whose commits up to HEAD an alert opened now would quote (compare each with HEAD). */
export function commitsToCompare(input: NotReconcilingInput): string[] {
  if (!input.head) return [];
  const applied = observe(input).flatMap(({ due, condition }) =>
    due && condition.stopped?.applied ? [condition.stopped.applied] : [],
  );
  return [...new Set(applied)];
}

/** The commits an alert quotes: none without a stopped controller (or HEAD); undefined when HEAD does not follow. */
function pendingOf(
  stopped: StoppedController | undefined,
  head: string | undefined,
  comparisons: Readonly<Record<string, Comparison>>,
): readonly PendingCommit[] | undefined {
  if (!stopped?.applied || !head) return [];
  const comparison = comparisons[stopped.applied];
  return comparison === undefined || comparison === 'unrelated' ? undefined : comparison;
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

/**
 * Whether a behind condition holds once GitHub compared: not behind a HEAD that does not follow what it
 * applied (a source of another repository or branch); an Application OutOfSync at HEAD only when the
 * comparison (`changedFiles` of its applied revision, when known) changed files under its paths — else
 * Git did not move under it and the OutOfSync is a hand change, reported as drift.
 */
function pendingCounts(
  stopped: StoppedController | undefined,
  pending: readonly PendingCommit[] | undefined,
  changedFiles: Readonly<Record<string, readonly string[]>>,
): boolean {
  if (stopped?.type !== 'behind-head' && stopped?.type !== 'out-of-sync') return true;
  if (pending === undefined) return false;
  if (stopped.type === 'behind-head') return true;
  const files = stopped.applied === undefined ? undefined : changedFiles[stopped.applied];
  return pending.length > 0 && (files === undefined || touchesPaths(stopped.paths ?? [''], files));
}

function openAlert(input: NotReconcilingInput, observed: Observed, pending: readonly PendingCommit[]): AlertAction {
  const { reconciler, condition, entry } = observed;
  const cluster = input.cluster.name;
  const stopped = condition.stopped ? { stopped: condition.stopped, since: entry.since, pending } : undefined;
  const view: NotReconcilingAlertView = {
    cluster,
    state: reconciler,
    reason: condition.reason,
    ...(stopped ? { stopped } : {}),
  };
  const key = notReconcilingKey(cluster, reconciler);
  const resource = `${cluster}/${reconciler.namespace}/${reconciler.name}`;
  const why = `${condition.reason}, since ${entry.since}`;
  return { kind: 'alert.open', key, id: key, resource, why, document: 'renderNotReconcilingAlert', view };
}

function closeAlert(input: NotReconcilingInput, entry: NotReconcilingEntry & { issue: number }): AlertAction {
  const { namespace, name } = entry.reconciler;
  const applied = appliedNow(input.items, entry.reconciler);
  const caughtUp = applied ? ` (applied \`${applied.slice(0, 7)}\`)` : '';
  const comment = `\`${namespace}/${name}\` in \`${input.cluster.name}\` reconciles again${caughtUp}. Closing.`;
  const resource = `${input.cluster.name}/${namespace}/${name}`;
  return { kind: 'alert.close', issue: entry.issue, resource, comment, why: 'the reconciler reconciles again' };
}

/**
 * The not-reconciling alerts of one cluster: an issue opened for each reconciler whose condition held
 * long enough (quoting the commits it has not applied, from `comparisons`), none for one behind a HEAD
 * that does not follow what it applied, nor for an Application whose comparison (`changedFiles`, by
 * applied revision) changed nothing under its paths; each open issue whose reconciler reconciles again closed with
 * a comment. Opens come in the snapshot's order, then closes. `next` is the state to keep: an opened
 * entry gets its issue number from `withReconcilerIssues`.
 */
export function decideNotReconciling(
  input: NotReconcilingInput,
  comparisons: Readonly<Record<string, Comparison>>,
  changedFiles: Readonly<Record<string, readonly string[]>> = {},
): { actions: AlertAction[]; next: NotReconcilingEntry[] } {
  const next: NotReconcilingEntry[] = [];
  const actions: AlertAction[] = [];
  for (const observed of observe(input)) {
    if (!observed.due) {
      next.push(observed.entry);
      continue;
    }
    const pending = pendingOf(observed.condition.stopped, input.head?.sha, comparisons);
    if (!pendingCounts(observed.condition.stopped, pending, changedFiles)) continue;
    next.push(observed.entry);
    actions.push(openAlert(input, observed, pending ?? []));
  }
  for (const entry of input.previous) {
    if (entry.issue === undefined || next.some((kept) => sameReconciler(entry.reconciler, kept.reconciler))) continue;
    actions.push(closeAlert(input, { ...entry, issue: entry.issue }));
  }
  return { actions, next };
}

/** The entries to keep with the issue each `alert.open` action opened (by its id, the alert's key). */
export function withReconcilerIssues(
  cluster: string,
  next: readonly NotReconcilingEntry[],
  opened: Readonly<Record<string, number>>,
): NotReconcilingEntry[] {
  return next.map((entry) => {
    const issue = opened[notReconcilingKey(cluster, entry.reconciler)];
    return issue === undefined ? entry : { ...entry, issue };
  });
}

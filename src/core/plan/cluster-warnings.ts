// Warnings about the cluster as a whole: a stale or partial snapshot, a GitOps controller that is
// not applying what gets merged.
import { displayKey, keyOf, type KubeObject, type PlanWarning, type ResourceKey, type ScopeError } from '../model/index.js';
import { formatAge, secondsBetween } from './age.js';
import { reconcilerStateOf } from '../health/index.js';
import { appliesPath, notReconcilingReason } from './reconcilers.js';

/** The snapshot a plan is made against: when it was taken and what it listed. */
export interface PlannedSnapshot {
  capturedAt: string;
  complete: boolean;
  errors: ScopeError[];
  /** Namespaces it listed; undefined or empty = every namespace. */
  namespaces?: string[];
}

export function snapshotWarnings(
  snapshot: PlannedSnapshot | undefined, cluster: string | undefined, now: string, staleAfterSeconds: number,
  unclaimed: ResourceKey[],
): PlanWarning[] {
  if (!snapshot) return [];
  const warnings: PlanWarning[] = [];
  const age = secondsBetween(snapshot.capturedAt, now);
  if (age !== undefined && age > staleAfterSeconds) {
    warnings.push({ code: 'stale-snapshot', message: `The latest snapshot${cluster ? ` of ${cluster}` : ''} was taken ${formatAge(age)} ago (${snapshot.capturedAt}), longer than staleAfter (${formatAge(staleAfterSeconds)}): the cluster may have changed since. Check that the driftback agent CronJob is running.` });
  }
  const skipped = unclaimed.length ? ` Not shown as created: ${unclaimed.map(displayKey).join(', ')}.` : '';
  if (!snapshot.complete || snapshot.errors.length > 0) {
    const types = snapshot.errors.map((e) => `${e.resource} (${e.reason})`).join(', ') || 'some types';
    warnings.push({ code: 'partial-snapshot', message: `The snapshot could not list ${types}: nothing of these types is claimed to be created or pruned.${skipped} Grant the agent's ServiceAccount get/list on them.` });
  } else if (unclaimed.length > 0) {
    const namespaces = snapshot.namespaces?.join(', ') ?? '';
    const message = `The snapshot lists only the namespaces ${namespaces} (and no cluster-scoped type `
      + `but their Namespace objects): nothing outside them is claimed to be created or pruned.${skipped} `
      + `Add the namespaces to the agent's DRIFTBACK_NAMESPACES, or leave it empty to list every namespace.`;
    warnings.push({ code: 'partial-snapshot', message });
  }
  return warnings;
}

export function reconcilerWarnings(live: KubeObject[], path: string | undefined, now: string, staleAfterSeconds: number): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  for (const object of live) {
    const state = reconcilerStateOf(object);
    if (!state || !appliesPath(state, path)) continue;
    const reason = notReconcilingReason(state, now, staleAfterSeconds);
    if (!reason) continue;
    const id = keyOf(object);
    warnings.push({ code: 'not-reconciling', id, message: `${displayKey(id)} ${reason}: merging will not deploy until it reconciles again. ${state.suspended ? 'Resume it (`flux resume`, or enable automated sync in Argo CD).' : 'Fix its error first.'}` });
  }
  return warnings;
}

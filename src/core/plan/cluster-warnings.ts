// Warnings about the cluster as a whole: a stale or partial snapshot, a GitOps controller that is
// not applying what gets merged.
import {
  counted,
  keyOf,
  showTime,
  type ExcludedType,
  type KubeObject,
  type PlanWarning,
  type ResourceKey,
  type ScopeError,
} from '../model/index.js';
import type { Coverage } from '../k8s/index.js';
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
  /** Types the agent left out on purpose. */
  excluded?: ExcludedType[];
}

export function snapshotWarnings(
  snapshot: PlannedSnapshot | undefined,
  cluster: string | undefined,
  now: string,
  staleAfterSeconds: number,
  coverage: Coverage,
  unclaimed: ResourceKey[],
): PlanWarning[] {
  if (!snapshot) return [];
  const warnings: PlanWarning[] = [];
  const age = secondsBetween(snapshot.capturedAt, now);
  if (age !== undefined && age > staleAfterSeconds) {
    const taken = `${formatAge(age)} ago (${showTime(snapshot.capturedAt)})`;
    const message =
      `The latest snapshot${cluster ? ` of ${cluster}` : ''} was taken ${taken}, longer than \`staleAfter\` ` +
      `(${formatAge(staleAfterSeconds)}): the cluster may have changed since. ` +
      'Check that the driftback agent CronJob is running.';
    warnings.push({ code: 'stale-snapshot', message });
  }
  // Only what the pull request changes matters: a scoped agent's snapshot leaves out the same objects every time.
  if (unclaimed.length === 0) return warnings;
  const objects = { objects: unclaimed };
  const unseen = `${counted(unclaimed.length, 'object')} this pull request changes ${unclaimed.length === 1 ? 'is' : 'are'}`;
  if (!snapshot.complete || snapshot.errors.length > 0) {
    const types = snapshot.errors.map((e) => `${e.resource} (${e.reason})`).join(', ') || 'some types';
    const message =
      `The snapshot could not list ${types}, so ${unseen} not shown as created or pruned. ` +
      "Grant the agent's ServiceAccount get/list on them.";
    warnings.push({ code: 'partial-snapshot', message, ...objects });
  } else {
    const { limits, fixes } = scopeLimits(snapshot, coverage, unclaimed);
    const message = `The snapshot lists ${limits.join(', and ')}, so ${unseen} not shown as created or pruned.`;
    warnings.push({ code: 'partial-snapshot', message: `${message} ${fixes.join(' ')}`, ...objects });
  }
  return warnings;
}

/** What a complete snapshot still did not list (its namespaces, the types the agent left out), and the fix for each. */
function scopeLimits(
  snapshot: PlannedSnapshot,
  coverage: Coverage,
  unclaimed: ResourceKey[],
): { limits: string[]; fixes: string[] } {
  const limits: string[] = [];
  const fixes: string[] = [];
  if (snapshot.namespaces?.length) {
    const namespaces = snapshot.namespaces.join(', ');
    limits.push(`only the namespaces ${namespaces} (and no cluster-scoped type but their Namespace objects)`);
    fixes.push("Add the namespaces to the agent's DRIFTBACK_NAMESPACES, or leave it empty to list every namespace.");
  }
  const excluded = [...new Set(unclaimed.flatMap((key) => coverage.excludedType(key) ?? []))];
  if (excluded.length) {
    limits.push(`no ${excluded.join(', ')} (left out by the agent's DRIFTBACK_INCLUDE / DRIFTBACK_EXCLUDE)`);
    fixes.push("Name the types in the agent's DRIFTBACK_INCLUDE to have them listed.");
  }
  return { limits, fixes };
}

export function reconcilerWarnings(
  live: KubeObject[],
  path: string | undefined,
  now: string,
  staleAfterSeconds: number,
): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  for (const object of live) {
    const state = reconcilerStateOf(object);
    if (!state || !appliesPath(state, path)) continue;
    // A suspension has its own note, first in the plan (core/emergency's suspendedSourceWarnings).
    if (state.suspended) continue;
    const reason = notReconcilingReason(state, now, staleAfterSeconds);
    if (!reason) continue;
    const id = keyOf(object);
    const message = `It ${reason}: merging will not deploy until it reconciles again. Fix its error first.`;
    warnings.push({ code: 'not-reconciling', id, message });
  }
  return warnings;
}

// The counts shown at the top of every report, derived from the resources in one place.
import { changeCount, type DiffSummary, type ResourceDiff } from '../model/index.js';

export function summarize(resources: readonly ResourceDiff[]): DiffSummary {
  const summary: DiffSummary = { inSync: 0, modified: 0, missing: 0, extra: 0, ignored: 0, conflicts: 0 };
  for (const resource of resources) {
    if (resource.status === 'in-sync') summary.inSync++;
    else summary[resource.status]++;
    summary.ignored += resource.ignored.length;
    summary.conflicts += resource.conflicts.length;
  }
  return summary;
}

/**
 * Drift in the unit every output counts it in: drifted objects, and their live changes by cause (an
 * object missing or extra as a whole is one change, by the cause of whoever created it).
 */
export function driftTally(resources: readonly ResourceDiff[]): { objects: number; changes: Record<string, number> } {
  const drifted = resources.filter((resource) => resource.status !== 'in-sync' || resource.changes.length > 0);
  const changes: Record<string, number> = {};
  const add = (cause: string, n: number): void => void (changes[cause] = (changes[cause] ?? 0) + n);
  for (const resource of drifted) {
    if (resource.changes.length === 0) add(resource.createdBy?.cause ?? 'unknown', changeCount(resource));
    for (const change of resource.changes) add(change.cause, 1);
  }
  return { objects: drifted.length, changes };
}

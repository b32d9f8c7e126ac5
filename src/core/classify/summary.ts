// The counts shown at the top of every report, derived from the resources in one place.
import type { DiffSummary, ResourceDiff } from '../model/index.js';

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

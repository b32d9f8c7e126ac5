// Suspensions as reports show them (one home for the CLI's diff and plan, text, JSON and Markdown):
// the snapshot's suspensions, each with its resume step and the drift made under it.
import { displayKey, type SuspensionNotice } from '../model/index.js';
import { resumeStep, suspensionLabel, type EmergencyChange } from './procedure.js';
import type { Suspension } from './suspensions.js';

/** `drift`: the emergency changes by suspension id, when a drift report counts them. */
export function suspensionNotices(
  suspensions: readonly Suspension[],
  drift?: ReadonlyMap<string, { changes: readonly EmergencyChange[] }>,
): SuspensionNotice[] {
  return suspensions.map((suspension) => {
    const changes = drift?.get(suspension.id)?.changes ?? [];
    return {
      resource: suspensionLabel(suspension),
      kind: suspension.kind,
      method: suspension.method,
      ...(suspension.since ? { since: suspension.since } : {}),
      ...(suspension.who ? { by: suspension.who } : {}),
      resume: resumeStep(suspension),
      drift: new Set(changes.map((change) => displayKey(change.key))).size,
    };
  });
}

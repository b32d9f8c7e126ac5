// The emergency procedure one snapshot on, as a pure step: from what an emergency PR's record says
// and what this snapshot and GitHub show, the record as it now stands and the GitHub writes that
// follow from it (the PR's checklist ticked, "verified" commented once). The App gathers the
// observation, executes the actions in their order and stores the record.
//
//   open → merged → resumed → applied → in sync → verified
//   resumed while the fix is gone (before the merge, or the drift came back) → undone → restored
//   verified → followed for emergency.followFor (after-verify.ts): moved away → back, or Git changed it
import { keyId, type KubeObject } from '../model/index.js';
import { verifiedComment, withChecklist } from './checklist.js';
import { stillHolds, type Checklist, type EmergencyChange } from './procedure.js';
import type { Suspension } from './suspensions.js';
import type { MovedField } from './after-verify.js';

/** An emergency drift PR followed from its opening to "verified" (or "undone"); stored per suspension id. */
export interface EmergencyRecord {
  suspension: Suspension;
  since: string;
  sinceSeen?: boolean;
  branch: string;
  pullRequest: number;
  changes: EmergencyChange[];
  checklist: Checklist;
  mergeSha?: string;
  resumedAt?: string;
  outcome?: 'verified' | 'undone';
  verifiedAt?: string;
  moved?: { at: string; fields: MovedField[] };
  released?: string[];
}

/** The emergency PR as GitHub shows it now. */
export interface PullRequestSeen {
  body: string;
  /** The merge commit, once merged. */
  mergeSha?: string;
  /** Closed without a merge: the procedure ends there. */
  closedUnmerged?: boolean;
}

export interface EmergencyObservation {
  cluster: string;
  /** Capture time of the snapshot. */
  capturedAt: string;
  pull: PullRequestSeen;
  /** The suspension is gone from the snapshot: the source reconciles again. */
  resumed: boolean;
  /** The controller's applied revision includes the merge commit (asked only when `commitToCheck` names one). */
  applied: boolean;
  /** Live objects by key id. */
  live: ReadonlyMap<string, KubeObject>;
  /** Key ids of the resources with drift left (a change, or missing). */
  drifted: ReadonlySet<string>;
  /**
   * Key ids of every live object the suspended source applies (objectsOfSource): "in sync" needs no
   * drift on any of them, not only on what the PR codified. Absent: the codified resources only.
   */
  sourceObjects?: ReadonlySet<string>;
}

/** A GitHub write the step decided; executed in the order given. */
export type EmergencyAction =
  | { kind: 'pull.update'; pullRequest: number; body: string }
  | { kind: 'comment.once'; issue: number; key: string; body: string };

export type EmergencyEvent = 'ticked' | 'verified' | 'undone';

export interface EmergencyStep {
  /** Undefined once the record is retired (its PR closed unmerged): nothing is asked about it again. */
  record: EmergencyRecord | undefined;
  actions: EmergencyAction[];
  events: EmergencyEvent[];
}

/** The merge commit whose inclusion in the applied revision the App must ask about, if any. */
export function commitToCheck(record: EmergencyRecord, pull: PullRequestSeen, resumed: boolean): string | undefined {
  return resumed ? (record.mergeSha ?? pull.mergeSha) : undefined;
}

function noDriftOn(record: EmergencyRecord, seen: EmergencyObservation): boolean {
  return record.changes.every((change) => !seen.drifted.has(keyId(change.key)));
}

/** Nothing drifts on what the PR fixed, nor on anything else the source applies. */
function inSyncOver(record: EmergencyRecord, seen: EmergencyObservation): boolean {
  if (!noDriftOn(record, seen)) return false;
  return ![...(seen.sourceObjects ?? [])].some((id) => seen.drifted.has(id));
}

/** Undone until the value is back and nothing drifts on the fixed resources. */
function stillUndone(record: EmergencyRecord, seen: EmergencyObservation, gone: boolean): EmergencyRecord {
  if (!seen.resumed || gone || !noDriftOn(record, seen)) return record;
  const { outcome: _undone, ...restored } = record;
  return restored;
}

/**
 * One record one step on. A verified record is done: it is returned as it is. A PR closed unmerged
 * ends the procedure (the record is retired), unless the fix is undone: that one is followed until
 * the value is back, so its alert closes, and retired the step after.
 */
export function followEmergency(id: string, record: EmergencyRecord, seen: EmergencyObservation): EmergencyStep {
  const step = stepOn(id, record, seen);
  // Restored from undone: kept one more step, so the watch closes its alert saying the value is back.
  const undone = step.record?.outcome === 'undone' || record.outcome === 'undone';
  if (!seen.pull.closedUnmerged || undone) return step;
  return { record: undefined, actions: [], events: [] };
}

function stepOn(id: string, record: EmergencyRecord, seen: EmergencyObservation): EmergencyStep {
  if (record.outcome === 'verified') return { record, actions: [], events: [] };
  const mergeSha = record.mergeSha ?? seen.pull.mergeSha;
  const applied = seen.resumed && mergeSha !== undefined && seen.applied;
  const inSync = applied && inSyncOver(record, seen);
  const checklist: Checklist = { merged: mergeSha !== undefined, resumed: seen.resumed, applied, inSync };
  const resumedAt = record.resumedAt ?? (seen.resumed ? seen.capturedAt : undefined);
  const updated: EmergencyRecord = {
    ...record,
    checklist,
    ...(mergeSha ? { mergeSha } : {}),
    ...(resumedAt ? { resumedAt } : {}),
  };
  const actions: EmergencyAction[] = [];
  const events: EmergencyEvent[] = [];
  const body = withChecklist(seen.pull.body, checklist);
  if (body !== undefined && body !== seen.pull.body) {
    actions.push({ kind: 'pull.update', pullRequest: record.pullRequest, body });
    events.push('ticked');
  }
  if (inSync && mergeSha) {
    const key = `emergency/verified/${seen.cluster}/${id}`;
    actions.push({ kind: 'comment.once', issue: record.pullRequest, key, body: verifiedComment(mergeSha) });
    events.push('verified');
    return { record: { ...updated, outcome: 'verified', verifiedAt: seen.capturedAt }, actions, events };
  }
  // After a merge, a value seen gone before the controller applied it may only be an older revision.
  const gone = !record.changes.every((change) => stillHolds(change, seen.live));
  if (record.outcome === 'undone') return { record: stillUndone(updated, seen, gone), actions, events };
  if (!seen.resumed || !gone || (mergeSha !== undefined && !applied)) return { record: updated, actions, events };
  // The watch opens the alert (app/alerts/fix-undone.ts).
  events.push('undone');
  return { record: { ...updated, outcome: 'undone', resumedAt: resumedAt ?? seen.capturedAt }, actions, events };
}

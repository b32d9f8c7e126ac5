// Emergency changes in the reconcile: the suspensions of the snapshot (since when, carried over for
// a suspension nothing records), the procedure each emergency drift PR opens with, and the follow-up
// after it: the checklist ticked on the PR as each step shows (merged, resumed, applied, in sync),
// "verified" commented once cluster and Git agree, an alert when the fix was undone after the resume.
import type { Suspension } from '../../core/emergency/index.js';
import { NOTHING_DONE, revisionCommit, stillHolds, type Checklist } from '../../core/emergency/index.js';
import { readSource } from '../../core/sources/index.js';
import { displayKey, keyId, keyOf, type DiffResult, type KubeObject } from '../../core/model/index.js';
import type { DriftGroup } from '../../core/pipeline/index.js';
import { verifiedComment, withChecklist } from '../../core/report/index.js';
import { commentOnce } from '../../github/index.js';
import { alertFixUndone } from '../alerts/fix-undone.js';
import type { EmergencySection, GitHubContext } from './github-context.js';
import type { BranchState, EmergencyRecord, SuspensionState } from './state.js';

/** The snapshot's suspensions; one nothing records the time of is dated by the first snapshot that showed it. */
export function suspensionStates(suspensions: readonly Suspension[], previous: readonly SuspensionState[] | undefined, capturedAt: string): SuspensionState[] {
  return suspensions.map((suspension) => {
    if (suspension.since) return { suspension, since: suspension.since };
    const before = previous?.find((state) => state.suspension.id === suspension.id);
    return { suspension, since: before?.since ?? capturedAt, sinceSeen: true };
  });
}

/** Branch → the procedure sections of its PR: one per suspension its codified drift was made under. */
export function emergencySections(
  emergency: ReadonlyMap<string, { suspension: Suspension; changes: EmergencyRecord['changes'] }>, groups: readonly DriftGroup[],
  states: readonly SuspensionState[], records: Readonly<Record<string, EmergencyRecord>> | undefined,
): Map<string, EmergencySection[]> {
  const sections = new Map<string, EmergencySection[]>();
  for (const group of groups) {
    const keys = new Set(group.result.resources.filter((r) => r.changes.length > 0).map((r) => keyId(r.key)));
    for (const [id, { changes }] of emergency) {
      const mine = changes.filter((change) => keys.has(keyId(change.key)));
      const state = states.find((s) => s.suspension.id === id);
      if (mine.length === 0 || !state) continue;
      const record = records?.[id];
      const checklist = record && !record.outcome && record.branch === group.branch ? record.checklist : NOTHING_DONE;
      const view = { suspension: state.suspension, since: state.since, ...(state.sinceSeen ? { sinceSeen: true } : {}) };
      sections.set(group.branch, [...(sections.get(group.branch) ?? []), { view, changes: mine, checklist }]);
    }
  }
  return sections;
}

/** Records for emergency PRs opened or updated by this reconcile; earlier records carried over. */
export function recordEmergencies(
  sections: ReadonlyMap<string, EmergencySection[]>, branches: Readonly<Record<string, BranchState>>, previous: Readonly<Record<string, EmergencyRecord>> | undefined,
): Record<string, EmergencyRecord> {
  const records: Record<string, EmergencyRecord> = { ...previous };
  for (const [branch, list] of sections) {
    const pullRequest = branches[branch]?.pullRequest;
    if (pullRequest === undefined) continue;
    for (const section of list) {
      const id = section.view.suspension.id;
      const before = records[id];
      const fresh = !before || before.outcome !== undefined || before.pullRequest !== pullRequest;
      records[id] = {
        ...(fresh ? { checklist: NOTHING_DONE } : before), suspension: section.view.suspension, since: section.view.since,
        ...(section.view.sinceSeen ? { sinceSeen: true } : {}), branch, pullRequest, changes: section.changes,
      } as EmergencyRecord;
      if (fresh) delete records[id]!.mergeSha;
    }
  }
  return records;
}

async function includesCommit(ctx: GitHubContext, applied: string, merge: string): Promise<boolean> {
  if (applied === merge) return true;
  try {
    const { data } = await ctx.octokit.rest.repos.compareCommits({ owner: ctx.owner, repo: ctx.repo, base: merge, head: applied });
    return data.status === 'ahead' || data.status === 'identical';
  } catch {
    // A revision GitHub does not know (another repository, a rewritten history) includes nothing.
    return false;
  }
}

export interface FollowInput {
  /** Every object of the snapshot (sources live outside the compared scope). */
  items: readonly KubeObject[];
  /** The whole diff of this reconcile, before the gate: any change left on a fixed resource means "not in sync". */
  diff: DiffResult;
  suspended: ReadonlySet<string>;
}

export type FollowEvent = { source: string; event: 'ticked' | 'verified' | 'undone'; number: number };

/** Follows every open emergency record one step; returns the records as they now stand. */
export async function followEmergencies(ctx: GitHubContext, records: Record<string, EmergencyRecord>, input: FollowInput): Promise<{ records: Record<string, EmergencyRecord>; events: FollowEvent[] }> {
  const events: FollowEvent[] = [];
  const next: Record<string, EmergencyRecord> = {};
  const live = new Map(input.items.map((object) => [displayKey(keyOf(object)), object]));
  const drifted = new Set(input.diff.resources.filter((r) => r.changes.length > 0 || r.status === 'missing').map((r) => keyId(r.key)));
  for (const [id, record] of Object.entries(records)) {
    if (record.outcome) {
      next[id] = record;
      continue;
    }
    const { data: pull } = await ctx.octokit.rest.pulls.get({ owner: ctx.owner, repo: ctx.repo, pull_number: record.pullRequest });
    const mergeSha = record.mergeSha ?? (pull.merged_at ? (pull.merge_commit_sha ?? undefined) : undefined);
    const resumed = !input.suspended.has(id);
    const { kind, namespace, name } = record.suspension.object;
    const source = live.get(displayKey({ group: '', kind, namespace, name }));
    const applied = resumed && mergeSha !== undefined && source !== undefined
      && await appliedIncludes(ctx, source, mergeSha);
    const inSync = applied && record.changes.every((change) => !drifted.has(keyId(change.key)));
    const checklist: Checklist = { merged: mergeSha !== undefined, resumed, applied, inSync };
    let updated: EmergencyRecord = { ...record, checklist, ...(mergeSha ? { mergeSha } : {}), ...(resumed && !record.resumedAt ? { resumedAt: ctx.snapshot.capturedAt } : {}) };
    const body = withChecklist(pull.body ?? '', checklist);
    if (body !== undefined && body !== pull.body) {
      await ctx.octokit.rest.pulls.update({ owner: ctx.owner, repo: ctx.repo, pull_number: record.pullRequest, body });
      events.push({ source: id, event: 'ticked', number: record.pullRequest });
    }
    // After a merge, a value seen gone before the controller applied it may only be an older revision.
    const undone = resumed && (mergeSha === undefined || applied) && !record.changes.every((change) => stillHolds(change, live));
    if (inSync && mergeSha) {
      await commentOnce(ctx.octokit, { owner: ctx.owner, repo: ctx.repo, issueNumber: record.pullRequest, key: `emergency/verified/${ctx.cluster}/${id}`, body: verifiedComment(mergeSha), author: ctx.app });
      updated = { ...updated, outcome: 'verified' };
      events.push({ source: id, event: 'verified', number: record.pullRequest });
    } else if (undone) {
      const undoneFix = { cluster: ctx.cluster, source: id, changes: record.changes, resumedAt: updated.resumedAt ?? ctx.snapshot.capturedAt, pullRequest: record.pullRequest, merged: mergeSha !== undefined };
      const issue = await alertFixUndone(ctx.octokit, { owner: ctx.owner, repo: ctx.repo }, undoneFix, ctx.app);
      updated = { ...updated, outcome: 'undone', alertIssue: issue };
      events.push({ source: id, event: 'undone', number: issue });
    }
    next[id] = updated;
  }
  return { records: next, events };
}

async function appliedIncludes(ctx: GitHubContext, source: KubeObject, mergeSha: string): Promise<boolean> {
  const applied = revisionCommit(readSource(source, true)?.status?.appliedRevision);
  return applied !== undefined && includesCommit(ctx, applied, mergeSha);
}

/** Each suspension with the emergency PR still open for it (the dashboard and the alert name it). */
export function withPullRequests(states: readonly SuspensionState[], records: Readonly<Record<string, EmergencyRecord>>): SuspensionState[] {
  return states.map((state) => {
    const record = records[state.suspension.id];
    if (!record || record.outcome) return state;
    return { ...state, pullRequest: record.pullRequest, ...(record.checklist.merged ? { merged: true } : {}) };
  });
}

// Emergency changes in the reconcile: the suspensions of the snapshot (since when, carried over for
// a suspension nothing records), the procedure each emergency drift PR opens with, and the follow-up
// after it: the checklist ticked on the PR as each step shows (merged, resumed, applied, in sync),
// "verified" commented once cluster and Git agree, an alert when the fix was undone after the resume.
import type { Suspension } from '../../core/emergency/index.js';
import {
  NOTHING_DONE,
  appliedCommitOf,
  commitToCheck,
  followEmergency,
  followVerified,
  objectsOfSuspended,
  suspendedObjectKey,
  type EmergencyAction,
  type EmergencyEvent,
  type EmergencyObservation,
} from '../../core/emergency/index.js';
import { parseDuration } from '../../core/config/index.js';
import { keyId, keyOf, type DiffResult, type KubeObject } from '../../core/model/index.js';
import type { DriftGroup } from '../../core/pipeline/index.js';
import type { SuspensionView } from '../../core/report/index.js';
import { commentOnce, hasStatus } from '../../github/index.js';
import type { EmergencySection, GitHubContext } from './github-context.js';
import type { BranchState, EmergencyRecord, SuspensionState } from './state.js';

type Records = Readonly<Record<string, EmergencyRecord>>;

/** The snapshot's suspensions; one nothing records the time of is dated by the first snapshot that showed it. */
export function suspensionStates(
  suspensions: readonly Suspension[],
  previous: readonly SuspensionState[] | undefined,
  capturedAt: string,
): SuspensionState[] {
  return suspensions.map((suspension) => {
    if (suspension.since) return { suspension, since: suspension.since };
    const before = previous?.find((state) => state.suspension.id === suspension.id);
    return { suspension, since: before?.since ?? capturedAt, sinceSeen: true };
  });
}

/** How a stored suspension is shown. */
export function suspensionView(state: Pick<SuspensionState, 'suspension' | 'since' | 'sinceSeen'>): SuspensionView {
  return { suspension: state.suspension, since: state.since, ...(state.sinceSeen ? { sinceSeen: true } : {}) };
}

/** Branch → the procedure sections of its PR: one per suspension its codified drift was made under. */
export function emergencySections(
  emergency: ReadonlyMap<string, { suspension: Suspension; changes: EmergencyRecord['changes'] }>,
  groups: readonly DriftGroup[],
  states: readonly SuspensionState[],
  records: Records | undefined,
  resumeWithin: string,
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
      const section = { view: suspensionView(state), changes: mine, checklist, resumeWithin };
      sections.set(group.branch, [...(sections.get(group.branch) ?? []), section]);
    }
  }
  return sections;
}

/** Records for emergency PRs opened or updated by this reconcile; earlier records carried over. */
export function recordEmergencies(
  sections: ReadonlyMap<string, EmergencySection[]>,
  branches: Readonly<Record<string, BranchState>>,
  previous: Records | undefined,
): Record<string, EmergencyRecord> {
  const records: Record<string, EmergencyRecord> = { ...previous };
  for (const [branch, list] of sections) {
    const pullRequest = branches[branch]?.pullRequest;
    if (pullRequest === undefined) continue;
    for (const { view, changes } of list) {
      const before = records[view.suspension.id];
      // A new PR, or one after a finished procedure, starts a new record.
      const kept = before && before.outcome === undefined && before.pullRequest === pullRequest ? before : undefined;
      records[view.suspension.id] = {
        checklist: kept?.checklist ?? NOTHING_DONE,
        ...(kept?.mergeSha ? { mergeSha: kept.mergeSha } : {}),
        ...(kept?.resumedAt ? { resumedAt: kept.resumedAt } : {}),
        suspension: view.suspension,
        since: view.since,
        ...(view.sinceSeen ? { sinceSeen: true } : {}),
        branch,
        pullRequest,
        changes,
      };
    }
  }
  return records;
}

/** Whether the applied commit is the merge commit or comes after it. */
async function includesCommit(ctx: GitHubContext, applied: string, merge: string): Promise<boolean> {
  if (applied === merge) return true;
  try {
    const repo = { owner: ctx.owner, repo: ctx.repo };
    const { data } = await ctx.octokit.rest.repos.compareCommits({ ...repo, base: merge, head: applied });
    return data.status === 'ahead' || data.status === 'identical';
  } catch {
    // A revision GitHub does not know (another repository, a rewritten history) includes nothing.
    return false;
  }
}

async function appliedIncludes(
  ctx: GitHubContext,
  source: KubeObject | undefined,
  live: Iterable<KubeObject>,
  mergeSha: string,
): Promise<boolean> {
  const applied = source ? appliedCommitOf(source, live) : undefined;
  return applied !== undefined && includesCommit(ctx, applied, mergeSha);
}

export interface FollowInput {
  /** Every object of the snapshot (sources live outside the compared scope). */
  items: readonly KubeObject[];
  /** The whole diff of this reconcile, before the gate: any change left on a fixed resource means "not in sync". */
  diff: DiffResult;
  /** Ids of the suspensions in this snapshot. */
  suspended: ReadonlySet<string>;
}

export type FollowEvent = { source: string; event: EmergencyEvent; number: number };

type Snapshot = Omit<EmergencyObservation, 'pull' | 'resumed' | 'applied'>;

/** What GitHub and the snapshot show of one record: the PR, the resume, what the controller applied. */
async function observe(
  ctx: GitHubContext,
  id: string,
  record: EmergencyRecord,
  snapshot: Snapshot,
  suspended: ReadonlySet<string>,
): Promise<EmergencyObservation> {
  const repo = { owner: ctx.owner, repo: ctx.repo };
  const { data } = await ctx.octokit.rest.pulls.get({ ...repo, pull_number: record.pullRequest });
  const pull = {
    body: data.body ?? '',
    ...(data.state === 'closed' && !data.merged_at ? { closedUnmerged: true } : {}),
    ...(data.merged_at && data.merge_commit_sha ? { mergeSha: data.merge_commit_sha } : {}),
  };
  const resumed = !suspended.has(id);
  const merge = commitToCheck(record, pull, resumed);
  const source = snapshot.live.get(keyId(suspendedObjectKey(record.suspension)));
  const applied = merge !== undefined && (await appliedIncludes(ctx, source, snapshot.live.values(), merge));
  // "In sync" is judged over everything the source applies, not only what the PR codified.
  const sourceObjects = objectsOfSuspended(record.suspension, [...snapshot.live.values()]);
  return { ...snapshot, pull, resumed, applied, ...(sourceObjects ? { sourceObjects } : {}) };
}

/** Executes the writes a step decided, in their order. */
async function execute(ctx: GitHubContext, actions: readonly EmergencyAction[]): Promise<void> {
  const repo = { owner: ctx.owner, repo: ctx.repo };
  for (const action of actions) {
    if (action.kind === 'pull.update')
      await ctx.octokit.rest.pulls.update({ ...repo, pull_number: action.pullRequest, body: action.body });
    else
      await commentOnce(ctx.octokit, {
        ...repo,
        issueNumber: action.issue,
        key: action.key,
        body: action.body,
        author: ctx.app,
      });
  }
}

/** Follows every open emergency record one step; returns the records as they now stand. */
export async function followEmergencies(
  ctx: GitHubContext,
  records: Records,
  input: FollowInput,
): Promise<{ records: Record<string, EmergencyRecord>; events: FollowEvent[] }> {
  const events: FollowEvent[] = [];
  const next: Record<string, EmergencyRecord> = {};
  const snapshot: Snapshot = {
    cluster: ctx.cluster,
    capturedAt: ctx.snapshot.capturedAt,
    live: new Map(input.items.map((object) => [keyId(keyOf(object)), object])),
    drifted: new Set(
      input.diff.resources.filter((r) => r.changes.length > 0 || r.status === 'missing').map((r) => keyId(r.key)),
    ),
  };
  const verified = {
    capturedAt: ctx.snapshot.capturedAt,
    followFor: parseDuration(ctx.config.emergency.followFor) ?? 7 * 86400,
    changes: new Map(input.diff.resources.map((r) => [keyId(r.key), r.changes])),
  };
  for (const [id, record] of Object.entries(records)) {
    // A verified record is followed from the snapshots alone: GitHub is not asked about it again.
    if (record.outcome === 'verified') {
      const followed = followVerified(record, { ...verified, live: snapshot.live });
      if (followed) next[id] = followed;
      continue;
    }
    try {
      const step = followEmergency(id, record, await observe(ctx, id, record, snapshot, input.suspended));
      await execute(ctx, step.actions);
      events.push(...step.events.map((event) => ({ source: id, event, number: record.pullRequest })));
      if (step.record) next[id] = step.record;
    } catch (error) {
      // A pull request deleted (or a repository transferred) ends the procedure; anything else is retried.
      if (!hasStatus(error, 404, 410)) throw error;
      const fields = { cluster: ctx.cluster, source: id, pullRequest: record.pullRequest };
      ctx.log.warn(fields, 'emergency PR no longer found: no longer followed');
    }
  }
  return { records: next, events };
}

/** Each suspension with the emergency PR still followed for it (the dashboard and the alert name it). */
export function withPullRequests(states: readonly SuspensionState[], records: Records): SuspensionState[] {
  return states.map((state) => {
    const record = records[state.suspension.id];
    if (!record || record.outcome) return state;
    return { ...state, pullRequest: record.pullRequest, ...(record.checklist.merged ? { merged: true } : {}) };
  });
}

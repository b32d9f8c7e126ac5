// The reconcile's side effects as data: from the drift groups of one snapshot, the drift branches the
// App recorded before, and its last security check, the list of actions the App executes, in the
// order it executes them. Each action names the rule that produced it and why, for the log and for
// `driftback reconcile --dry-run --explain`.
//
// The executor still makes the checks that can only be made at the moment of writing (commits on the
// branch that the App did not make, a pull request closed or opened by someone since); they can turn
// an action into "left alone", which the run's events report.
import type { Config } from '../config/index.js';
import type { DiffResult } from '../model/index.js';
import type { DriftGroup } from '../pipeline/index.js';
import { contentHash, renderSecurityCheck, securityCheckName, type CheckRunOutput } from '../report/index.js';
import { pullRequestFace, type EmergencyChanges } from './pull-request-face.js';
import { decideSwitchIssue, type SwitchIssueAction, type SwitchIssueRecord } from './switch-issue-actions.js';

/** What the App recorded of a drift branch: enough to decide; the executor reads the rest of its record. */
export interface PriorBranch {
  branch: string;
  pullRequest?: number;
  /** Someone else committed on the branch (or opened a PR from it): the App no longer writes it. */
  foreign?: { commits: string[]; since: string };
}

/** The security check run the App last wrote for the cluster. */
export interface SecurityCheckRecord {
  headSha: string;
  conclusion: 'success' | 'failure';
  hash: string;
}

export interface ReconcileView {
  cluster: string;
  config: Pick<Config, 'pullRequests'>;
  /** The default branch's HEAD: drift branches are built on it, the security check is written on it. */
  headSha: string;
  groups: readonly DriftGroup[];
  /** Persistent drift a human has not declined: what the security check reads. */
  drift: DiffResult;
  /** Everything compared, objects in sync included: where a switch's value in Git is read (default: drift). */
  compared?: DiffResult;
  previous: {
    branches: Readonly<Record<string, PriorBranch>>;
    securityCheck?: SecurityCheckRecord;
    /** Suspension id → the emergency PR followed for it. */
    emergencies?: Readonly<Record<string, { pullRequest: number }>>;
    /** The cluster's emergency switch issue, while one is open. */
    switchIssue?: SwitchIssueRecord;
  };
  /** Branches recorded as someone else's that GitHub still has (the App may start afresh on a deleted one). */
  foreignBranches: ReadonlySet<string>;
  /** Branch → the emergency sections of its PR (drift made under a suspension). */
  emergency: ReadonlyMap<string, readonly EmergencyChanges[]>;
}

/** The rule that produced an action, and why, in a sentence a platform engineer reads. */
export interface Because {
  rule: ReconcileRule;
  why: string;
}

export type ReconcileRule =
  | 'drift-codified'
  | 'drift-gone'
  | 'branch-foreign'
  | 'self-check-failed'
  | 'prefix-changed'
  | 'emergency-follow'
  | 'closed-unmerged-is-decision'
  | 'security-drift'
  | 'security-drift-gone'
  | 'switch-needs-decision'
  | 'switch-settled'
  | 'record-state';

export type ReconcileAction = Because &
  (
    | {
        kind: 'drift-pr.publish';
        branch: string;
        /** The App's open PR of the branch, when it recorded one: updated; otherwise one is opened. */
        pullRequest?: number;
        group: DriftGroup;
        title: string;
        labels: string[];
        removeLabels: string[];
        /** The files the branch's one commit writes. */
        files: string[];
      }
    | { kind: 'drift-pr.close'; branch: string; pullRequest?: number }
    | { kind: 'drift-pr.keep'; branch: string; pullRequest?: number; selfCheckFailure?: string }
    | { kind: 'drift-branch.unmanaged'; branch: string }
    | { kind: 'emergency.follow'; suspensions: string[] }
    | { kind: 'decisions.record'; branches: string[] }
    | {
        kind: 'security-check.write';
        name: string;
        headSha: string;
        output: CheckRunOutput;
        record: SecurityCheckRecord;
      }
    | SwitchIssueAction
    | { kind: 'state.record'; securityCheck: SecurityCheckRecord | undefined }
  );

export type ActionOf<K extends ReconcileAction['kind']> = Extract<ReconcileAction, { kind: K }>;

/** Every action of one reconcile, in the order the App executes them. */
export function decideReconcile(view: ReconcileView): ReconcileAction[] {
  const security = decideSecurityCheck(view);
  const branches = view.groups.flatMap((group) => decideGroup(view, group));
  return [
    ...branches,
    ...decideGone(view),
    ...decideEmergencies(view),
    ...decideDecisions(branches),
    ...(security.action ? [security.action] : []),
    ...decideSwitches(view),
    {
      kind: 'state.record',
      securityCheck: security.record,
      rule: 'record-state',
      why: 'the cluster state (branches, emergency records, outcome) is what the next reconcile and the dashboard read',
    },
  ];
}

/** A group's branch: left to a person, kept after a failed self-check, published, or closed when nothing is codified. */
function decideGroup(view: ReconcileView, group: DriftGroup): ReconcileAction[] {
  const { branch } = group;
  const before = view.previous.branches[branch];
  if (before?.foreign && view.foreignBranches.has(branch)) return [keepForeign(before)];
  if (!group.codify.check.ok) {
    const selfCheckFailure = group.codify.check.reason;
    const why = `the edits did not pass codify's self-check, nothing is written: ${selfCheckFailure}`;
    return [{ kind: 'drift-pr.keep', branch, ...pullOf(before), selfCheckFailure, rule: 'self-check-failed', why }];
  }
  // Only reported drift (nothing codifiable) is handled like drift gone.
  if (group.codify.edits.size === 0)
    return before ? [closeAction(branch, before, 'nothing on it is codified now')] : [];
  const open = before?.foreign ? undefined : before;
  const emergency = view.emergency.get(branch) ?? [];
  const count = group.codify.codified.length;
  const whyOpen = open?.pullRequest !== undefined ? `update #${open.pullRequest}` : 'open a pull request';
  return [
    {
      kind: 'drift-pr.publish',
      branch,
      ...pullOf(open),
      group,
      ...pullRequestFace(view.cluster, view.config.pullRequests.labels, group, emergency),
      files: [...group.codify.edits.keys()].sort(),
      rule: 'drift-codified',
      why: `${count} persistent live change${count === 1 ? '' : 's'} with a cause drift.causes codifies: write them on ${branch} and ${whyOpen}${emergency.length > 0 ? ' (made under a suspension: the emergency procedure)' : ''}`,
    },
  ];
}

/** The emergency switch issue: where a person decides about a switch when no drift PR shows it. */
function decideSwitches(view: ReconcileView): ReconcileAction[] {
  const actions = decideSwitchIssue({
    cluster: view.cluster,
    groups: view.groups,
    compared: view.compared ?? view.drift,
    branches: view.previous.branches,
    ...(view.previous.switchIssue ? { previous: view.previous.switchIssue } : {}),
  });
  return actions.map((action): ReconcileAction => {
    if (action.kind === 'switch-issue.close')
      return {
        ...action,
        rule: 'switch-settled',
        why: 'no emergency switch waits for a decision any more: close the issue with a comment saying why',
      };
    const count = action.switches.length;
    const why = `${count} emergency switch${count === 1 ? '' : 'es'} flipped by hand wait${count === 1 ? 's' : ''} for a person's decision and no drift PR shows ${count === 1 ? 'it' : 'them all'}: write the issue that takes \`/driftback allow\` (unless its text is unchanged)`;
    return { ...action, rule: 'switch-needs-decision', why };
  });
}

/** Branches recorded before whose drift is gone: closed, or left when they are someone's or outside the prefix. */
function decideGone(view: ReconcileView): ReconcileAction[] {
  const seen = new Set(view.groups.map((group) => group.branch));
  const prefix = view.config.pullRequests.branchPrefix;
  const actions: ReconcileAction[] = [];
  for (const [branch, before] of Object.entries(view.previous.branches)) {
    if (seen.has(branch)) continue;
    if (!branch.startsWith(prefix)) {
      const why = `outside pullRequests.branchPrefix (${prefix}): no longer managed; close or delete it by hand`;
      actions.push({ kind: 'drift-branch.unmanaged', branch, rule: 'prefix-changed', why });
    } else if (before.foreign && view.foreignBranches.has(branch)) actions.push(keepForeign(before));
    else if (!before.foreign) actions.push(closeAction(branch, before, 'the cluster has no drift left for it'));
  }
  return actions;
}

function keepForeign(before: PriorBranch): ReconcileAction {
  const why = `someone else's commits or pull request (${before.foreign!.commits.join(', ')}): the App no longer writes it until the branch is deleted`;
  return { kind: 'drift-pr.keep', branch: before.branch, ...pullOf(before), rule: 'branch-foreign', why };
}

function closeAction(branch: string, before: PriorBranch, reason: string): ReconcileAction {
  const why = `${reason}: close its pull request with a comment and delete the branch (unless someone else committed on it)`;
  return { kind: 'drift-pr.close', branch, ...pullOf(before), rule: 'drift-gone', why };
}

function pullOf(before: PriorBranch | undefined): { pullRequest?: number } {
  return before?.pullRequest !== undefined ? { pullRequest: before.pullRequest } : {};
}

/** The emergency procedure followed one snapshot on, for every PR followed before and every one this run opens. */
function decideEmergencies(view: ReconcileView): ReconcileAction[] {
  const ids = new Set(Object.keys(view.previous.emergencies ?? {}));
  for (const sections of view.emergency.values()) for (const section of sections) ids.add(section.view.suspension.id);
  if (ids.size === 0) return [];
  const why =
    'read each emergency PR and what the controller applied; tick its checklist, comment "verified" once, or record it undone';
  return [{ kind: 'emergency.follow', suspensions: [...ids].sort(), rule: 'emergency-follow', why }];
}

/** A PR the App opened and recorded may have been closed unmerged since it is updated: its fingerprints become decisions. */
function decideDecisions(actions: readonly ReconcileAction[]): ReconcileAction[] {
  const branches = actions.flatMap((action) =>
    action.kind === 'drift-pr.publish' && action.pullRequest !== undefined ? [action.branch] : [],
  );
  if (branches.length === 0) return [];
  const why =
    'a drift PR found closed without merge is a decision: its fingerprints are stored so the same drift is not proposed again';
  return [{ kind: 'decisions.record', branches, rule: 'closed-unmerged-is-decision', why }];
}

/**
 * The `driftback / security (<cluster>)` check run on HEAD, written only when what it says changed:
 * failing while security-relevant drift waits for a person; a failing run on the same HEAD is turned
 * to success once it is gone; an older commit keeps its run.
 */
export function decideSecurityCheck(view: Pick<ReconcileView, 'cluster' | 'headSha' | 'drift' | 'previous'>): {
  action?: ActionOf<'security-check.write'>;
  record: SecurityCheckRecord | undefined;
} {
  const previous = view.previous.securityCheck;
  const output = renderSecurityCheck(view.cluster, view.drift);
  const hash = contentHash(JSON.stringify(output));
  const sameHead = previous?.headSha === view.headSha;
  if (output.conclusion === 'success' && !(sameHead && previous?.conclusion === 'failure'))
    return { record: undefined };
  if (sameHead && previous?.hash === hash) return { record: previous };
  const conclusion = output.conclusion === 'failure' ? 'failure' : 'success';
  const record = { headSha: view.headSha, conclusion, hash } as const;
  const [rule, why] =
    conclusion === 'failure'
      ? (['security-drift', `${output.title}: fail the check on HEAD until a person decides`] as const)
      : ([
          'security-drift-gone',
          'the security-relevant drift is gone: turn the failing check on HEAD to success',
        ] as const);
  const name = securityCheckName(view.cluster);
  return { action: { kind: 'security-check.write', name, headSha: view.headSha, output, record, rule, why }, record };
}

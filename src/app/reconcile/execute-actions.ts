// Executes the reconcile's actions (core/decide/reconcile.ts) in their order, each kind mapped to its
// GitHub and store calls. The checks only GitHub can answer at the moment of writing stay here
// (someone else's commits on the branch, a PR closed unmerged since), and what each action did is
// collected as the run's branches, decisions and events.
import type { ActionOf, ReconcileAction, SwitchIssueRecord } from '../../core/decide/index.js';
import type { Decision } from '../../store/types.js';
import { createOrUpdateCheckRun } from '../../github/index.js';
import { closeDriftBranch } from './close-drift-branch.js';
import { followEmergencies, recordEmergencies, type FollowEvent, type FollowInput } from './follow-emergency.js';
import type { GitHubContext } from './github-context.js';
import { publishDrift } from './publish-drift.js';
import type { BranchState, EmergencyRecord } from './state.js';
import { closeSwitchIssue, writeSwitchIssue } from './write-switch-issue.js';

export interface BranchSync {
  branches: Record<string, BranchState>;
  decisions: Array<Omit<Decision, 'repository' | 'cluster' | 'decidedAt'>>;
  /** Groups whose edits failed codify's self-check: nothing was written for them. */
  selfCheckFailures: Array<{ branch: string; reason: string }>;
  events: Array<{ branch: string; event: string; number?: number }>;
}

/** What the executor is handed besides the actions: the GitHub context and the state before. */
export interface Execution {
  ctx: GitHubContext & { emergency: NonNullable<GitHubContext['emergency']> };
  previous: {
    branches: Readonly<Record<string, BranchState>>;
    emergencies?: Readonly<Record<string, EmergencyRecord>>;
    switchIssue?: SwitchIssueRecord;
  };
  follow: FollowInput;
  recordDecisions: (decisions: BranchSync['decisions']) => Promise<void>;
  /** Writes the cluster state (the last action): what every other action did, and the security check's record. */
  recordState: (executed: Executed, action: ActionOf<'state.record'>) => Promise<void>;
}

export interface Executed {
  sync: BranchSync;
  followed: { records: Record<string, EmergencyRecord>; events: FollowEvent[] };
  /** The emergency switch issue left open, when there is one. */
  switchIssue?: SwitchIssueRecord;
}

export async function executeReconcile(exec: Execution, actions: readonly ReconcileAction[]): Promise<Executed> {
  const executed: Executed = {
    sync: { branches: {}, decisions: [], selfCheckFailures: [], events: [] },
    followed: { records: {}, events: [] },
  };
  for (const action of actions) await executeOne(exec, action, executed);
  return executed;
}

async function executeOne(exec: Execution, action: ReconcileAction, executed: Executed): Promise<void> {
  const { ctx, previous } = exec;
  const { sync } = executed;
  switch (action.kind) {
    case 'drift-pr.publish':
      return publish(ctx, action, previous.branches[action.branch], sync);
    case 'drift-pr.close':
      return close(ctx, previous.branches[action.branch], sync);
    case 'drift-pr.keep':
      return keep(action, previous.branches[action.branch], sync);
    case 'drift-branch.unmanaged':
      ctx.log.warn({ branch: action.branch, prefix: ctx.config.pullRequests.branchPrefix }, action.why);
      return;
    case 'emergency.follow': {
      const records = recordEmergencies(ctx.emergency, sync.branches, previous.emergencies);
      executed.followed = await followEmergencies(ctx, records, exec.follow);
      return;
    }
    case 'decisions.record':
      if (sync.decisions.length > 0) await exec.recordDecisions(sync.decisions);
      return;
    case 'security-check.write':
      return writeSecurityCheck(ctx, action);
    case 'switch-issue.write':
      executed.switchIssue = await writeSwitchIssue(ctx, action, previous.switchIssue, sync.branches);
      return;
    case 'switch-issue.close':
      return closeSwitchIssue(ctx, action);
    case 'state.record':
      return exec.recordState(executed, action);
  }
}

async function publish(
  ctx: GitHubContext,
  action: ActionOf<'drift-pr.publish'>,
  before: BranchState | undefined,
  sync: BranchSync,
): Promise<void> {
  const { branch } = action;
  const published = await publishDrift(ctx, action, before?.foreign ? undefined : before);
  if (published.type === 'declined') {
    sync.decisions.push(
      ...published.fingerprints.map((fingerprint) => ({ fingerprint, pullRequest: published.number })),
    );
    sync.events.push({ branch, event: 'declined', number: published.number });
    return;
  }
  sync.branches[branch] = published.state;
  const number = published.type !== 'foreign' ? { number: published.number } : {};
  sync.events.push({ branch, event: published.type, ...number });
}

async function close(ctx: GitHubContext, before: BranchState | undefined, sync: BranchSync): Promise<void> {
  if (!before) return;
  const closed = await closeDriftBranch(ctx, before);
  if (closed.type === 'foreign') sync.branches[before.branch] = closed.state;
  const number = closed.type === 'closed' ? { number: closed.number } : {};
  sync.events.push({ branch: before.branch, event: closed.type, ...number });
}

/** A branch left as it is: someone else's (reported), or its edits failed the self-check (nothing written). */
function keep(action: ActionOf<'drift-pr.keep'>, before: BranchState | undefined, sync: BranchSync): void {
  if (before) sync.branches[action.branch] = before;
  if (action.selfCheckFailure !== undefined)
    sync.selfCheckFailures.push({ branch: action.branch, reason: action.selfCheckFailure });
  else sync.events.push({ branch: action.branch, event: 'foreign' });
}

async function writeSecurityCheck(ctx: GitHubContext, action: ActionOf<'security-check.write'>): Promise<void> {
  const { output } = action;
  await createOrUpdateCheckRun(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    name: action.name,
    headSha: action.headSha,
    conclusion: output.conclusion,
    title: output.title,
    summary: output.summary,
    annotations: output.annotations,
  });
  const fields = { cluster: ctx.cluster, conclusion: output.conclusion, annotations: output.annotations.length };
  ctx.log.info(fields, 'security check run written');
}

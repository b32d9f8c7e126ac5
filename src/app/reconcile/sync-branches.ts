// Brings every drift branch of a cluster in line with the evaluation: groups with codified edits
// are published, branches whose drift is gone are closed, branches with someone's commits are left.
import type { Decision } from '../../store/types.js';
import { branchHead } from '../../github/index.js';
import { closeDriftBranch } from './close-drift-branch.js';
import type { DriftGroup } from './evaluate.js';
import type { GitHubContext } from './github-context.js';
import { publishDrift } from './publish-drift.js';
import type { BranchState } from './state.js';

export interface BranchSync {
  branches: Record<string, BranchState>;
  decisions: Array<Omit<Decision, 'repository' | 'cluster' | 'decidedAt'>>;
  /** Groups whose edits failed codify's self-check: nothing was written for them. */
  selfCheckFailures: Array<{ branch: string; reason: string }>;
  events: Array<{ branch: string; event: string; number?: number }>;
}

/** A foreign branch stays the human's until it is deleted; then the App may start afresh. */
async function stillForeign(ctx: GitHubContext, previous: BranchState | undefined): Promise<boolean> {
  if (!previous?.foreign) return false;
  return (await branchHead(ctx.octokit, { owner: ctx.owner, repo: ctx.repo }, previous.branch)) !== undefined;
}

async function syncGroup(
  ctx: GitHubContext,
  group: DriftGroup,
  previous: BranchState | undefined,
  sync: BranchSync,
): Promise<void> {
  const { branch } = group;
  if (!group.codify.check.ok) {
    sync.selfCheckFailures.push({ branch, reason: group.codify.check.reason });
    if (previous) sync.branches[branch] = previous;
    return;
  }
  // Only reported drift (nothing codifiable) is handled like drift gone.
  if (group.codify.edits.size === 0) return closeGone(ctx, previous, sync);
  const published = await publishDrift(ctx, group, previous?.foreign ? undefined : previous);
  if (published.type === 'declined') {
    sync.decisions.push(
      ...published.fingerprints.map((fingerprint) => ({ fingerprint, pullRequest: published.number })),
    );
    sync.events.push({ branch, event: 'declined', number: published.number });
    return;
  }
  sync.branches[branch] = published.state;
  sync.events.push({
    branch,
    event: published.type,
    ...(published.type !== 'foreign' ? { number: published.number } : {}),
  });
}

async function closeGone(ctx: GitHubContext, previous: BranchState | undefined, sync: BranchSync): Promise<void> {
  if (!previous) return;
  const closed = await closeDriftBranch(ctx, previous);
  if (closed.type === 'foreign') sync.branches[previous.branch] = closed.state;
  sync.events.push({
    branch: previous.branch,
    event: closed.type,
    ...(closed.type === 'closed' ? { number: closed.number } : {}),
  });
}

export async function syncDriftBranches(
  ctx: GitHubContext,
  groups: DriftGroup[],
  previous: Record<string, BranchState>,
): Promise<BranchSync> {
  const sync: BranchSync = { branches: {}, decisions: [], selfCheckFailures: [], events: [] };
  const seen = new Set<string>();
  for (const group of groups) {
    seen.add(group.branch);
    const before = previous[group.branch];
    if (await stillForeign(ctx, before)) {
      sync.branches[group.branch] = before!;
      sync.events.push({ branch: group.branch, event: 'foreign' });
      continue;
    }
    await syncGroup(ctx, group, before, sync);
  }
  for (const [branch, before] of Object.entries(previous)) {
    if (seen.has(branch)) continue;
    // branchPrefix changed: the old branch is outside what the App may write now, so it is left as is.
    if (!branch.startsWith(ctx.config.pullRequests.branchPrefix)) {
      ctx.log.warn(
        { branch, prefix: ctx.config.pullRequests.branchPrefix },
        'a drift branch outside the configured branchPrefix is no longer managed; close or delete it by hand',
      );
      continue;
    }
    if (await stillForeign(ctx, before)) sync.branches[branch] = before;
    else await closeGone(ctx, before.foreign ? undefined : before, sync);
  }
  return sync;
}

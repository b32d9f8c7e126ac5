// People's decisions on single drift items, as the reconcile uses them: an `ignore` joins the
// fingerprints that are not proposed again (beside those of drift PRs closed unmerged), an `allow`
// lets security-relevant drift be codified with who decided and why, and each drift PR lists the
// decisions made on it (and on the emergency switch issue about what it writes).
import type { DecisionView, ListedDecision } from '../../core/commands/index.js';
import type { RiskDecision } from '../../core/risk/index.js';
import type { ItemDecision } from '../../store/types.js';

export function withIgnored(declined: ReadonlySet<string>, decisions: readonly ItemDecision[]): Set<string> {
  const ignored = decisions.filter((decision) => decision.action === 'ignore').map((decision) => decision.fingerprint);
  return new Set([...declined, ...ignored]);
}

export function riskDecisionsOf(decisions: readonly ItemDecision[]): Map<string, RiskDecision> {
  const allowed = decisions.filter((decision) => decision.action === 'allow');
  return new Map(allowed.map((decision) => [decision.fingerprint, { reason: decision.reason, by: decision.by }]));
}

export function decisionView(decision: ItemDecision): DecisionView {
  const { action, object, field, reason, by, decidedAt } = decision;
  return { action, object, field, reason, by, decidedAt };
}

/**
 * Branch → the decisions its pull request lists, oldest first: those made on it, and those made on the
 * cluster's emergency switch issue (`switchIssue`) about a switch its group codifies. A decision on the
 * issue opens the pull request: it is listed from the first body on, before the PR has a number.
 */
export function decisionsByBranch(
  decisions: readonly ItemDecision[],
  branches: Readonly<Record<string, { pullRequest?: number }>>,
  groups: ReadonlyArray<{ branch: string; fingerprints: readonly string[] }>,
  switchIssue?: number,
): Map<string, ListedDecision[]> {
  const byBranch = new Map<string, ListedDecision[]>();
  const codified = new Map(groups.map((group) => [group.branch, new Set(group.fingerprints)]));
  for (const branch of new Set([...Object.keys(branches), ...codified.keys()])) {
    const pullRequest = branches[branch]?.pullRequest;
    const listed = decisions.flatMap((decision): ListedDecision[] => {
      if (pullRequest !== undefined && decision.pullRequest === pullRequest) return [decisionView(decision)];
      if (decision.pullRequest === switchIssue && codified.get(branch)?.has(decision.fingerprint))
        return [{ ...decisionView(decision), onSwitchIssue: decision.pullRequest }];
      return [];
    });
    if (listed.length > 0) byBranch.set(branch, listed);
  }
  return byBranch;
}

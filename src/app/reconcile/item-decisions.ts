// People's decisions on single drift items, as the reconcile uses them: an `ignore` joins the
// fingerprints that are not proposed again (beside those of drift PRs closed unmerged), an `allow`
// lets security-relevant drift be codified with who decided and why, and each drift PR lists the
// decisions made on it.
import type { DecisionView } from '../../core/commands/index.js';
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

/** Branch → the decisions made on its pull request, oldest first. */
export function decisionsByBranch(
  decisions: readonly ItemDecision[],
  branches: Readonly<Record<string, { pullRequest?: number }>>,
): Map<string, DecisionView[]> {
  const byBranch = new Map<string, DecisionView[]>();
  for (const [branch, state] of Object.entries(branches)) {
    const made = decisions.filter((decision) => decision.pullRequest === state.pullRequest);
    if (state.pullRequest !== undefined && made.length > 0) byBranch.set(branch, made.map(decisionView));
  }
  return byBranch;
}

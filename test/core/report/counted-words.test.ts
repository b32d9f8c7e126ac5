// Counts in the plan comment, the check run, the drift pull request and the alerts read as English:
// one is singular (`1 more warning`, not `1 more warnings`), and every alert ends with the same line
// saying when driftback closes it.
import { describe, expect, it } from 'vitest';
import {
  planCommentView,
  renderCheckRun,
  renderDriftPullRequest,
  renderFixUndoneAlert,
  renderTemplate,
  type DriftPullRequestView,
} from '../../../src/core/report/index.js';
import type { Plan, PlanWarning } from '../../../src/core/model/index.js';
import { scenarioPlan } from './scenario.js';

function warnings(count: number): PlanWarning[] {
  return Array.from({ length: count }, (_, i) => ({ code: 'unhealthy' as const, message: `Check it (${i}).` }));
}

describe('one is singular', () => {
  it('the plan comment counts the one warning it leaves out as one', () => {
    const plan: Plan = { ...scenarioPlan(), warnings: warnings(101) };
    // Level 2 (names only) keeps 100 warnings.
    const body = renderTemplate('plan-comment', planCommentView([{ cluster: 'prod', plan }], {}, 2));
    expect(body).toContain('- … and 1 more warning\n');
  });

  it('the check run that only fits its headlines counts one warning and one error as such', () => {
    const plan: Plan = { create: [], update: [], prune: [], kept: [], unchanged: 1, warnings: [] };
    const huge = { code: 'unhealthy' as const, message: 'x'.repeat(70_000) };
    const error = { file: 'kustomization.yaml', message: 'y'.repeat(70_000) };
    const { summary } = renderCheckRun([{ cluster: 'prod', plan: { ...plan, warnings: [huge] } }], {
      errors: [error],
    });
    expect(summary).toContain('1 warning and 1 error: see the annotations.');
  });

  it('the drift pull request that leaves one change out says "1 more change"', () => {
    const change = {
      path: '/spec/replicas',
      segments: ['spec', 'replicas'],
      op: 'replace' as const,
      desired: 3,
      live: 8,
      manager: 'kubectl-scale',
      time: '2026-12-02T03:02:00Z',
      cause: 'human' as const,
    };
    const codified = Array.from({ length: 21 }, (_, i) => ({
      key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: `api-${i}` },
      change,
      file: `apps/api-${i}.yaml`,
      line: 9,
      kind: 'replace',
    }));
    const view: DriftPullRequestView = {
      cluster: 'prod',
      codified,
      reported: [],
      snapshot: { id: 'snap-1', capturedAt: '2026-12-02T05:00:00Z' },
    } as DriftPullRequestView;
    const whole = renderDriftPullRequest(view);
    expect(whole).not.toContain('more change');
    // Just too small for every row: the level that shows 20 rows.
    const body = renderDriftPullRequest(view, { limit: whole.length - 1 });
    expect(body).toContain("… and 1 more change: see the pull request's files.");
  });
});

describe('alerts close the same way', () => {
  it('the emergency-fix-undone alert says when driftback closes it, as the other alerts do', () => {
    const { body } = renderFixUndoneAlert({
      cluster: 'prod',
      source: 'Kustomization/flux-system/apps',
      resumedAt: '2026-12-02T05:00:00Z',
      changes: [
        {
          key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'api' },
          field: 'spec.replicas',
          value: 8,
        },
      ],
      merged: false,
    } as Parameters<typeof renderFixUndoneAlert>[0]);
    expect(body.trimEnd().split('\n').at(-1)).toBe(
      'driftback closes this issue when a snapshot shows the fix in the cluster again.',
    );
  });
});

// The reconcile's decision as data: from the drift of one snapshot (the real pipeline on plain files and
// objects), the branches recorded before and the last security check, the actions the App executes,
// in order, each with the rule that produced it.
import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../../src/core/config/index.js';
import {
  decideReconcile,
  SECURITY_LABEL,
  type PriorBranch,
  type ReconcileAction,
  type ReconcileView,
} from '../../../src/core/decide/index.js';
import type { KubeObject, Snapshot } from '../../../src/core/model/index.js';
import { reconcileDrift, type DriftGroup } from '../../../src/core/pipeline/index.js';
import { appliedObjects, configText, gitopsRepository, scaled, snapshotOf } from '../../app/live.js';

function config(text: string): Config {
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

const files = gitopsRepository();
const cfg = config(configText());
const HEAD = 'a'.repeat(40);

/** The frontend's image swapped by a raw API client to a registry the repository never uses. */
function swapped(items: KubeObject[]): KubeObject[] {
  const copy = structuredClone(items);
  const deployment = copy.find((o) => o.kind === 'Deployment' && o.metadata.name === 'frontend')!;
  const spec = deployment.spec as Record<string, any>;
  spec.template.spec.containers[0].image = 'registry.evil.example:5000/shop/frontend:9';
  deployment.metadata.managedFields = [
    ...(deployment.metadata.managedFields ?? []),
    {
      manager: 'curl',
      operation: 'Update',
      time: '2026-12-02T02:55:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"php-redis"}': { 'f:image': {} } } } } },
      },
    },
  ];
  return copy;
}

function evaluated(items: KubeObject[]) {
  const evaluation = reconcileDrift({
    snapshot: snapshotOf('acme/platform-gitops', items, '2026-12-02T03:00:00Z') as Snapshot,
    config: cfg,
    cluster: cfg.clusters![0]!,
    files: new Map(Object.entries(files)),
    history: [],
    declined: new Set(),
  });
  if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
  return evaluation;
}

const scaledDrift = evaluated(scaled(appliedObjects(files), 'frontend', 5));
const noDrift = evaluated(appliedObjects(files));
const BRANCH = 'driftback/prod-eu';

function view(
  drift: { groups: DriftGroup[]; drift: ReconcileView['drift'] },
  previous: Partial<ReconcileView['previous']> = {},
  foreign: string[] = [],
): ReconcileView {
  return {
    cluster: 'prod-eu',
    config: cfg,
    headSha: HEAD,
    groups: drift.groups,
    drift: drift.drift,
    previous: { branches: {}, ...previous },
    foreignBranches: new Set(foreign),
    emergency: new Map(),
  };
}

/** Each action as `kind branch/#pr (rule)`: the order and the decisions, without the data they carry. */
const outline = (actions: ReconcileAction[]): string[] =>
  actions.map((action) => {
    const target =
      'branch' in action
        ? ` ${action.branch}${'pullRequest' in action && action.pullRequest ? `#${action.pullRequest}` : ''}`
        : '';
    return `${action.kind}${target} (${action.rule})`;
  });

const foreign: PriorBranch = {
  branch: BRANCH,
  pullRequest: 7,
  foreign: { commits: ['abc1234 by octocat'], since: '2026-12-01T00:00:00Z' },
};

describe('decideReconcile', () => {
  it.each<[string, ReturnType<typeof view>, string[]]>([
    [
      'first drift: a PR is opened, the state recorded',
      view(scaledDrift),
      ['drift-pr.publish driftback/prod-eu (drift-codified)', 'state.record (record-state)'],
    ],
    [
      'drift again on a recorded PR: it is updated, and a PR closed since would be a decision',
      view(scaledDrift, { branches: { [BRANCH]: { branch: BRANCH, pullRequest: 12 } } }),
      [
        'drift-pr.publish driftback/prod-eu#12 (drift-codified)',
        'decisions.record (closed-unmerged-is-decision)',
        'state.record (record-state)',
      ],
    ],
    [
      'the drift is gone: the PR is closed',
      view(noDrift, { branches: { [BRANCH]: { branch: BRANCH, pullRequest: 12 } } }),
      ['drift-pr.close driftback/prod-eu#12 (drift-gone)', 'state.record (record-state)'],
    ],
    [
      'someone committed on the branch, still there: it is left, drift or not',
      view(scaledDrift, { branches: { [BRANCH]: foreign } }, [BRANCH]),
      ['drift-pr.keep driftback/prod-eu#7 (branch-foreign)', 'state.record (record-state)'],
    ],
    [
      'a branch left to a person is deleted: the App starts afresh with a new PR',
      view(scaledDrift, { branches: { [BRANCH]: foreign } }),
      ['drift-pr.publish driftback/prod-eu (drift-codified)', 'state.record (record-state)'],
    ],
    [
      'a deleted foreign branch without drift is forgotten, nothing closed',
      view(noDrift, { branches: { [BRANCH]: foreign } }),
      ['state.record (record-state)'],
    ],
    [
      'a branch outside the configured prefix is reported, not touched',
      view(noDrift, { branches: { 'old/prod-eu': { branch: 'old/prod-eu', pullRequest: 3 } } }),
      ['drift-branch.unmanaged old/prod-eu (prefix-changed)', 'state.record (record-state)'],
    ],
    [
      'emergency records followed before are followed again',
      view(noDrift, { emergencies: { 'flux-system/apps': { pullRequest: 9 } } }),
      ['emergency.follow (emergency-follow)', 'state.record (record-state)'],
    ],
  ])('%s', (_name, input, expected) => {
    expect(outline(decideReconcile(input))).toEqual(expected);
  });

  it('a publish names what the PR will say: title, labels, the files of its one commit', () => {
    const [publish] = decideReconcile(view(scaledDrift));
    expect(publish).toMatchObject({
      kind: 'drift-pr.publish',
      title: 'driftback: prod-eu — 1 live change to Deployment/shop/frontend',
      labels: ['driftback'],
      removeLabels: [SECURITY_LABEL],
      files: ['clusters/prod-eu/frontend-deployment.yaml'],
    });
    expect(publish!.why).toContain('open a pull request');
  });

  it('a self-check failure keeps the branch as it was and writes nothing', () => {
    const [group] = scaledDrift.groups;
    const failed = {
      ...group!,
      codify: { ...group!.codify, edits: new Map(), check: { ok: false as const, reason: 'the edit does not render' } },
    };
    const actions = decideReconcile(
      view(
        { groups: [failed], drift: scaledDrift.drift },
        { branches: { [BRANCH]: { branch: BRANCH, pullRequest: 4 } } },
      ),
    );
    expect(outline(actions)).toEqual([
      'drift-pr.keep driftback/prod-eu#4 (self-check-failed)',
      'state.record (record-state)',
    ]);
    expect(actions[0]).toMatchObject({ selfCheckFailure: 'the edit does not render' });
  });

  describe('the security check on HEAD', () => {
    const risky = evaluated(swapped(appliedObjects(files)));

    it('fails with risky drift, and is not written again while it says the same', () => {
      const first = decideReconcile(view(risky));
      const check = first.find((action) => action.kind === 'security-check.write');
      expect(check).toMatchObject({ name: 'driftback / security (prod-eu)', headSha: HEAD, rule: 'security-drift' });
      if (check?.kind !== 'security-check.write') throw new Error('no check');
      expect(check.output.conclusion).toBe('failure');
      const again = decideReconcile(view(risky, { securityCheck: check.record }));
      expect(again.map((action) => action.kind)).not.toContain('security-check.write');
      expect(again.at(-1)).toEqual(expect.objectContaining({ kind: 'state.record', securityCheck: check.record }));
    });

    it('turns a failing run on the same HEAD to success once the drift is gone; an older HEAD keeps its run', () => {
      const failing = { headSha: HEAD, conclusion: 'failure' as const, hash: 'x' };
      const cleared = decideReconcile(view(noDrift, { securityCheck: failing }));
      expect(outline(cleared)).toEqual(['security-check.write (security-drift-gone)', 'state.record (record-state)']);
      const older = decideReconcile(view(noDrift, { securityCheck: { ...failing, headSha: 'b'.repeat(40) } }));
      expect(outline(older)).toEqual(['state.record (record-state)']);
      expect(older.at(-1)).toMatchObject({ securityCheck: undefined });
    });

    it('labels a drift PR that reports risky drift next to a hotfix it codifies', () => {
      const both = evaluated(swapped(scaled(appliedObjects(files), 'frontend', 5)));
      const publish = decideReconcile(view(both)).find((action) => action.kind === 'drift-pr.publish');
      expect(publish).toMatchObject({ labels: ['driftback', SECURITY_LABEL], removeLabels: [] });
    });
  });
});

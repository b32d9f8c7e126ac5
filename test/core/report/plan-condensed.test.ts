// A plan too large for its diffs reads as a short comment: the note under the summary, objects of one
// kind, operation and file on one line with their names as ranges, long lists folded, what deletes
// data or reverts a live change in sight, and at most 150 lines however large the pull request. Only
// the comment is condensed: the JSON and text outputs still list every object.
import { describe, expect, it } from 'vitest';
import { displayKey, keyId, type Plan, type PlanEntry, type PlanWarning } from '../../../src/core/model/index.js';
import {
  GITHUB_BODY_LIMIT,
  isBalanced,
  planToJson,
  renderCheckRun,
  renderPlanComment,
  renderPlanText,
} from '../../../src/core/report/index.js';
import { nameSpans, shownNames } from '../../../src/core/report/plan-groups.js';
import { expectGolden } from './golden.js';
import { largePlan } from './large-plan.js';
import { scenarioPlan } from './scenario.js';
import { renderedProblems } from '../../support/rendered-markdown.js';

const SNAPSHOTS = { 'prod-eu': '2026-12-02T11:50:00Z' };

/** The text outside every <details>: what a reader sees without a click. */
function unfolded(body: string): string {
  let depth = 0;
  const seen: string[] = [];
  for (const line of body.split('\n')) {
    if (depth === 0 && !line.includes('<details')) seen.push(line);
    depth += (line.match(/<details[\s>]/g)?.length ?? 0) - (line.match(/<\/details>/g)?.length ?? 0);
  }
  return seen.join('\n');
}

/** The objects each line of the condensed list stands for: `N Kind objects (…)`, else one. */
function objectsOnLines(body: string): Record<'create' | 'update' | 'prune', number> {
  const counts = { create: 0, update: 0, prune: 0 };
  for (const line of body.split('\n')) {
    const match = /^- `[-+~]` (create|update|prune) (?:(\d+) \S+ objects \(|`)/.exec(line);
    if (match) counts[match[1] as keyof typeof counts] += match[2] ? Number(match[2]) : 1;
  }
  return counts;
}

describe('a plan over the size budget', () => {
  const plan = largePlan();
  const body = renderPlanComment([{ cluster: 'prod-eu', plan }], { headSha: 'abc1234', snapshots: SNAPSHOTS });

  it('is a 500-object pull request of creates, updates and prunes in several files and kinds, with warnings', () => {
    expect([plan.create.length, plan.update.length, plan.prune.length]).toEqual([430, 50, 20]);
    const kinds = new Set([...plan.create, ...plan.update, ...plan.prune].map((e) => e.id.kind));
    expect([...kinds].sort()).toEqual(['ConfigMap', 'CronJob', 'Deployment', 'Service', 'StatefulSet']);
    expect(plan.warnings.filter((w) => w.code === 'prune-protected')).toHaveLength(5);
    expect(plan.warnings.filter((w) => w.code === 'reverts-live-change')).toHaveLength(25);
  });

  it('stays under 150 lines and renders as sound Markdown (golden)', () => {
    expect(body.split('\n').length).toBeLessThanOrEqual(150);
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(isBalanced(body)).toBe(true);
    expect(renderedProblems(body)).toEqual([]);
    expectGolden('plan-condensed.md', body);
  });

  it('accounts for every object: the summary counts and the lines add up to the objects of the pull request', () => {
    expect(body).toContain('**430 to create, 50 to update, 20 to prune, 0 unchanged; 30 warnings;');
    expect(objectsOnLines(body)).toEqual({ create: 430, update: 50, prune: 20 });
  });

  it('says what was left out right under the summary, before any list', () => {
    const lines = body.split('\n');
    const summary = lines.findIndex((line) => line.startsWith('**430 to create'));
    const note = lines.findIndex((line) => line.includes('The diffs were left out'));
    expect(note).toBe(summary + 2);
    expect(lines.findIndex((line) => line.startsWith('- '))).toBeGreaterThan(note);
  });

  it('collapses runs of one kind, operation and file into a range of names, and counts the rest of other names', () => {
    expect(body).toContain(
      '- `+` create 400 ConfigMap objects (`shop/cfg-001` … `shop/cfg-400`) — declared in `apps/shop/configmaps.yaml`',
    );
    expect(body).toContain(
      '- `+` create 30 Service objects (`shop/ads`, `shop/ads-internal`, `shop/ads-metrics` and 27 more) — declared in `apps/shop/services.yaml`',
    );
    // A field only some objects of the line change says how many.
    expect(body).toContain('`spec.replicas` (25 of 40)');
    expect(body).not.toMatch(/cfg-002/);
  });

  it('never folds what deletes data or reverts a live change below smaller items', () => {
    const seen = unfolded(body);
    expect(seen).toContain('- ⚠️ **Deletes data** (5): `StatefulSet/data/db-1` … `StatefulSet/data/db-5`');
    expect(seen).toContain('- ⚠️ **Reverts a live change** (25): `Deployment/shop/web-01` … `Deployment/shop/web-25`');
    // The 30 warnings themselves, a list over 20, are folded behind a summary that counts them.
    expect(body).toContain('<details><summary>The 30 warnings, each with what to do</summary>');
    const prunes = seen.indexOf('- `-` prune 5 StatefulSet objects');
    expect(seen.slice(prunes)).toMatch(/^[^\n]*— \*\*deletes data\*\*, no longer in `apps\/data\/databases\.yaml`/);
    for (const smaller of ['- `-` prune 15 ConfigMap', '- `+` create', '- `~` update'])
      expect(seen.indexOf(smaller)).toBeGreaterThan(prunes);
  });

  it('leaves the JSON and text outputs whole: every object listed', () => {
    const json = planToJson(plan);
    const ids = [...json.create, ...json.update, ...json.prune].map((e) => keyId(e.id));
    expect(new Set(ids).size).toBe(500);
    const text = renderPlanText('prod-eu', plan);
    for (const entry of [...plan.create, ...plan.update, ...plan.prune])
      expect(text).toContain(`${{ create: '+', update: '~', prune: '-' }[entry.action]} ${displayKey(entry.id)}\n`);
  });

  it('gives the check run the same budget: one line per kind of warning, the full list folded', () => {
    const summary = renderCheckRun([{ cluster: 'prod-eu', plan }]).summary;
    expect(summary.length).toBeLessThanOrEqual(65_535);
    expect(unfolded(summary)).toContain(
      '- ⚠️ **Deletes data** (prod-eu, 5): `StatefulSet/data/db-1` … `StatefulSet/data/db-5`',
    );
    expect(summary).toContain('<details><summary>The 30 warnings, each with what to do</summary>');
    expect(unfolded(summary).split('\n').length).toBeLessThanOrEqual(20);
    expect(renderedProblems(summary)).toEqual([]);
    expectGolden('check-run-condensed.md', summary);
  });
});

describe('lists a reader cannot take in at once', () => {
  function updates(count: number, names: (i: number) => string): PlanEntry[] {
    const template = scenarioPlan().update[0];
    return Array.from({ length: count }, (_, i) => ({ ...template, id: { ...template.id, name: names(i) } }));
  }

  it('folds the diffs of more than 20 objects behind a summary that counts them, when the diffs fit', () => {
    const plan: Plan = {
      create: [],
      update: updates(21, (i) => `svc-${i}`),
      prune: [],
      kept: [],
      unchanged: 0,
      warnings: [],
    };
    const body = renderPlanComment([{ cluster: 'prod-eu', plan }]);
    expect(body).toContain('<details><summary>Diffs of 21 objects: 0 to prune, 0 to create, 21 to update</summary>');
    expect(body).toContain('```diff');
    expect(unfolded(body).split('\n').length).toBeLessThan(15);
    expect(renderedProblems(body)).toEqual([]);
  });

  it('condenses when the diffs fit GitHub’s limit but the comment would show more than 150 lines', () => {
    // 200 updates with small diffs: under 65,536 characters folded, but 200 lines outside any fold.
    const plan: Plan = {
      create: [],
      update: updates(200, (i) => `svc-${i}`),
      prune: [],
      kept: [],
      unchanged: 0,
      warnings: [],
    };
    const body = renderPlanComment([{ cluster: 'prod-eu', plan }]);
    expect(body.split('\n').length).toBeLessThanOrEqual(150);
    expect(objectsOnLines(body).update).toBe(200);
  });

  it('keeps a pull request touching 300 files under 150 lines: one line per kind and operation across files', () => {
    const many = updates(300, (i) => `svc-${i}`).map((entry, i) => ({
      ...entry,
      desired: { ...entry.desired!, source: { ...entry.desired!.source, file: `apps/team-${i}/service.yaml` } },
    }));
    const plan: Plan = { create: [], update: many, prune: [], kept: [], unchanged: 0, warnings: [] };
    const body = renderPlanComment([{ cluster: 'prod-eu', plan }]);
    expect(body.split('\n').length).toBeLessThanOrEqual(150);
    expect(body).toContain(
      '- `~` update 300 Deployment objects (`default/svc-0` … `default/svc-299`) — across 300 files',
    );
    expect(body).toContain('objects of one kind and operation share a line');
  });

  it('counts the objects of the lines it leaves out when even one line per kind and operation is too many', () => {
    // 60 kinds, each in three files: 180 lines per kind, operation and file; 60 per kind and operation.
    const many = updates(180, (i) => `obj-${i}`).map((entry, i) => ({
      ...entry,
      id: { ...entry.id, kind: `Widget${Math.floor(i / 3)}` },
      desired: { ...entry.desired!, source: { ...entry.desired!.source, file: `apps/f-${i % 3}.yaml` } },
    }));
    const plan: Plan = { create: [], update: many, prune: [], kept: [], unchanged: 0, warnings: [] };
    const body = renderPlanComment([{ cluster: 'prod-eu', plan }]);
    expect(body.split('\n').length).toBeLessThanOrEqual(150);
    expect(body).toContain('<details><summary>180 objects: the first 40 lines</summary>');
    expect(body).toContain('- … and 60 more objects on 20 more lines');
    expect(objectsOnLines(body).update + 60).toBe(180);
    expect(renderedProblems(body)).toEqual([]);
  });

  it('shows 21 warnings as one line per kind, the warnings themselves folded', () => {
    const warnings: PlanWarning[] = Array.from({ length: 21 }, (_, i) => ({
      code: 'conflict',
      id: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: `api-${i + 1}` },
      message: 'Two managers own `spec.replicas`.',
    }));
    const body = renderPlanComment([{ cluster: 'prod-eu', plan: { ...scenarioPlan(), warnings } }]);
    expect(unfolded(body)).toContain(
      '- ⚠️ **Two managers, one field** (21): `Deployment/shop/api-1` … `Deployment/shop/api-21`',
    );
    expect(unfolded(body)).not.toContain('api-5');
  });
});

describe('names on a line', () => {
  it('sorts names naturally so a range reads in order', () => {
    expect(nameSpans(['cfg-10', 'cfg-9', 'cfg-11', 'cfg-2'])).toEqual([
      { first: 'cfg-2', count: 1 },
      { first: 'cfg-9', last: 'cfg-11', count: 3 },
    ]);
  });

  it('makes a range only of consecutive numbers with the same stem, so a range never hides a gap', () => {
    const names = ['db-1', 'db-2', 'db-3', 'db-5', 'db-6', 'db-7', 'web-4'];
    expect(nameSpans(names)).toEqual([
      { first: 'db-1', last: 'db-3', count: 3 },
      { first: 'db-5', last: 'db-7', count: 3 },
      { first: 'web-4', count: 1 },
    ]);
  });

  it('names the first few and counts the rest when the names form no run', () => {
    const names = ['zeta', 'alpha', 'kappa', 'beta', 'omega', 'delta'];
    expect(shownNames(names)).toEqual({
      names: [
        { first: 'alpha', count: 1 },
        { first: 'beta', count: 1 },
        { first: 'delta', count: 1 },
      ],
      namesOmitted: 3,
    });
    // "and 1 more" would say less than the name.
    expect(shownNames(names.slice(0, 4)).namesOmitted).toBe(0);
  });
});

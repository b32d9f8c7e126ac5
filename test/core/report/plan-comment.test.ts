import { describe, expect, it } from 'vitest';
import {
  renderPlanComment,
  renderCheckRun,
  chunkAnnotations,
  isBalanced,
  GITHUB_BODY_LIMIT,
  overridesOf,
  splitComment,
} from '../../../src/core/report/index.js';
import type { KubeObject, Plan, PlanEntry } from '../../../src/core/model/index.js';
import { expectGolden } from './golden.js';
import { scenarioPlan } from './scenario.js';
import { mentionableText, renderMarkdown } from '../../support/rendered-markdown.js';

function outsideFences(body: string): string {
  return body.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, '');
}

it('a prune of an object being deleted shows none of the metadata the server set (one list for every reader)', () => {
  const live: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    data: { a: '1' },
    metadata: {
      name: 'legacy',
      namespace: 'shop',
      uid: 'u-1',
      resourceVersion: '7',
      deletionTimestamp: '2026-12-02T11:00:00Z',
      deletionGracePeriodSeconds: 0,
      finalizers: ['example.com/hold'],
    },
  };
  const id = { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'legacy' };
  const prune = [{ id, action: 'prune' as const, changes: [], conflicts: [], live }];
  const plan: Plan = { create: [], update: [], prune, kept: [], unchanged: 0, warnings: [] };
  const body = renderPlanComment([{ cluster: 'prod-eu', plan }]);
  expect(body).toContain('-  finalizers:');
  expect(body).not.toMatch(/deletionTimestamp|deletionGracePeriodSeconds|resourceVersion|uid:/);
});

describe('renderPlanComment', () => {
  it('renders summary, warnings first, then a diff per resource (golden)', () => {
    const body = renderPlanComment([{ cluster: 'prod-eu', plan: scenarioPlan() }], {
      headSha: 'abc1234',
      snapshots: { 'prod-eu': '2026-12-02T11:50:00Z' },
    });
    expect(body).toContain('#### prod-eu\n\n**3 to create, 1 to update, 1 to prune, ');
    expect(body.indexOf('Warnings')).toBeLessThan(body.indexOf('<details>'));
    expect(isBalanced(body)).toBe(true);
    expectGolden('plan-comment.md', body);
  });

  it('titles the plan with the head commit abbreviated to 7 characters, as GitHub shows it', () => {
    const headSha = '4c8b064f2e9d1a7b3c5e6f708192a3b4c5d6e7f8';
    const body = renderPlanComment([{ cluster: 'prod-eu', plan: scenarioPlan() }], { headSha });
    expect(body.split('\n')[0]).toBe('### driftback plan for `4c8b064`');
    expect(body).not.toContain(headSha);
  });

  it('keeps the per-source lines and the warnings apart, and folds the many objects a partial snapshot does not show', () => {
    const plan = scenarioPlan();
    const sources: Plan['sources'] = ['apps', 'infrastructure'].map((name) => ({
      name: `flux-system/${name}`,
      controller: 'flux',
      scope: 'rendered',
      suspended: false,
      counts: { update: name === 'apps' ? 1 : 0 },
    }));
    const roles = Array.from({ length: 8 }, (_, i) => ({
      group: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      namespace: '',
      name: `reader-${i}`,
    }));
    const partial = {
      code: 'partial-snapshot' as const,
      message: 'The snapshot lists only the namespaces default.',
      objects: roles,
    };
    const body = renderPlanComment([
      { cluster: 'prod-eu', plan: { ...plan, sources, warnings: [partial, ...plan.warnings] } },
    ]);
    const html = renderMarkdown(body);
    // Two lists, not one: the sources' and the warnings'.
    expect(html.match(/<ul>/g)).toHaveLength(2);
    expect(html).toMatch(/<li>flux-system\/infrastructure: no changes<\/li>\n<\/ul>/);
    expect(body).toContain('  <details><summary>8 objects not shown</summary>\n\n  `ClusterRole/reader-0`, ');
    expect(isBalanced(body)).toBe(true);
    expectGolden('plan-comment-sources-warnings.md', body);
  });

  it('keeps a plan with 2,000 updated resources under the limit with every block closed', () => {
    const template = scenarioPlan().update[0];
    const update: PlanEntry[] = Array.from({ length: 2000 }, (_, i) => ({
      ...template,
      id: { ...template.id, name: `service-${i}` },
    }));
    const plan: Plan = { create: [], update, prune: [], kept: [], unchanged: 3, warnings: [] };
    const body = renderPlanComment([{ cluster: 'prod-eu', plan }]);
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(isBalanced(body)).toBe(true);
    expect(body).toContain('**0 to create, 2000 to update, 0 to prune, 3 unchanged');
    expect(body).toMatch(/size limit|does not fit/);
  });

  it('escapes names so they cannot break out of a fence, inject HTML or mention anyone', () => {
    const plan = scenarioPlan();
    const entry = plan.create[0];
    const hostile = {
      ...entry,
      id: { ...entry.id, name: '@admins</summary><img src=x>' },
      desired: {
        ...entry.desired!,
        object: { ...entry.desired!.object, data: { evil: '````\n</details>\n@everyone' } },
      },
    };
    const body = renderPlanComment([{ cluster: 'prod-eu', plan: { ...plan, create: [hostile] } }]);
    // Outside code blocks nothing is raw HTML; inside them HTML is inert, and mentions are defused everywhere.
    expect(outsideFences(body)).not.toContain('<img');
    expect(mentionableText(body)).not.toMatch(/@admins|@everyone/);
    expect(isBalanced(body)).toBe(true);
    expect(body).toMatch(/`````diff/);
  });

  it('falls back to the built-in template when an override does not compile, and says so', () => {
    const body = renderPlanComment([{ cluster: 'prod-eu', plan: scenarioPlan() }], {
      templates: overridesOf({ 'plan-comment': '{{#each}' }),
    });
    expect(body).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/plan-comment\.hbs` could not be used \(Parse error on line 1/,
    );
    expect(body).toContain('**3 to create');
  });

  it('uses a repository override', () => {
    const body = renderPlanComment([{ cluster: 'prod-eu', plan: scenarioPlan() }], {
      templates: overridesOf({ 'plan-comment': '{{#each clusters}}{{text summary}}{{/each}}' }),
    });
    expect(body).toBe('prod-eu: 3 to create, 1 to update, 1 to prune, 30 unchanged\n');
  });
});

describe('renderCheckRun', () => {
  it('is neutral with warnings, annotated at the manifest line', () => {
    const output = renderCheckRun([{ cluster: 'prod-eu', plan: scenarioPlan() }]);
    expect(output.conclusion).toBe('neutral');
    expect(output.title).toMatch(/3 to create, 1 to update, 1 to prune · \d+ warnings?/);
    expect(output.annotations.length).toBeGreaterThan(0);
    expect(output.annotations[0]).toMatchObject({ path: 'cartservice.yaml', annotation_level: 'warning' });
    expect(output.annotations[0].start_line).toBeGreaterThan(1);
    expectGolden('check-run.json', JSON.stringify(output, null, 2) + '\n');
  });

  it('asks for action when a prune deletes data, as plan.dataLossConclusion says', () => {
    const pvc = { group: '', kind: 'PersistentVolumeClaim', namespace: 'shop', name: 'data' };
    const losing: Plan = {
      create: [],
      update: [],
      prune: [{ id: pvc } as Plan['prune'][number]],
      kept: [],
      unchanged: 3,
      warnings: [
        { code: 'prune-protected', id: pvc, message: 'deletes the claim and, with reclaim policy Delete, its data' },
      ],
    };
    const informing: Plan = { ...losing, warnings: [{ ...losing.warnings[0], code: 'conflict' }] };
    expect(renderCheckRun([{ cluster: 'a', plan: losing }]).conclusion).toBe('action_required');
    expect(renderCheckRun([{ cluster: 'a', plan: losing }], { dataLoss: 'failure' }).conclusion).toBe('failure');
    expect(renderCheckRun([{ cluster: 'a', plan: losing }], { dataLoss: 'neutral' }).conclusion).toBe('neutral');
    expect(renderCheckRun([{ cluster: 'a', plan: informing }]).conclusion).toBe('neutral');
  });

  it('is success without warnings and failure with config errors', () => {
    const empty: Plan = { create: [], update: [], prune: [], kept: [], unchanged: 4, warnings: [] };
    expect(renderCheckRun([{ cluster: 'a', plan: empty }]).conclusion).toBe('success');
    const failed = renderCheckRun([{ cluster: 'a', plan: empty }], {
      errors: [
        {
          file: '.github/driftback.yml',
          line: 4,
          field: 'clusters[0].staleAfter',
          message: 'expected a duration like 30m',
        },
      ],
    });
    expect(failed.conclusion).toBe('failure');
    expect(failed.annotations).toEqual([
      {
        path: '.github/driftback.yml',
        start_line: 4,
        end_line: 4,
        annotation_level: 'failure',
        title: 'driftback: clusters[0].staleAfter',
        message: 'expected a duration like 30m',
      },
    ]);
  });

  it('batches annotations 50 per request', () => {
    const chunks = chunkAnnotations(Array.from({ length: 121 }, (_, i) => i));
    expect(chunks.map((c) => c.length)).toEqual([50, 50, 21]);
    expect(chunks.flat()).toEqual(Array.from({ length: 121 }, (_, i) => i));
  });
});

describe('splitComment', () => {
  it('cuts a line longer than a part inside a fence, closing and reopening the fence', () => {
    const body = ['```', 'x'.repeat(5000), '```'].join('\n');
    const parts = splitComment(body, 1000);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(1000);
      expect(isBalanced(part)).toBe(true);
    }
    expect(parts.join('').replace(/[^x]/g, '').length).toBe(5000);
  });

  it('returns the body alone when it fits, numbered balanced parts when it does not', () => {
    expect(splitComment('short', 100)).toEqual(['short']);
    const body = [
      'intro',
      '<details><summary>big</summary>',
      '',
      '```diff',
      ...Array.from({ length: 400 }, (_, i) => `+ line ${i}`),
      '```',
      '',
      '</details>',
      'end',
    ].join('\n');
    const parts = splitComment(body, 1000);
    expect(parts.length).toBeGreaterThan(1);
    parts.forEach((part, i) => {
      expect(part.length).toBeLessThanOrEqual(1000);
      expect(isBalanced(part)).toBe(true);
      expect(part.startsWith(`**Part ${i + 1} of ${parts.length}**`)).toBe(true);
    });
  });
});

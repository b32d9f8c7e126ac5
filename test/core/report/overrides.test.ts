// Repository templates: `.github/driftback/templates/<name>.hbs` replaces a built-in template; a file
// that is not a template, or an override that does not compile, throws, renders nothing or cannot fit
// GitHub's limit, leaves the built-in template in charge and a warning at the top of the document.
import { describe, expect, it } from 'vitest';
import {
  overridesOf,
  renderDriftPullRequest,
  renderPlanComment,
  renderTemplate,
  TEMPLATES,
  templateOverrides,
} from '../../../src/core/report/index.js';
import { MAX_PARTIAL_DEPTH } from '../../../src/core/report/template-engine.js';
import { renderedProblems } from '../../support/rendered-markdown.js';
import { scenarioPlan } from './scenario.js';
import { nestedPartials } from '../../support/hostile.js';

const plans = () => [{ cluster: 'prod-eu', plan: scenarioPlan() }];

describe('templateOverrides', () => {
  it('takes every known name from the templates directory and names the other files', () => {
    const overrides = templateOverrides(
      new Map([
        ['.github/driftback/templates/plan-comment.hbs', 'A'],
        ['.github/driftback/templates/dashboard.hbs', 'B'],
        ['.github/driftback/templates/plan.hbs', 'C'],
        ['.github/driftback/templates/README.md', 'D'],
        ['.github/driftback/plan-comment.hbs', 'not in the directory'],
        ['clusters/prod/app.yaml', 'kind: ConfigMap'],
      ]),
    );
    expect(overrides.templates).toEqual({ 'plan-comment': 'A', dashboard: 'B' });
    expect(overrides.ignored.map((i) => i.file)).toEqual([
      '.github/driftback/templates/README.md',
      '.github/driftback/templates/plan.hbs',
    ]);
  });
});

describe('rendering with an override', () => {
  it('uses the repository template with the typed model', () => {
    const body = renderPlanComment(plans(), {
      templates: overridesOf({ 'plan-comment': '{{#each clusters}}{{text name}}: {{text headline}}{{/each}}' }),
    });
    expect(body).toBe(
      'prod-eu: 3 to create, 1 to update, 1 to prune, 30 unchanged; 1 warning; undoes 1 live change by kubectl-scale, last 2026-12-02 03:02 UTC\n',
    );
  });

  it.each([
    ['does not compile', '{{#each clusters}', /could not be used \(Parse error on line 1/],
    [
      'throws while rendering',
      '{{#each clusters}}{{shout name}}{{/each}}',
      /could not be used \(Missing helper: &quot;shout&quot;\)/,
    ],
    ['renders nothing', '{{#each nothing}}x{{/each}}\n\n', /could not be used \(it rendered nothing\)/],
    [
      'cannot fit the limit',
      '{{#each clusters}}{{text headline}}{{/each}}'.repeat(2000),
      /could not be used \(it renders \d+ characters, more than GitHub's limit/,
    ],
  ])('falls back to the built-in template, and says so at the top, when it %s', (_name, template, reason) => {
    const body = renderPlanComment(plans(), { templates: overridesOf({ 'plan-comment': template }), limit: 60_000 });
    const [warning, ...rest] = body.split('\n\n');
    expect(warning).toMatch(/^> ⚠️ `\.github\/driftback\/templates\/plan-comment\.hbs` /);
    expect(warning).toMatch(reason);
    expect(rest.join('\n\n')).toContain('### driftback plan');
    expect(renderedProblems(body)).toEqual([]);
  });

  it('names an unknown file at the top of every document rendered with the overrides', () => {
    const overrides = templateOverrides(new Map([['.github/driftback/templates/drift.hbs', 'x']]));
    const pr = renderDriftPullRequest(
      { cluster: 'c', codified: [], reported: [], snapshot: { id: 's', capturedAt: '2026-12-02T05:00:00Z' } },
      { templates: overrides },
    );
    expect(pr).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/drift\.hbs` was ignored: driftback renders no template of that name \(the names are plan-comment, drift-pull-request/,
    );
    expect(renderPlanComment(plans(), { templates: overrides })).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/drift\.hbs` was ignored/,
    );
  });

  it('a built-in template given as an override renders the same document', () => {
    const model = { cluster: 'prod-us', age: '1d', staleAfter: '30m' };
    expect(renderTemplate('stale-alert', model, overridesOf({ 'stale-alert': TEMPLATES['stale-alert'] }))).toBe(
      renderTemplate('stale-alert', model),
    );
  });
});

describe('limits of an override (the App also runs it in a worker with a time and memory limit)', () => {
  const fallback = (template: string): string => {
    const body = renderPlanComment(plans(), { templates: overridesOf({ 'plan-comment': template }) });
    expect(body).toContain('### driftback plan');
    return body.split('\n\n')[0];
  };

  it('stops a 1.9 KB template whose inline partials would render 2^40 times, at its partial depth', () => {
    const template = nestedPartials(40, 2, 'x');
    expect(template.length).toBeGreaterThan(1800);
    expect(template.length).toBeLessThan(2000);
    expect(fallback(template)).toContain(
      `could not be used (its partials nest deeper than ${MAX_PARTIAL_DEPTH} levels)`,
    );
  });

  it('stops partials within the depth whose output grows past the output limit', () => {
    expect(fallback(nestedPartials(12, 10, 'x'.repeat(1000)))).toContain(
      'could not be used (it renders more than 1,048,576 characters)',
    );
  });

  it('stops a partial that calls itself', () => {
    expect(fallback('{{#*inline "r"}}{{> r}}{{/inline}}{{> r}}')).toContain('partials nest deeper than');
  });

  it('uses the built-in template with the reason the App gives when a limit stopped the override', () => {
    const templates = {
      ...overridesOf({ 'plan-comment': 'x' }),
      failed: { 'plan-comment': 'it rendered for more than 10 s' },
    };
    expect(renderPlanComment(plans(), { templates }).split('\n\n')[0]).toBe(
      '> ⚠️ `.github/driftback/templates/plan-comment.hbs` could not be used (it rendered for more than 10 s); this is the built-in template. Fix the file on the default branch.',
    );
  });

  it('keeps the built-in partials usable from an override', () => {
    const body = renderPlanComment(plans(), {
      templates: overridesOf({
        'plan-comment': '{{#each clusters}}{{text name}}{{#each resources}}{{> value-diffs}}{{/each}}{{/each}}',
      }),
    });
    expect(body.startsWith('prod-eu')).toBe(true);
  });
});

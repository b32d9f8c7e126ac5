// The emergency switch issue's text: the built-in `switch-issue` template as golden Markdown (a switch
// waiting, one kept by a decision, one turned off by hand while Git keeps it on), and a repository's
// override rendered with the typed model. The values are what core/k8s pause-switches.ts says of a
// suspended CronJob, a paused KEDA ScaledObject and a Deployment whose rollout was resumed by hand.
import { describe, expect, it } from 'vitest';
import { overridesOf, renderSwitchIssue, type SwitchIssueView } from '../../../src/core/report/index.js';
import { expectGolden } from './golden.js';

const view: SwitchIssueView = {
  cluster: 'prod',
  switches: [
    {
      key: { group: 'batch', kind: 'CronJob', namespace: 'shop', name: 'archive' },
      field: 'spec.suspend',
      live: true,
      did: 'suspended',
      command: 'kubectl patch cronjob … -p \'{"spec":{"suspend":true}}\'',
      stops: 'CronJob archive starts no Jobs (schedule `0 3 * * *`): the archive job is not running',
      on: true,
      manager: 'kubectl-patch',
      time: '2026-12-01T12:01:00Z',
      file: 'clusters/prod/archive.yaml',
    },
    {
      key: { group: 'keda.sh', kind: 'ScaledObject', namespace: 'shop', name: 'worker' },
      field: 'metadata.annotations[autoscaling.keda.sh/paused-replicas]',
      live: '2',
      did: 'autoscaling paused',
      command: 'kubectl annotate scaledobject … autoscaling.keda.sh/paused-replicas=N',
      stops: 'KEDA holds Deployment/worker at 2 replicas and no longer autoscales it',
      on: true,
      file: 'clusters/prod/worker.yaml',
      decided: {
        text: 'decided by alice: queue drained until the migration ends',
        branch: 'driftback/prod',
        pullRequest: 41,
      },
    },
    {
      key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
      field: 'spec.paused',
      live: false,
      desired: true,
      did: 'rollout paused',
      command: 'kubectl rollout pause',
      stops: 'Deployment web rolls out no change to its pod template: a new image or setting is not deployed',
      on: false,
      manager: 'kubectl-rollout',
      time: '2026-12-02T08:30:00Z',
      file: 'clusters/prod/web.yaml',
    },
  ],
};

describe('the switch issue', () => {
  it('built-in template (golden)', () => {
    const { title, body } = renderSwitchIssue(view);
    expect(title).toBe('Emergency switches flipped on prod: CronJob shop/archive suspended and 2 more');
    expectGolden('switch-issue.md', body);
  });

  it("a repository's override renders the typed model", () => {
    const template = [
      'Switches on {{code cluster}}:',
      '{{#each switches}}',
      '- {{code resource}} {{code field}} {{text did}}{{#if who}} by {{code who}}{{/if}}: {{#if decided}}kept, #{{decided.pullRequest}}{{else}}{{code allow}}{{/if}}',
      '{{/each}}',
    ].join('\n');
    const { title, body } = renderSwitchIssue(view, { templates: overridesOf({ 'switch-issue': template }) });
    expect(title).toBe('Emergency switches flipped on prod: CronJob shop/archive suspended and 2 more');
    expect(body).toBe(
      [
        'Switches on `prod`:',
        '- `CronJob/shop/archive` `spec.suspend` suspended by `kubectl-patch`: `/driftback allow spec.suspend on CronJob/shop/archive because <why it stays>`',
        '- `ScaledObject/shop/worker` `metadata.annotations[autoscaling.keda.sh/paused-replicas]` autoscaling paused: kept, #41',
        '- `Deployment/shop/web` `spec.paused` rollout paused by `kubectl-rollout`: `/driftback allow spec.paused on Deployment/shop/web because <why it stays>`',
        '',
      ].join('\n'),
    );
  });

  it('an override that throws leaves the built-in text, with a warning naming the file and the reason', () => {
    const templates = overridesOf({ 'switch-issue': '{{#each switches}}{{nosuchhelper resource}}{{/each}}' });
    const [warning, ...rest] = renderSwitchIssue(view, { templates }).body.split('\n\n');
    expect(warning).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/switch-issue\.hbs` could not be used \(.*nosuchhelper.*\); this is the built-in template\. Fix the file on the default branch\.$/,
    );
    expect(`${rest.join('\n\n')}`).toBe(renderSwitchIssue(view).body);
  });
});

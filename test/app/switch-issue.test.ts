// End to end through the GitHub stand-in: a person suspends a CronJob by hand and the cluster has no
// other drift, so there is no drift PR to decide on. driftback opens the emergency switch issue (what
// the switch stops, since when, by whom, the exact command); `/driftback allow` in its comments, under
// the same rules as on a pull request, opens the drift PR that writes exactly the switch line; the
// issue closes once that PR is merged. A switch turned back by hand closes its issue too. The CronJob
// is kubernetes/website's application/job/cronjob.yaml, copied byte for byte (test/fixtures/upstream);
// `kubectl patch` writes as kubectl-patch, an Update of exactly spec.suspend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { readClusterState } from '../../src/app/reconcile/state.js';
import { startCommandHarness, type CommandHarness } from '../support/command-harness.js';
import { readFixture } from '../support/fixtures.js';
import { APP_LOGIN } from '../support/github/index.js';
import { OWNER, REPO } from './plan-harness.js';

const CRONJOB_TEXT = readFixture('manifests', 'kubernetes-website/content/en/examples/application/job/cronjob.yaml');
const FILES = {
  '.github/driftback.yml': 'clusters:\n  - name: dev\n    path: manifests\n    defaultNamespace: shop\n',
  'manifests/cronjob.yaml': CRONJOB_TEXT,
};
const TITLE = 'Emergency switch flipped on dev: CronJob shop/hello suspended';
const ALLOW = '/driftback allow spec.suspend on CronJob/shop/hello because archive paused until Q1';

/** The namespace and the CronJob as applied from Git; `suspended`: then `kubectl patch … suspend: true` at 12:01. */
function live(suspended: boolean | 'resumed'): KubeObject[] {
  const cronjob = parse(CRONJOB_TEXT) as KubeObject;
  cronjob.metadata.namespace = 'shop';
  const fields: Record<string, unknown> = { 'f:schedule': {}, 'f:jobTemplate': {} };
  cronjob.metadata.managedFields = [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'batch/v1',
      time: '2026-12-01T10:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': fields },
    },
  ];
  if (suspended !== false) {
    (cronjob.spec as Record<string, unknown>).suspend = suspended === true;
    cronjob.metadata.managedFields.push({
      manager: 'kubectl-patch',
      operation: 'Update',
      apiVersion: 'batch/v1',
      time: suspended === true ? '2026-12-01T12:01:00Z' : '2026-12-02T09:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:suspend': {} } },
    });
  }
  return [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, cronjob];
}

const ROLES = { alice: 'write', tim: 'triage' } as const;

function scenario(h: () => CommandHarness) {
  const repo = () => h().standIn.state.repo(OWNER, REPO);
  const switchIssues = () => [...repo().issues.values()].filter((issue) => !issue.pull && issue.title === TITLE);
  const driftPulls = () => [...repo().issues.values()].filter((issue) => issue.pull?.head === 'driftback/dev');
  const snapshots = (state: boolean | 'resumed', at: string[]) => h().snapshots('dev', () => live(state), at);
  return { switchIssues, driftPulls, snapshots };
}

describe('a switch flipped alone: the issue, the decision, the drift PR, the merge', () => {
  let h: CommandHarness;
  const s = scenario(() => h);
  beforeAll(async () => {
    h = await startCommandHarness(FILES, { start: '2026-12-02T12:00:00Z', roles: ROLES });
    await s.snapshots(true, ['2026-12-02T12:00:00Z', '2026-12-02T12:10:00Z']);
  }, 60_000);
  afterAll(async () => h?.close());

  it('opens one issue saying what the switch stops, since when, by whom, and the command to copy; no drift PR', () => {
    expect(s.driftPulls()).toEqual([]);
    const [issue] = s.switchIssues();
    expect(s.switchIssues()).toHaveLength(1);
    expect(issue!.state).toBe('open');
    expect(issue!.labels).toEqual(expect.arrayContaining(['driftback', 'emergency']));
    const body = issue!.body!;
    expect(body).toContain('### `CronJob/shop/hello` `spec.suspend`');
    expect(body).toContain('the hello job is not running');
    expect(body).toContain('since 2026-12-01 12:01 UTC by `kubectl-patch`');
    expect(body).toContain('**Git:** not set in `manifests/cronjob.yaml`');
    expect(body).toContain('```\n/driftback allow spec.suspend on CronJob/shop/hello because <why it stays>\n```');
    expect(body).toContain('The switch stays reported');
    expect(body).toContain("Turning it back by hand (to Git's value) clears it, and this issue closes.");
  });

  it('records the run as reported, an emergency switch waiting for a decision, never as codified', async () => {
    const number = s.switchIssues()[0]!.number;
    const state = await readClusterState(h.app.store, 'acme/platform', 'dev');
    expect(state.outcome).toEqual({
      type: 'reported',
      message: `emergency switch waiting for a decision on #${number}`,
    });
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^driftback_reconcile_duration_seconds_count\{result="reported"\} [1-9]/m);
    expect(metrics).not.toContain('driftback_reconcile_duration_seconds_count{result="codified"}');
  });

  it('the same snapshot again writes nothing', async () => {
    const before = s.switchIssues()[0]!.updatedAt;
    await s.snapshots(true, ['2026-12-02T12:20:00Z']);
    expect(s.switchIssues()[0]!.updatedAt).toBe(before);
    expect(s.switchIssues()).toHaveLength(1);
  });

  it('commands on the issue follow the PR rules: write access checked, bots ignored, plan refused', async () => {
    const number = s.switchIssues()[0]!.number;
    const refused = await h.command(number, 'tim', ALLOW);
    expect(refused.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(refused.replies[0]).toContain('`tim` has `read`');
    const bot = await h.command(number, 'renovate[bot]', ALLOW);
    expect([bot.replies, bot.reactions]).toEqual([[], []]);
    const plan = await h.command(number, 'alice', '/driftback plan');
    expect(plan.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(plan.replies[0]).toContain('`/driftback plan` works on pull requests');
    expect(await h.app.store.itemDecisions('acme/platform', 'dev')).toEqual([]);
    expect(s.driftPulls()).toEqual([]);
  });

  it('allow opens the drift PR whose change is exactly the switch line, and the issue links it', async () => {
    h.clock.now = new Date('2026-12-02T12:25:00Z');
    const number = s.switchIssues()[0]!.number;
    const allowed = await h.command(number, 'alice', ALLOW);
    expect(allowed.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(allowed.replies[0]).toContain('this issue links it and closes once it is merged');
    const [pull] = s.driftPulls();
    expect(pull?.state).toBe('open');
    expect(h.standIn.readFile(OWNER, REPO, 'driftback/dev', 'manifests/cronjob.yaml')).toBe(
      `${CRONJOB_TEXT}  suspend: true\n`,
    );
    expect(pull!.body).toContain('emergency switch kept (decided by alice: archive paused until Q1)');
    // The decision made on the issue is listed where the PR's decisions are, with the issue it was made on.
    expect(pull!.body).toContain(
      '### Decided on this pull request\n\n' +
        '- `CronJob/shop/hello spec.suspend`: allowed to be codified by `alice` at 2026-12-02T12:25:00.000Z ' +
        `on the emergency switch issue #${number}: archive paused until Q1\n`,
    );
    const issue = s.switchIssues()[0]!;
    expect(issue.state).toBe('open');
    expect(issue.body).toContain(
      `**Kept in Git**, decided by alice: archive paused until Q1: #${pull!.number} writes it`,
    );
  });

  it('the same allow again decides nothing new', async () => {
    const number = s.switchIssues()[0]!.number;
    const again = await h.command(number, 'alice', ALLOW);
    expect(again.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(s.driftPulls()).toHaveLength(1);
  });

  it('once the drift PR is merged, the issue closes saying Git now keeps it', async () => {
    const [pull] = s.driftPulls();
    const merged = h.standIn.mergePullRequest({ owner: OWNER, repo: REPO, number: pull!.number, login: 'alice' });
    await h.push('main', merged);
    await s.snapshots(true, ['2026-12-02T13:00:00Z', '2026-12-02T13:10:00Z']);
    const issue = s.switchIssues()[0]!;
    expect(issue.state).toBe('closed');
    const closing = h.appComments(issue.number).at(-1)!.body;
    expect(closing).toContain(`\`CronJob/shop/hello\` \`spec.suspend\`: Git now keeps it (#${pull!.number} merged).`);
  });
});

describe('a switch turned back by hand closes its issue', () => {
  let h: CommandHarness;
  const s = scenario(() => h);
  beforeAll(async () => {
    h = await startCommandHarness(FILES, { start: '2026-12-02T12:00:00Z' });
    await s.snapshots(true, ['2026-12-02T12:00:00Z', '2026-12-02T12:10:00Z']);
  }, 60_000);
  afterAll(async () => h?.close());

  it('the issue closes with the switch back to Git value, and nothing is written into Git', async () => {
    expect(s.switchIssues()[0]!.state).toBe('open');
    await s.snapshots('resumed', ['2026-12-02T13:00:00Z']);
    const issue = s.switchIssues()[0]!;
    expect(issue.state).toBe('closed');
    expect(h.appComments(issue.number).at(-1)!.body).toContain(
      "`CronJob/shop/hello` `spec.suspend`: back to Git's value in the cluster.",
    );
    expect(s.driftPulls()).toEqual([]);
  });
});

describe("a repository's switch-issue template, read from the default branch's HEAD", () => {
  const TEMPLATE = '.github/driftback/templates/switch-issue.hbs';
  let h: CommandHarness;
  const s = scenario(() => h);
  beforeAll(async () => {
    const template =
      'Switch on {{code cluster}}:\n{{#each switches}}\n- {{code resource}} {{code field}} {{text did}} since {{text since}}: {{code allow}}\n{{/each}}\n';
    h = await startCommandHarness({ ...FILES, [TEMPLATE]: template }, { start: '2026-12-02T12:00:00Z' });
    await s.snapshots(true, ['2026-12-02T12:00:00Z', '2026-12-02T12:10:00Z']);
  }, 60_000);
  afterAll(async () => h?.close());

  it("writes the issue with the template, under driftback's title", () => {
    const [issue] = s.switchIssues();
    expect(issue!.body!.split('<!--')[0]!.trimEnd() + '\n').toBe(
      'Switch on `dev`:\n' +
        '- `CronJob/shop/hello` `spec.suspend` suspended since 2026-12-01 12:01 UTC: ' +
        '`/driftback allow spec.suspend on CronJob/shop/hello because <why it stays>`\n',
    );
  });

  it('a template broken on the default branch rewrites the issue with the built-in text under a warning', async () => {
    const sha = h.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: { [TEMPLATE]: '{{#each switches}}' },
    });
    await h.push('main', sha);
    await s.snapshots(true, ['2026-12-02T12:20:00Z']);
    const issues = s.switchIssues();
    expect(issues).toHaveLength(1);
    const body = issues[0]!.body!;
    expect(body).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/switch-issue\.hbs` could not be used \(Parse error on line 1.*\); this is the built-in template\. Fix the file on the default branch\.\n\nAn emergency switch was flipped by hand on `dev`/,
    );
    expect(body).toContain('### `CronJob/shop/hello` `spec.suspend`');
  });
});

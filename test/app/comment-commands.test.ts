// End to end through the GitHub stand-in: people run `/driftback …` commands in comments on the drift
// PR of a cluster where a person scaled `api` (codified) and a raw API client swapped `web`'s image to
// an unknown registry (held back for a decision). Every command is answered with 👀, then a reply and
// 👍 or 😕; only writers may change what driftback does; bots are never answered; an edited comment
// does not run twice; an `ignore` drops the item from the next drift PR, an `allow` codifies it, and
// both are listed on the PR with who, when and why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { startCommandHarness, type CommandHarness } from '../support/command-harness.js';
import { APP_LOGIN } from '../support/github/index.js';
import { FILES, liveProdHandEdited } from './plan-scenario.js';
import {
  drain,
  issueCommentPayload,
  issuesTitled,
  OWNER,
  REPO,
  runWatch,
  sendWebhook,
  uploadSnapshot,
} from './plan-harness.js';

let h: CommandHarness;
let pr: number;

/**
 * prod with `kubectl scale deploy/api --replicas=5` and curl's PATCH of web's image to another registry;
 * later, api scaled to another value and the settings ConfigMap edited by hand.
 */
function live(later?: { replicas: number }): KubeObject[] {
  return liveProdHandEdited({ swapped: true, ...(later ? { replicas: later.replicas } : {}) }).map((object) => {
    if (later && object.kind === 'ConfigMap' && object.metadata.name === 'settings') {
      (object as Record<string, any>).data.LOG_LEVEL = 'debug';
      object.metadata.managedFields!.push({
        manager: 'kubectl-edit',
        operation: 'Update',
        time: '2026-12-02T13:50:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:LOG_LEVEL': {} } },
      });
    }
    return object;
  });
}

const repo = () => h.standIn.state.repo(OWNER, REPO);
const driftPull = () => [...repo().issues.values()].find((issue) => issue.pull?.head === 'driftback/prod')!;
const branchFile = (path: string) => h.standIn.readFile(OWNER, REPO, 'driftback/prod', path)!;
const CONFIG_BRANCH = 'driftback/_config/ignore';
const configPulls = () => [...repo().issues.values()].filter((issue) => issue.pull?.head === CONFIG_BRANCH);
const configAt = (ref: string) => h.standIn.readFile(OWNER, REPO, ref, '.github/driftback.yml');
/** The rule `/driftback ignore` appends to drift.ignore, as the file's style writes it. */
const rule = (kind: string, namespace: string, name: string, path: string, reason: string) =>
  [
    `    - kinds: [${kind}]`,
    `      names: [${name}]`,
    `      namespaces: [${namespace}]`,
    `      paths: [${path}]`,
    `      reason: "${reason}"`,
  ].join('\n');
/** Writes `body` on the drift PR as `login`, delivers the webhook, waits for the App; returns the App's reply (if any) and the reactions. */
const command = (login: string, body: string) => h.command(pr, login, body);

beforeAll(async () => {
  const roles = { alice: 'write', maya: 'maintain', tim: 'triage' } as const;
  h = await startCommandHarness(FILES, { start: '2026-12-02T12:00:00Z', roles });
  await h.snapshots('prod', () => live(), ['2026-12-02T12:00:00Z', '2026-12-02T12:10:00Z']);
  pr = driftPull().number;
}, 60_000);
afterAll(async () => h?.close());

describe('PR comment commands', () => {
  it('the drift PR codifies the scale and holds the image back (the starting point)', () => {
    expect(branchFile('clusters/prod/api.yaml')).toContain('replicas: 5');
    expect(branchFile('clusters/prod/web.yaml')).not.toContain('registry.evil.example');
  });

  it('help lists every command with examples, for anyone', async () => {
    const { replies, reactions } = await command('reader', '/driftback help');
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(replies).toHaveLength(1);
    for (const verb of ['plan', 'explain', 'ignore', 'allow', 'help'])
      expect(replies[0]).toContain(`/driftback ${verb}`);
    expect(replies[0]).toContain(
      '`/driftback ignore Deployment/shop/cart spec.replicas because scaled for the sale only`',
    );
  });

  it('explain gives the evidence: manager, operation, time, cause, what happens to it, risk codes', async () => {
    const api = await command('reader', '/driftback explain Deployment/shop/api');
    expect(api.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(api.replies[0]).toContain('**`Deployment/shop/api spec.replicas`**');
    expect(api.replies[0]).toContain('- written by `kubectl` by `Update` at 2026-12-02T11:50:00Z (replace)');
    expect(api.replies[0]).toContain("- cause: human: `kubectl` is a person's tool");
    expect(api.replies[0]).toContain('- proposed: the drift pull request writes it into Git');
    const web = await command('reader', '/driftback explain Deployment/shop/web');
    expect(web.replies[0]).toContain('**`Deployment/shop/web spec.template.spec.containers[web].image`**');
    expect(web.replies[0]).toContain("held back: it needs a person's decision");
    expect(web.replies[0]).toContain('- risk `image-registry`: ');
    expect(web.replies[0]).toContain('- risk `unknown-manager`: ');
  });

  it('a bad command gets a reply saying what is accepted, and 😕', async () => {
    const { replies, reactions } = await command('alice', '/driftback frobnicate now');
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(replies[0]).toContain('driftback could not read that command: `frobnicate` is not a driftback command.');
    expect(replies[0]).toContain('/driftback explain <Kind/namespace/name> [<field>]');
  });

  it('someone without write access is refused politely, and nothing is decided', async () => {
    for (const login of ['reader', 'tim']) {
      const { replies, reactions } = await command(
        login,
        '/driftback ignore Deployment/shop/api spec.replicas because no',
      );
      expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
      expect(replies[0]).toContain('needs write access to this repository');
      expect(replies[0]).toContain(login === 'tim' ? '`tim` has `read`' : '`reader` has `none`');
    }
    expect(await h.app.store.itemDecisions('acme/platform', 'prod')).toEqual([]);
    expect(configPulls()).toEqual([]);
    expect(h.standIn.headOf(OWNER, REPO, CONFIG_BRANCH)).toBeUndefined();
    expect(branchFile('clusters/prod/api.yaml')).toContain('replicas: 5');
  });

  it('bots are never answered, the App itself included', async () => {
    for (const login of [APP_LOGIN, 'renovate[bot]'])
      for (const line of ['/driftback plan', '/driftback ignore Deployment/shop/api because a bot said so']) {
        const { replies, reactions } = await command(login, line);
        expect(replies).toEqual([]);
        expect(reactions).toEqual([]);
      }
    expect(await h.app.store.itemDecisions('acme/platform', 'prod')).toEqual([]);
    expect(configPulls()).toEqual([]);
  });

  it('allow by a maintainer codifies the held-back image, marked with the decision', async () => {
    h.clock.now = new Date('2026-12-02T12:15:00Z');
    const { replies, reactions } = await command(
      'maya',
      '/driftback allow Deployment/shop/web because vendor mirror during the registry outage',
    );
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(replies[0]).toContain('allowed to be codified by `maya`');
    expect(branchFile('clusters/prod/web.yaml')).toContain('registry.evil.example:5000/shop/web:2.0.1');
    expect(driftPull().body).toContain('decided by maya: vendor mirror during the registry outage');
  });

  it('ignore by a writer: recorded with who, when and why; the next drift PR no longer proposes it', async () => {
    h.clock.now = new Date('2026-12-02T12:20:00Z');
    const { comment, replies, reactions } = await command(
      'alice',
      '/driftback ignore spec.replicas on Deployment/shop/api because scaled for the sale only',
    );
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(replies[0]).toContain(
      '- `Deployment/shop/api spec.replicas`: ignored by `alice` at 2026-12-02T12:20:00.000Z: scaled for the sale only',
    );
    expect(replies[0]).toContain(
      `Opened #${configPulls()[0]!.number}: it adds the ignore rule to \`.github/driftback.yml\``,
    );
    expect(branchFile('clusters/prod/api.yaml')).not.toContain('replicas: 5');
    expect(driftPull().body).toContain('### Decided on this pull request');
    expect(driftPull().body).toContain(
      'the ignore rule each `/driftback ignore` proposes for `.github/driftback.yml` covers any value once it is merged',
    );
    expect(driftPull().body).toContain('ignored by `alice` at 2026-12-02T12:20:00.000Z: scaled for the sale only');
    // An edited comment is the same command: it does not run again.
    const edited = { ...comment, body: `${comment.body} (edited)` };
    const before = h.appComments(pr).length;
    expect(await sendWebhook(h, 'issue_comment', issueCommentPayload(h, pr, edited, 'edited'))).toBe(200);
    await drain(h);
    expect(h.appComments(pr)).toHaveLength(before);
    expect(h.standIn.reactionsOn(OWNER, REPO, comment.id)).toHaveLength(2);
  });

  it('the config pull request adds the rule to .github/driftback.yml: the file as it was, the rule appended, valid', () => {
    const pulls = configPulls();
    expect(pulls).toHaveLength(1);
    const [pull] = pulls;
    expect(pull.user).toBe(APP_LOGIN);
    expect(pull.state).toBe('open');
    expect(pull.pull!.base).toBe('main');
    expect(pull.title).toBe('driftback: one ignore rule for .github/driftback.yml');
    const reason = 'scaled for the sale only (alice, /driftback ignore on #' + pr + ')';
    expect(pull.body).toContain(`- \`Deployment/shop/api\`: \`spec.replicas\`. ${reason.replace('#', '\\#')}`);
    const text = configAt(CONFIG_BRANCH)!;
    // Byte for byte: the file on main, then drift.ignore with the rule (main's file has no drift key).
    expect(text).toBe(
      `${FILES['.github/driftback.yml']}drift:\n  ignore:\n${rule('Deployment', 'shop', 'api', 'spec.replicas', reason)}\n`,
    );
    const parsed = parseConfig(text);
    expect(parsed.ok && parsed.config.drift.ignore).toEqual([
      { kinds: ['Deployment'], namespaces: ['shop'], names: ['api'], paths: ['spec.replicas'], reason },
    ]);
    expect(configAt('main')).toBe(FILES['.github/driftback.yml']);
  });

  it('a later snapshot with the same live value still does not propose it; explain shows the decision', async () => {
    h.clock.now = new Date('2026-12-02T12:30:00Z');
    expect(await uploadSnapshot(h, 'prod', live())).toBe(202);
    await drain(h);
    expect(branchFile('clusters/prod/api.yaml')).not.toContain('replicas: 5');
    const { replies } = await command('reader', '/driftback explain Deployment/shop/api');
    expect(replies[0]).toContain('**Decisions**');
    expect(replies[0]).toContain('ignored by `alice`');
  });

  it('the dashboard lists the decisions made by comment: what, by whom, when, where and why', async () => {
    await runWatch(h);
    const [dashboard] = issuesTitled(h, 'driftback dashboard');
    const body = dashboard.body!;
    expect(body).toContain('<details><summary>Decided by comment (2)</summary>');
    expect(body).toContain(
      `- \`Deployment/shop/api spec.replicas\`: ignored by \`alice\` at 12:20 UTC on #${pr}: scaled for the sale only`,
    );
    expect(body).toContain(
      `- \`Deployment/shop/web spec.template.spec.containers[web].image\`: allowed by \`maya\` at 12:15 UTC on #${pr}: vendor mirror during the registry outage`,
    );
  });

  it('allow on something that is not held back records nothing', async () => {
    const { replies, reactions } = await command('alice', '/driftback allow Deployment/shop/web because again');
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(replies[0]).toContain('Nothing was recorded');
  });

  it('plan by a writer plans the pull request again', async () => {
    const { replies, reactions } = await command('alice', '/driftback plan');
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(replies[0]).toContain('Planning this pull request again');
    const head = h.standIn.headOf(OWNER, REPO, 'driftback/prod');
    const runs = [...repo().checkRuns.values()].filter(
      (run) => run.name === 'driftback / plan' && run.headSha === head,
    );
    expect(runs).toHaveLength(1);
  });
  it('more than 10 commands on one pull request in 10 minutes: one reply says so, later ones get only 😕', async () => {
    h.clock.now = new Date('2026-12-02T13:00:00Z');
    for (let i = 0; i < 10; i++)
      expect((await command('reader', '/driftback help')).reactions).toContain(`${APP_LOGIN}:+1`);
    const eleventh = await command('reader', '/driftback help');
    expect(eleventh.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(eleventh.replies).toEqual([expect.stringContaining('had 10 driftback commands in the last 10 minutes')]);
    const twelfth = await command('reader', '/driftback help');
    expect(twelfth.reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:confused`]);
    expect(twelfth.replies).toEqual([]);
    h.clock.now = new Date('2026-12-02T13:11:00Z');
    expect((await command('reader', '/driftback help')).reactions).toContain(`${APP_LOGIN}:+1`);
  });

  it('a command on a closed pull request is not answered', async () => {
    driftPull().state = 'closed';
    try {
      const configHead = h.standIn.headOf(OWNER, REPO, CONFIG_BRANCH);
      const decided = (await h.app.store.itemDecisions('acme/platform', 'prod')).length;
      for (const line of ['/driftback plan', '/driftback ignore spec.replicas on Deployment/shop/api because closed']) {
        const { replies, reactions } = await command('alice', line);
        expect(replies).toEqual([]);
        expect(reactions).toEqual([]);
      }
      expect(await h.app.store.itemDecisions('acme/platform', 'prod')).toHaveLength(decided);
      expect(h.standIn.headOf(OWNER, REPO, CONFIG_BRANCH)).toBe(configHead);
    } finally {
      driftPull().state = 'open';
    }
  });

  it('a second ignore while the config pull request is open adds its rule to that pull request', async () => {
    // The decision covers the live value it was made on: api scaled again to 7 is new drift; so is settings.
    for (const at of ['2026-12-02T14:00:00Z', '2026-12-02T14:05:00Z']) {
      h.clock.now = new Date(at);
      expect(await uploadSnapshot(h, 'prod', live({ replicas: 7 }))).toBe(202);
    }
    await drain(h);
    expect(branchFile('clusters/prod/api.yaml')).toContain('replicas: 7');
    expect(branchFile('clusters/prod/settings.yaml')).toContain('LOG_LEVEL: debug');
    const [before] = configPulls();
    const { replies, reactions } = await command(
      'maya',
      '/driftback ignore data.LOG_LEVEL on ConfigMap/shop/settings because debugging the checkout',
    );
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    expect(replies[0]).toContain(`Added the ignore rule to #${before.number}`);
    expect(configPulls()).toHaveLength(1);
    expect(configPulls()[0].title).toBe('driftback: 2 ignore rules for .github/driftback.yml');
    const api = rule(
      'Deployment',
      'shop',
      'api',
      'spec.replicas',
      `scaled for the sale only (alice, /driftback ignore on #${pr})`,
    );
    const settings = rule(
      'ConfigMap',
      'shop',
      'settings',
      'data.LOG_LEVEL',
      `debugging the checkout (maya, /driftback ignore on #${pr})`,
    );
    const text = configAt(CONFIG_BRANCH)!;
    expect(text).toBe(`${FILES['.github/driftback.yml']}drift:\n  ignore:\n${api}\n${settings}\n`);
    expect(parseConfig(text).ok).toBe(true);
    // One commit on main's HEAD: the branch is rebuilt, never stacked.
    const head = h.standIn.headOf(OWNER, REPO, CONFIG_BRANCH)!;
    expect(h.standIn.state.git.commit(head)!.parents).toEqual([h.standIn.headOf(OWNER, REPO, 'main')]);
  });

  it('once the config pull request is merged, the drift PR drops the field whatever its live value', async () => {
    const merged = h.standIn.mergePullRequest({
      owner: OWNER,
      repo: REPO,
      number: configPulls()[0].number,
      login: 'maya',
    });
    await h.push('main', merged);
    // The same live value as before the merge, which no decision covers: the rule now ignores it.
    h.clock.now = new Date('2026-12-02T14:10:00Z');
    expect(await uploadSnapshot(h, 'prod', live({ replicas: 7 }))).toBe(202);
    await drain(h);
    expect(driftPull().state).toBe('open');
    expect(branchFile('clusters/prod/api.yaml')).not.toContain('replicas: 7');
    expect(branchFile('clusters/prod/web.yaml')).toContain('registry.evil.example:5000/shop/web:2.0.1');
  });

  it('a commit someone pushed on the config branch is never written over: the reply says so', async () => {
    h.clock.now = new Date('2026-12-02T14:20:00Z');
    const pushed = h.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: CONFIG_BRANCH,
      files: { 'docs/README.md': '# Platform\n\nIgnore rules live in .github/driftback.yml.\n' },
      login: 'maya',
    });
    const { replies, reactions } = await command(
      'alice',
      '/driftback ignore spec.template.spec.containers[web].image on Deployment/shop/web because mirror',
    );
    expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
    // The drift PR is closed meanwhile (nothing is left to codify): its closing note is a reply too.
    const reply = replies.find((body) => body.startsWith('Recorded one decision'))!;
    expect(reply).toContain('ignored by `alice`');
    expect(reply).toContain(`Someone else pushed to \`${CONFIG_BRANCH}\` (${pushed.slice(0, 7)} by maya)`);
    expect(reply).toContain("driftback never writes over a person's commit");
    expect(h.standIn.headOf(OWNER, REPO, CONFIG_BRANCH)).toBe(pushed);
    expect(configPulls().filter((pull) => pull.state === 'open')).toEqual([]);
  });
});

// `driftback reconcile --dry-run`: the actions the App would take for a repository and snapshots, from
// the same decision the App executes, in its order; `--explain` says which rule produced each.
import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '../support/fixtures.js';
import { runCli } from './run-cli.js';
import { fixtureRepo, liveAfterHandEdit, render } from '../core/codify/support.js';
import { snapshotOf } from '../app/live.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ROOT = 'test/e2e/testdata/guestbook';
const FILE = `${ROOT}/guestbook-ui-deployment.yaml`;

/** The Argo CD guestbook and a live file in which guestbook-ui was scaled by hand to `replicas` (none: as applied). */
function setup(replicas?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'driftback-reconcile-'));
  dirs.push(dir);
  cpSync(fixturePath('manifests', 'argo-cd'), join(dir, 'repo'), { recursive: true });
  const edits = replicas === undefined ? [] : [{ segments: ['spec', 'replicas'], value: replicas }];
  const live = render(fixtureRepo('argo-cd'), ROOT).map((d) =>
    liveAfterHandEdit(
      d.object,
      d.key.name === 'guestbook-ui' && d.key.kind === 'Deployment' ? edits : [],
      'kubectl-scale',
    ),
  );
  writeFileSync(
    join(dir, 'live.json'),
    JSON.stringify(snapshotOf('acme/gitops', live, '2026-12-02T03:00:00Z', 'prod')),
  );
  return { live: join(dir, 'live.json'), repo: join(dir, 'repo') };
}

const args = (repo: string, ...rest: string[]) => ['reconcile', '--dry-run', '--repo', repo, ...rest];

describe('driftback reconcile --dry-run', () => {
  it('opens a drift PR once the change was seen in drift.minSnapshots snapshots, and writes nothing', async () => {
    const { repo, live } = setup(4);
    const before = readFileSync(join(repo, FILE), 'utf8');
    const run = await runCli(args(repo, '--live', live, '--live', live));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        '1. open a pull request from driftback/prod: "driftback: prod — 1 live change to Deployment/default/guestbook-ui" (one commit, 1 file; labels driftback)',
        '2. record the cluster state',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(repo, FILE), 'utf8')).toBe(before);
  });

  it('says a change seen once waits for the persistence gate: nothing to write, exit 0', async () => {
    const { repo, live } = setup(4);
    const run = await runCli(args(repo, '--live', live));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /changes? (is|are) not persistent yet \(drift\.minSnapshots: 2, 1 snapshot given\): the App waits/,
    );
    expect(run.stdout).toBe('1. record the cluster state\n');
  });

  it('--explain gives the rule and the reason of each action; --format json the same as data', async () => {
    const { repo, live } = setup(4);
    const text = await runCli(args(repo, '--live', live, '--live', live, '--explain'));
    expect(text.stdout).toContain(
      '   because (drift-codified): 1 persistent live change with a cause drift.causes codifies: write them on driftback/prod and open a pull request',
    );
    expect(text.stdout).toContain('   because (record-state): ');
    const json = await runCli(args(repo, '--live', live, '--live', live, '--explain', '--format', 'json'));
    expect(json.code).toBe(1);
    const { actions } = JSON.parse(json.stdout);
    expect(actions.map((action: { kind: string; rule: string }) => [action.kind, action.rule])).toEqual([
      ['drift-pr.publish', 'drift-codified'],
      ['state.record', 'record-state'],
    ]);
    expect(actions[0]).toMatchObject({ branch: 'driftback/prod', labels: ['driftback'], files: [FILE] });
  });

  it('a cluster as Git says: nothing but the state, exit 0', async () => {
    const { repo, live } = setup();
    const run = await runCli(args(repo, '--live', live, '--live', live, '--format', 'json'));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      actions: [{ kind: 'state.record', summary: 'record the cluster state' }],
    });
  });

  it('needs a cluster name, as the App has one (exit 2)', async () => {
    const { repo, live } = setup(4);
    const list = join(repo, '..', 'list.json');
    writeFileSync(
      list,
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: JSON.parse(readFileSync(live, 'utf8')).items }),
    );
    const run = await runCli(args(repo, '--live', list));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('name the cluster: --cluster <name>');
  });

  it('without --dry-run it refuses, saying why (exit 2)', async () => {
    const { repo, live } = setup(4);
    const run = await runCli(['reconcile', '--repo', repo, '--live', live]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--dry-run is required');
  });

  it('--state: a drift PR the App recorded whose drift is gone is closed; a foreign branch is left alone', async () => {
    const { repo, live } = setup();
    const state = join(repo, '..', 'state.json');
    writeFileSync(
      state,
      JSON.stringify({
        headSha: 'c0ffee0000000000000000000000000000000000',
        branches: {
          'driftback/prod': { pullRequest: 12, fingerprints: ['x'], appCommits: ['a'] },
          'driftback/prod-old': { pullRequest: 9, foreign: { commits: ['f00'], since: '2026-12-01T10:00:00Z' } },
        },
      }),
    );
    const run = await runCli(args(repo, '--live', live, '--live', live, '--state', state));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        '1. close #12 with a comment and delete driftback/prod',
        '2. leave driftback/prod-old (#9) as it is',
        '3. record the cluster state',
        '',
      ].join('\n'),
    );
  });

  it('--state: the same drift PR is updated, not opened again', async () => {
    const { repo, live } = setup(4);
    const state = join(repo, '..', 'state.json');
    writeFileSync(state, JSON.stringify({ branches: { 'driftback/prod': { pullRequest: 12 } } }));
    const run = await runCli(args(repo, '--live', live, '--live', live, '--state', state, '--format', 'json'));
    expect(JSON.parse(run.stdout).actions[0]).toMatchObject({
      kind: 'drift-pr.publish',
      branch: 'driftback/prod',
      pullRequest: 12,
      summary: expect.stringMatching(/^update #12 from driftback\/prod: /),
    });
  });

  it('--state that does not fit says which field to change (exit 2)', async () => {
    const { repo, live } = setup(4);
    const state = join(repo, '..', 'state.json');
    writeFileSync(state, JSON.stringify({ branches: { 'driftback/prod': { pullRequest: 'twelve' } } }));
    const run = await runCli(args(repo, '--live', live, '--state', state));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--state ${state}: branches.driftback/prod.pullRequest:`);
    writeFileSync(state, '{ not json');
    const broken = await runCli(args(repo, '--live', live, '--state', state));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`--state ${state}: not JSON`);
  });
});

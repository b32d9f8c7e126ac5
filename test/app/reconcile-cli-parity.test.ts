// One decision, two doors: for the same repository, snapshot and prior state, the actions the App
// executes against the GitHub stand-in (its log line of each reconcile) are the actions
// `driftback reconcile --dry-run --format json` prints. The prior state the CLI reads with `--state`
// is the cluster record the App keeps in its store, as it is, with the HEAD the App built on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { runCli } from '../cli/run-cli.js';
import { appliedObjects, CLUSTER, gitopsRepository, scaled, snapshotOf, withEnv } from './live.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-reconcile-parity-'));
const files = gitopsRepository();
const chunks: string[] = [];
let h: AppHarness;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  h = await startAppHarness({ files, env: { logLevel: 'info' }, logDestination: destination });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, 'repo', path)), { recursive: true });
    writeFileSync(join(work, 'repo', path), text);
  }
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The actions of the App's latest reconcile of the cluster, as its log line lists them. */
function appActions(): string[] {
  const lines = chunks
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { cluster?: string; actions?: string[] });
  const reconciled = lines.filter((line) => line.cluster === CLUSTER && line.actions);
  return reconciled.at(-1)!.actions!;
}

/** What the App recorded before a snapshot, written as a `--state` file: its cluster record and HEAD. */
async function stateFile(name: string): Promise<string> {
  const record = await h.app.store.getState({ kind: 'cluster', repository: h.repository, cluster: CLUSTER });
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify({ ...record, headSha: h.standIn.headOf(h.owner, h.repo, 'main') }));
  return path;
}

/** The snapshot given to both doors: uploaded to the App (reconciled), and written for the CLI. */
async function both(name: string, items: ReturnType<typeof appliedObjects>, capturedAt: string, state?: string) {
  const snapshot = snapshotOf(h.repository, items, capturedAt);
  const live = join(work, `${name}-live.json`);
  writeFileSync(live, JSON.stringify(snapshot));
  expect((await uploadSnapshot(h, snapshot)).status).toBe(202);
  await drain(h);
  const flags = ['--repo', join(work, 'repo'), '--cluster', CLUSTER, '--live', live, '--format', 'json'];
  const run = await runCli(['reconcile', '--dry-run', ...flags, ...(state ? ['--state', state] : [])]);
  expect(run.stderr).toBe('');
  const printed = (JSON.parse(run.stdout) as { actions: Array<{ summary: string }> }).actions;
  return { app: appActions(), cli: printed.map((action) => action.summary) };
}

describe('driftback reconcile --dry-run and the App decide the same actions', () => {
  const applied = appliedObjects(files);

  it('a first snapshot with a hand change: a drift PR opened, the state recorded', async () => {
    const { app, cli } = await both('first', scaled(applied, 'frontend', 5), '2026-12-02T03:05:00Z');
    expect(app[0]).toMatch(/^open a pull request from driftback\/prod-eu: /);
    expect(cli).toEqual(app);
  });

  it('more drift, with the App’s record as --state: the same PR updated', async () => {
    const state = await stateFile('after-first');
    const more = withEnv(scaled(applied, 'frontend', 5), 'frontend', { name: 'DEBUG', value: 'true' });
    const { app, cli } = await both('more', more, '2026-12-02T03:15:00Z', state);
    expect(app[0]).toMatch(/^update #1 from driftback\/prod-eu: /);
    expect(cli).toEqual(app);
  });

  it('the drift gone, with the App’s record as --state: the PR closed and its branch deleted', async () => {
    const state = await stateFile('after-more');
    const { app, cli } = await both('gone', applied, '2026-12-02T03:25:00Z', state);
    expect(app).toEqual(['close #1 with a comment and delete driftback/prod-eu', 'record the cluster state']);
    expect(cli).toEqual(app);
    // What the App logged is what it did on the stand-in.
    const repository = h.standIn.state.repo(h.owner, h.repo);
    expect(repository.issues.get(1)).toMatchObject({ state: 'closed', pull: { head: 'driftback/prod-eu' } });
    expect(repository.refs.has('refs/heads/driftback/prod-eu')).toBe(false);
  });
});

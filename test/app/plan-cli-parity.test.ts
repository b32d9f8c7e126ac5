// One pipeline, two doors: `driftback plan --format markdown` on the files of a pull request prints
// the comment the App posts on it — the same plan, the same warnings (a protected prune pointed at
// the kustomization line, a reverted hotfix), the same snapshot time. Two things only the App has
// are its own: the commit it planned (files carry none) and the hidden marker it edits the comment by.
// Beneath the text, the model is one: the plan the App's job worker builds for the pull request
// (planPullRequest, with the snapshots the App stored) is the plan `driftback plan --format json` prints.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { parseConfig } from '../../src/core/config/index.js';
import { renderBudget } from '../../src/core/manifests/index.js';
import { planToJson } from '../../src/core/report/index.js';
import { latestSnapshots, planPullRequest, type PlanInputs } from '../../src/app/plan/build-plans.js';
import {
  cliPlanComment,
  commentsOn,
  proposePullRequest,
  REPOSITORY,
  startHarness,
  uploadSnapshot,
  writeTree,
  type Harness,
} from './plan-harness.js';
import { API, FILES, kustomization, liveEdge, liveProd } from './plan-scenario.js';

const NOW = new Date();
const CAPTURED = new Date(NOW.getTime() - 5 * 60_000).toISOString();
const work = mkdtempSync(join(tmpdir(), 'driftback-parity-'));
let h: Harness;

beforeAll(async () => {
  // The App's clock is the CLI's: both measure the snapshot's age from now.
  h = await startHarness(FILES, NOW.toISOString());
  expect(await uploadSnapshot(h, 'prod', liveProd(), CAPTURED)).toBe(202);
  expect(await uploadSnapshot(h, 'edge', liveEdge(), CAPTURED)).toBe(202);
  const items = { prod: liveProd(), edge: liveEdge() };
  for (const [cluster, live] of Object.entries(items)) {
    const snapshot = {
      apiVersion: 'driftback.dev/v1',
      kind: 'Snapshot',
      repository: REPOSITORY,
      cluster,
      capturedAt: CAPTURED,
      scope: { complete: true, errors: [] },
      items: live,
    };
    writeFileSync(join(work, `${cluster}.json`), JSON.stringify(snapshot));
  }
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

function configOf(files: Record<string, string>) {
  const parsed = parseConfig(files['.github/driftback.yml']!);
  if (!parsed.ok) throw new Error('the scenario config does not parse');
  return parsed.config;
}

const CASES: Array<[string, string, Record<string, string | null>]> = [
  [
    'a deleted PVC (a protected prune)',
    'prod',
    {
      'clusters/prod/data.yaml': null,
      'clusters/prod/kustomization.yaml': kustomization(['api.yaml', 'web.yaml', 'settings.yaml', 'legacy.yaml']),
    },
  ],
  ['an image bump over a live hotfix', 'edge', { 'clusters/edge/api.yaml': API.replace('api:1.4.0', 'api:1.5.0') }],
];

describe.each(CASES)('%s', (name, cluster, changed) => {
  it('the CLI prints the comment the App posts', async () => {
    const branch = `parity/${cluster}`;
    const pull = await proposePullRequest(h, branch, changed);
    const [posted] = commentsOn(h, pull.number);
    expect(posted).toBeDefined();

    const dir = join(work, name.replace(/\W+/g, '-'));
    writeTree(join(dir, 'base'), FILES);
    writeTree(join(dir, 'head'), { ...FILES, ...changed });
    const cli = await cliPlanComment(dir, {
      cluster,
      live: `../${cluster}.json`,
      headSha: pull.headSha,
      posted: posted!,
    });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(1);
    expect(cli.marked).toBe(true);
    expect(cli.posted).toBe(cli.printed);
  });

  it("the App's plan is the model driftback plan --format json prints", async () => {
    const head = Object.fromEntries(Object.entries({ ...FILES, ...changed }).filter(([, text]) => text !== null));
    const input: PlanInputs = {
      repository: REPOSITORY,
      config: configOf(FILES),
      headFiles: new Map(Object.entries(head as Record<string, string>)),
      baseFiles: new Map(Object.entries(FILES)),
      headSha: '0'.repeat(40),
      changed: Object.keys(changed),
      now: new Date().toISOString(),
    };
    const latest = await latestSnapshots(h.app.store, input);
    const built = planPullRequest({ ...input, latest }, renderBudget());
    expect(built.errors).toEqual([]);
    expect(built.plans.map((p) => p.cluster)).toEqual([cluster]);

    const dir = join(work, `${name.replace(/\W+/g, '-')}-model`);
    writeTree(join(dir, 'base'), FILES);
    writeTree(join(dir, 'head'), { ...FILES, ...changed });
    const args = ['plan', '--head', 'head', '--base', 'base', '--live', `../${cluster}.json`, '--cluster', cluster];
    const cli = await runCli([...args, '--config', 'head/.github/driftback.yml', '--format', 'json'], { cwd: dir });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(1);
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(printed.create ?? printed.update ?? printed.prune).toBeDefined();
    expect(printed).toEqual(JSON.parse(JSON.stringify(planToJson(built.plans[0]!.plan))));
  });
});

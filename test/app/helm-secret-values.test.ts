// A value a Flux HelmRelease takes from a Secret (`valuesFrom` kind Secret with a `targetPath`) sits in
// clear text in the live Deployment's env that helm-controller installed: the agent hashes Secret
// objects, not the objects the chart wrote the value into. Nothing the App writes may show it — the plan
// comment whose diff has it as context of a changed line, the drift pull request, the check run, the
// dashboard — nor `driftback diff` and `plan` in any format. Each shows where the value comes from.
// The chart is test/fixtures/charts/webapp, rendered by the pinned Helm (helm-controller's values order,
// internal/chartutil/values.go).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { runCli } from '../cli/run-cli.js';
import {
  checkRunsFor,
  commentsOn,
  expectGolden,
  OWNER,
  proposePullRequest,
  REPO,
  runWatch,
  startHarness,
  uploadSeenTwice,
  type Harness,
} from './plan-harness.js';
import { renderedProd, webappRelease, webappRepository } from './webapp-release.js';
import { pinnedChartRenderer } from '../support/tools.js';

const charts = pinnedChartRenderer();

// `kubectl create secret generic webapp-secrets --from-literal=token=…`, as helm-controller put it into the env.
const TOKEN = 'tok-prod-93b1c7e2';
const MASK = '‹from Secret shop/webapp-secrets›';
const NOW = '2026-12-02T12:00:00Z';
const APPLIED = '2026-12-01T09:00:00Z';
const SET_IMAGE = '2026-12-01T12:08:00Z';

const release = (level: string): string =>
  webappRelease([
    '  valuesFrom:',
    '    - kind: Secret',
    '      name: webapp-secrets',
    '      valuesKey: token',
    '      targetPath: extraEnv.API_TOKEN',
    '  values:',
    '    image:',
    '      tag: "2.2.0"',
    '    extraEnv:',
    `      LOG_LEVEL: ${level}`,
  ]);
const repository = (): Map<string, string> => webappRepository(release('info'));

/** What helm-controller installed (the Secret's value in the env), then `kubectl set image` on the Deployment. */
function liveObjects(): KubeObject[] {
  return renderedProd(repository(), charts).map((object) => {
    const live = structuredClone(object) as KubeObject & { spec?: any };
    const applied = { manager: 'helm-controller', operation: 'Apply', apiVersion: live.apiVersion, time: APPLIED };
    live.metadata = { ...live.metadata, managedFields: [{ ...applied, fieldsType: 'FieldsV1', fieldsV1: {} }] };
    if (live.kind !== 'Deployment') return live;
    const container = live.spec.template.spec.containers[0];
    const token = container.env.find((env: { name: string }) => env.name === 'API_TOKEN');
    token.value = TOKEN;
    container.image = 'ghcr.io/example/webapp:2.2.1';
    const image = {
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"webapp"}': { 'f:image': {} } } } } },
    };
    const set = { manager: 'kubectl-set', operation: 'Update', apiVersion: live.apiVersion, time: SET_IMAGE };
    live.metadata.managedFields!.push({ ...set, fieldsType: 'FieldsV1', fieldsV1: image });
    return live;
  });
}

let h: Harness;
let pullNumber = 0;
let headSha = '';
const work = mkdtempSync(join(tmpdir(), 'driftback-helm-secret-'));

beforeAll(async () => {
  h = await startHarness(Object.fromEntries(repository()), NOW);
  const items = liveObjects();
  expect(JSON.stringify(items)).toContain(TOKEN);
  await uploadSeenTwice(h, 'prod', items);
  const pull = await proposePullRequest(h, 'debug-logs', { 'clusters/prod/webapp.yaml': release('debug') });
  pullNumber = pull.number;
  headSha = pull.headSha;
  await runWatch(h);
  writeFileSync(join(work, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

it('the plan comment shows where the value comes from next to the changed line, never the value', () => {
  const plan = commentsOn(h, pullNumber).find((body) => body.includes('driftback plan'));
  expect(plan).toBeDefined();
  expect(plan).toContain(
    `             - name: API_TOKEN\n               value: ${MASK}\n             - name: LOG_LEVEL\n-`,
  );
  expect(plan).toContain('+              value: debug\n');
  expect(plan).not.toContain(TOKEN);
  expectGolden('helm-secret-values.md', plan!);
});

it('no dashboard, comment, pull request or check run holds the value', () => {
  const repo = h.standIn.state.repo(OWNER, REPO);
  // The drift pull request codifies kubectl set image on the chart's Deployment; the dashboard counts it in
  // the same unit and says where the env var's value comes from.
  const drift = [...repo.issues.values()].find((issue) => issue.pull?.head === 'driftback/prod');
  expect(drift?.body).toContain('**1 object, 1 live change by kubectl-set');
  const dashboard = [...repo.issues.values()].find((issue) => issue.title === 'driftback dashboard');
  expect(dashboard?.body).toContain(
    '- Drift: 1 object, 1 live change (1 human)\n  - shop/webapp: 1 object, 1 live change\n',
  );
  expect(dashboard?.body).toContain('value is from Secret shop/webapp-secrets (valuesFrom of HelmRelease shop/webapp)');
  const runs = checkRunsFor(h, headSha);
  expect(runs).toHaveLength(1);
  const written = [
    ...[...repo.issues.values()].flatMap((issue) => [issue.title, issue.body ?? '']),
    ...[...repo.comments.values()].map((comment) => comment.body),
    ...[...repo.checkRuns.values()].map((run) => JSON.stringify({ output: run.output, annotations: run.annotations })),
  ];
  expect(written.length).toBeGreaterThan(3);
  for (const text of written) expect(text).not.toContain(TOKEN);
});

it('driftback diff and plan show where it comes from, in every format never the value', async () => {
  const dir = mkdtempSync(join(work, 'repo-'));
  for (const [path, text] of repository()) {
    const file = join(dir, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  }
  const live = join(work, 'live.json');
  const args = (verb: string): string[] => [
    verb,
    ...(verb === 'plan' ? ['--head'] : ['--desired']),
    dir,
    '--live',
    live,
    '--cluster',
    'prod',
    '--config',
    join(dir, '.github/driftback.yml'),
  ];
  const text = await runCli(args('diff'));
  expect(text.stderr).toBe('');
  expect(text.stdout).toContain(
    `spec.template.spec.containers[webapp].env[API_TOKEN].value is from Secret shop/webapp-secrets (valuesFrom of HelmRelease shop/webapp), not checked`,
  );
  for (const verb of ['diff', 'plan']) {
    for (const format of ['text', 'json', 'markdown']) {
      const run = await runCli([...args(verb), '--format', format]);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toContain(TOKEN);
    }
  }
}, 60_000);

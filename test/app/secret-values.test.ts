// A value Flux substitutes from a Secret (`postBuild.substituteFrom` kind Secret) sits in clear text in
// the live Deployment's env: the agent hashes Secret objects, not the objects Flux wrote the value into.
// Nothing the App writes or logs may show it: the drift pull request, the plan comment whose diff has it
// as context of a changed line, the check run and its annotations, the dashboard. Each shows where the
// value comes from instead. The repository and snapshot are test/fixtures/controllers/flux-podinfo
// (kustomize-controller's envsubst, fluxcd/pkg kustomize/kustomize_varsub.go).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  checkRunsFor,
  commentsOn,
  expectGolden,
  OWNER,
  proposePullRequest,
  REPO,
  startHarness,
  uploadSeenTwice,
  type Harness,
} from './plan-harness.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

// The value `kubectl create secret generic cluster-secret-vars --from-literal=backend_token=…` gave,
// as the live Deployment holds it after Flux substituted it (live/hand-changes.json).
const TOKEN = 'tkn-kind-dev-7f3a91';
const MASK = '‹from Secret flux-system/cluster-secret-vars›';
const NOW = '2026-12-02T12:00:00Z';

let h: Harness;
let pullNumber = 0;
const logs: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  h = await startHarness(Object.fromEntries(scenarioRepository('flux-podinfo')), NOW, {
    level: 'debug',
    destination,
  });
  const snapshot = scenarioSnapshot('flux-podinfo', 'hand-changes');
  expect(JSON.stringify(snapshot.items)).toContain(TOKEN);
  await uploadSeenTwice(h, 'kind-dev', snapshot.items, snapshot.scope);
  const deployment = scenarioRepository('flux-podinfo').get('apps/base/podinfo/deployment.yaml')!;
  const changed = deployment.replace('Greetings from ${cluster_name}', 'Hello from ${cluster_name}');
  expect(changed).not.toBe(deployment);
  const pull = await proposePullRequest(h, 'new-greeting', { 'apps/base/podinfo/deployment.yaml': changed });
  pullNumber = pull.number;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** Every text the App wrote to the repository: issue and PR titles and bodies, comments, check runs. */
function everythingWritten(): string[] {
  const repo = h.standIn.state.repo(OWNER, REPO);
  return [
    ...[...repo.issues.values()].flatMap((issue) => [issue.title, issue.body ?? '']),
    ...[...repo.comments.values()].map((comment) => comment.body),
    ...[...repo.checkRuns.values()].map((run) => JSON.stringify({ output: run.output, annotations: run.annotations })),
  ];
}

it('the plan comment shows where the value comes from next to the changed line, never the value', () => {
  const plan = commentsOn(h, pullNumber).find((body) => body.includes('driftback plan'));
  expect(plan).toBeDefined();
  expect(plan).toContain('+              value: Hello from kind-dev (dev)\n');
  expect(plan).toContain(`             - name: PODINFO_BACKEND_TOKEN\n               value: ${MASK}\n`);
  expect(plan).not.toContain(TOKEN);
  expectGolden('secret-substituted.md', plan!);
});

it('no drift pull request, dashboard, comment, check run or log line holds the value', () => {
  const repo = h.standIn.state.repo(OWNER, REPO);
  const drift = [...repo.issues.values()].find((issue) => issue.pull?.head === 'driftback/kind-dev');
  // The drift PR is there (kubectl set image, scale, edit next to the substituted env var) and says nothing of it.
  expect(drift?.body).toMatch(/env\\\[PODINFO\\_LEVEL\\\]/);
  // kubectl set image in plain sight: the value that differs, after the start both share.
  expect(drift?.body).toContain('`ghcr.io/…/podinfo:6.14.0` → `:6.14.1`');
  expectGolden('secret-substituted-drift.md', drift!.body!);
  // The title says where, how many and what, as the body's first line counts them.
  expect(drift!.title).toBe('driftback: kind-dev — 4 live changes to Deployment/podinfo/podinfo');
  expect(checkRunsFor(h, h.standIn.state.resolve(repo, 'new-greeting')!)).toHaveLength(1);
  const written = everythingWritten();
  expect(written.length).toBeGreaterThan(4);
  for (const text of written) expect(text).not.toContain(TOKEN);
  expect(logs.length).toBeGreaterThan(0);
  expect(logs.join('')).not.toContain(TOKEN);
});

// The plan comment on driftback's own drift pull request. In test/fixtures/controllers/hand-made a person
// created ConfigMap shop/feature-flags with `kubectl create`; the drift pull request writes it as a new
// manifest. Planned, the object is there on both sides: what the apply changes is the labels
// kustomize-controller stamps on what it applies, never the name and namespace live already has, and who
// set the live object is the manager the drift pull request names.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  commentsOn,
  drain,
  expectGolden,
  OWNER,
  pullRequestPayload,
  REPO,
  sendWebhook,
  startHarness,
  uploadSeenTwice,
  type Harness,
} from './plan-harness.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

let h: Harness;
let driftBody = '';
let plan = '';

beforeAll(async () => {
  h = await startHarness(Object.fromEntries(scenarioRepository('hand-made')), '2026-12-02T12:00:00Z');
  const snapshot = scenarioSnapshot('hand-made', 'hand-made');
  await uploadSeenTwice(h, snapshot.cluster, snapshot.items, snapshot.scope);
  await drain(h);
  const repo = h.standIn.state.repo(OWNER, REPO);
  const drift = [...repo.issues.values()].find((issue) => issue.pull?.head === 'driftback/kind')!;
  expect(drift).toBeDefined();
  driftBody = drift.body ?? '';
  const pull = {
    number: drift.number,
    headSha: h.standIn.state.resolve(repo, 'driftback/kind')!,
    baseSha: repo.refs.get('refs/heads/main')!,
    branch: 'driftback/kind',
  };
  expect(await sendWebhook(h, 'pull_request', pullRequestPayload('opened', pull, { body: driftBody }))).toBe(200);
  plan = commentsOn(h, drift.number).find((body) => body.includes('driftback plan')) ?? '';
}, 120_000);
afterAll(async () => {
  await h?.close();
});

it('the drift pull request writes the hand-made ConfigMap as a new manifest, made by kubectl-create', () => {
  expect(driftBody).toContain('| `ConfigMap/shop/feature-flags` | kubectl-create<br>2026-12-01 12:20 UTC |');
});

it('its plan adds only the labels kustomize-controller stamps, not the name and namespace live already has', () => {
  expect(plan).toContain('~</code> update <code>ConfigMap/shop/feature-flags</code>');
  expect(plan).toContain('\n+  labels:\n+    kustomize.toolkit.fluxcd.io/name: apps\n');
  expect(plan).not.toMatch(/^\+\s+(name|namespace): /m);
  expect(plan).toContain('\n   name: feature-flags\n   namespace: shop\n');
});

it('its plan names who made the live object, as the drift pull request does', () => {
  expect(plan).toContain('— live object created by kubectl-create at 2026-12-01 12:20 UTC</summary>');
  expect(plan).not.toContain('not recorded');
  expectGolden('own-drift-pull-request.comment.md', plan);
});

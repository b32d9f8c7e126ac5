// A pull request on a Flux repository (test/fixtures/controllers/flux-podinfo) whose objects do not change:
// the App's plan comment shows no update, per source — the Flux stamps, transforms and substitutions
// are desired, not reverted (kustomize-controller's apply, docs/upstream/controllers.md §2).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commentsOn, proposePullRequest, startHarness, uploadSnapshot, type Harness } from './plan-harness.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

const NOW = new Date();
let h: Harness;

beforeAll(async () => {
  h = await startHarness(Object.fromEntries(scenarioRepository('flux-podinfo')), NOW.toISOString());
  const snapshot = scenarioSnapshot('flux-podinfo', 'unchanged');
  const captured = new Date(NOW.getTime() - 5 * 60_000).toISOString();
  expect(await uploadSnapshot(h, 'kind-dev', snapshot.items, captured, snapshot.scope)).toBe(202);
}, 60_000);
afterAll(async () => {
  await h?.close();
});

it('a pull request that changes no object plans no update, and says so per source', async () => {
  const service = scenarioRepository('flux-podinfo').get('apps/base/podinfo/service.yaml')!;
  const pull = await proposePullRequest(h, 'comment-only', {
    'apps/base/podinfo/service.yaml': `# The podinfo Service.\n${service}`,
  });
  const [posted] = commentsOn(h, pull.number);
  expect(posted).toContain('0 to create, 0 to update, 0 to prune');
  expect(posted).toContain('- flux-system/apps: no changes\n');
  expect(posted).toContain('- flux-system/flux-system: no changes\n');
});

// A pull request that changes a chart's values gets a plan of the rendered objects: the real App
// (signed webhook, upload API, job worker running the pinned Helm) plans a Flux HelmRelease whose chart
// is a path of the repository, against a snapshot holding what the base commit's chart renders.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commentsOn, proposePullRequest, startHarness, uploadSnapshot, type Harness } from './plan-harness.js';
import { renderedProd, webappRelease, webappRepository } from './webapp-release.js';
import { pinnedChartRenderer } from '../support/tools.js';

const release = (replicas: number): string => webappRelease(['  values:', `    replicaCount: ${replicas}`]);
const repository = (): Map<string, string> => webappRepository(release(2));
const NOW = new Date();
let h: Harness;

beforeAll(async () => {
  h = await startHarness(Object.fromEntries(repository()), NOW.toISOString());
  // The cluster runs what the base commit renders: the release's objects as helm-controller applied them.
  const items = renderedProd(repository(), pinnedChartRenderer());
  // The HelmRelease as applied, and every object its chart renders.
  expect(items.some((obj) => obj.kind === 'Deployment')).toBe(true);
  const captured = new Date(NOW.getTime() - 5 * 60_000).toISOString();
  expect(await uploadSnapshot(h, 'prod', items, captured)).toBe(202);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

it('plans the rendered change of a pull request that changes chart values', async () => {
  const pull = await proposePullRequest(h, 'more-replicas', { 'clusters/prod/webapp.yaml': release(4) });
  const [posted] = commentsOn(h, pull.number);
  // The HelmRelease itself, and the two chart objects replicaCount reaches: nothing else.
  expect(posted).toContain('**0 to create, 3 to update, 0 to prune, 6 unchanged.**');
  expect(posted).toMatch(/update <code>Deployment\/shop\/webapp<\/code>[^]*?- {2}replicas: 2\n\+ {2}replicas: 4\n/);
  expect(posted).toMatch(/update <code>Widget\/shop\/webapp<\/code>[^]*?- {2}size: 2\n\+ {2}size: 4\n/);
  expect(posted).toContain('update <code>HelmRelease/shop/webapp</code>');
}, 120_000);

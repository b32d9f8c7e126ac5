// A hand-scaled Deployment of a chart gets a drift pull request that edits the chart value: the real
// App (upload API, job worker running the pinned Helm) compares a snapshot in which a person ran
// `kubectl scale` on a Flux HelmRelease's Deployment, proves that replicaCount renders the live count
// and nothing else, and writes the `replicaCount:` line of the HelmRelease's spec.values.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { diffLines } from 'diff';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { chartFiles } from '../support/charts.js';
import { liveAfterHandEdit } from '../core/codify/support.js';
import { drain, OWNER, REPO, startHarness, uploadSnapshot, type Harness } from './plan-harness.js';
import { pinnedChartRenderer } from '../support/tools.js';

const RELEASE = [
  'apiVersion: helm.toolkit.fluxcd.io/v2',
  'kind: HelmRelease',
  'metadata:',
  '  name: web',
  '  namespace: shop',
  'spec:',
  '  interval: 10m',
  '  chart:',
  '    spec:',
  '      chart: ./charts/web',
  '      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
  '  values:',
  '    # two replicas outside the sale',
  '    replicaCount: 2',
  '',
].join('\n');
const CONFIG =
  'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n    namespaces: [shop]\ndrift:\n  minSnapshots: 1\n';
const NOW = new Date();
let h: Harness;

function repository(): Map<string, string> {
  const files = chartFiles('kustomize-helm-oracle/local-chart/input/charts/web', 'charts/web');
  files.set('.github/driftback.yml', CONFIG);
  files.set('clusters/prod/web.yaml', RELEASE);
  return files;
}

/** The text of `path` on `branch` of the stand-in's repository. */
function fileOnBranch(branch: string, path: string): string | undefined {
  const { state } = h.standIn;
  const sha = state.resolve(state.repo(OWNER, REPO), branch);
  const commit = sha ? state.git.commit(sha) : undefined;
  const entry = commit ? state.git.entryAt(commit.tree, path) : undefined;
  return entry ? state.git.blob(entry.sha)?.toString('utf8') : undefined;
}

beforeAll(async () => {
  h = await startHarness(Object.fromEntries(repository()), NOW.toISOString());
  // The cluster runs what HEAD renders (the snapshot's server version), then a person scales the Deployment.
  const server = { gitVersion: 'v1.31.2', resources: [] };
  const charts = pinnedChartRenderer();
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const applied = renderCluster(repository(), target, { live: { items: [], server }, charts });
  expect(applied.errors).toEqual([]);
  const items = applied.objects.map((desired) =>
    desired.key.kind === 'Deployment' && desired.key.name === 'web-web'
      ? liveAfterHandEdit(desired.object, [{ segments: ['spec', 'replicas'], value: 5 }], 'kubectl-scale')
      : desired.object,
  );
  const captured = new Date(NOW.getTime() - 5 * 60_000).toISOString();
  expect(await uploadSnapshot(h, 'prod', items, captured)).toBe(202);
  await drain(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

it("opens a drift pull request that edits the release's replicaCount line, and nothing else", async () => {
  const repo = h.standIn.state.repo(OWNER, REPO);
  const pull = [...repo.issues.values()].find((issue) => issue.pull?.head === 'driftback/prod');
  expect(pull?.title).toBeDefined();
  const edited = fileOnBranch('driftback/prod', 'clusters/prod/web.yaml');
  const changed = diffLines(RELEASE, edited ?? '').filter((part) => part.added || part.removed);
  expect(changed.map((part) => `${part.added ? '+' : '-'}${part.value}`)).toEqual([
    '-    replicaCount: 2\n',
    '+    replicaCount: 5\n',
  ]);
  // The chart itself is untouched: the value belongs to the release.
  expect(fileOnBranch('driftback/prod', 'charts/web/values.yaml')).toBe(repository().get('charts/web/values.yaml'));
  // The body's row names the Deployment's field, the chart value written for it and the line of the
  // release that now sets it.
  expect(pull!.body).toContain(
    '| `spec.replicas`<br>`2` → `5`<br>`replicaCount` in `spec.values` (chart value of HelmRelease shop/web) | kubectl-scale<br>2026-12-02 03:02 UTC | `web.yaml:14` |',
  );
}, 120_000);

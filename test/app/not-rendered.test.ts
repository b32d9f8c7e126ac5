// Parts of a tree driftback does not render (a Helm chart inflated by kustomize): the dashboard lists
// them under "Not checked", and a pull request's plan comment and check run name them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES, kustomization, liveProd } from './plan-scenario.js';
import {
  checkRunsFor,
  commentsOn,
  drain,
  issuesTitled,
  proposePullRequest,
  runWatch,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';

const CHART = 'helmCharts:\n  - name: redis\n    repo: https://charts.example.invalid\n    releaseName: cache\n';
const WITH_CHART = `${kustomization(['api.yaml', 'web.yaml', 'settings.yaml', 'legacy.yaml', 'data.yaml'])}${CHART}`;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ...FILES, 'clusters/prod/kustomization.yaml': WITH_CHART });
}, 60_000);
afterAll(async () => h?.close());

describe('a Helm chart in a kustomization', () => {
  it('the dashboard lists it as not checked', async () => {
    expect(await uploadSnapshot(h, 'prod', liveProd(), '2026-12-02T11:55:00Z')).toBe(202);
    // The snapshot's reconcile first, then the scheduled watch that keeps the dashboard current.
    await drain(h);
    await runWatch(h);
    const [dashboard] = issuesTitled(h, 'driftback dashboard');
    expect(dashboard!.body).toContain('<summary>Not checked (1)</summary>');
    expect(dashboard!.body).toMatch(/- clusters\/prod\/kustomization\.yaml:\d+ \(helmCharts\): not rendered: /);
  });

  it('the plan comment and the check run of a pull request name it', async () => {
    const branch = 'chart-values';
    const changed = `${WITH_CHART}    version: 19.0.0\n`;
    const pull = await proposePullRequest(h, branch, { 'clusters/prod/kustomization.yaml': changed });
    const comment = commentsOn(h, pull.number).at(-1)!;
    expect(comment).toMatch(/clusters\/prod\/kustomization\.yaml:\d+ \(helmCharts\): not rendered: /);
    const [run] = checkRunsFor(h, pull.headSha);
    expect(`${run!.output.summary}\n${JSON.stringify(run!.annotations)}`).toMatch(/not rendered/);
  });
});

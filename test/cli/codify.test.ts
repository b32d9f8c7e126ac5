import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { chartFiles } from '../support/charts.js';
import { fixturePath } from '../support/fixtures.js';
import { runCli } from './run-cli.js';
import { fixtureRepo, liveAfterHandEdit, render, changedLines } from '../core/codify/support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of a fixture repository and a live file in which cartservice's replicas were scaled by hand. */
function setup(
  repo: string,
  root: string,
  kind: string,
  name: string,
  edits: Parameters<typeof liveAfterHandEdit>[1],
  manager = 'kubectl-scale',
) {
  const dir = mkdtempSync(join(tmpdir(), 'driftback-codify-'));
  dirs.push(dir);
  cpSync(fixturePath('manifests', repo), join(dir, 'repo'), { recursive: true });
  const live = render(fixtureRepo(repo), root).map((d) =>
    liveAfterHandEdit(d.object, d.key.kind === kind && d.key.name === name ? edits : [], manager),
  );
  writeFileSync(join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: live }));
  return { dir, repo: join(dir, 'repo') };
}

describe('driftback codify', () => {
  it('writes the hand-made change into the manifest in place and prints what it did', async () => {
    const { dir, repo } = setup('argo-cd', 'test/e2e/testdata/guestbook', 'Deployment', 'guestbook-ui', [
      { segments: ['spec', 'replicas'], value: 4 },
    ]);
    const file = join(repo, 'test/e2e/testdata/guestbook/guestbook-ui-deployment.yaml');
    const before = readFileSync(file, 'utf8');
    const run = await runCli(['codify', '--repo', repo, '--live', join(dir, 'live.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(changedLines(before, readFileSync(file, 'utf8'))).toEqual({
      removed: ['  replicas: 0'],
      added: ['  replicas: 4'],
    });
    expect(run.stdout).toContain('codified 1 change:');
    expect(run.stdout).toMatch(
      /replace +Deployment\/default\/guestbook-ui spec\.replicas → test\/e2e\/testdata\/guestbook\/guestbook-ui-deployment.yaml:8/,
    );
  });

  it('--dry-run prints a unified diff and writes nothing', async () => {
    const { dir, repo } = setup('argo-cd', 'test/e2e/testdata/guestbook', 'Deployment', 'guestbook-ui', [
      { segments: ['spec', 'replicas'], value: 4 },
    ]);
    const file = join(repo, 'test/e2e/testdata/guestbook/guestbook-ui-deployment.yaml');
    const before = readFileSync(file, 'utf8');
    const run = await runCli(['codify', '--repo', repo, '--live', join(dir, 'live.json'), '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--- a/test/e2e/testdata/guestbook/guestbook-ui-deployment.yaml');
    expect(run.stdout).toContain('-  replicas: 0\n+  replicas: 4\n');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it("with --cluster, codifies into that cluster's overlay and leaves the other overlay alone", async () => {
    const { dir, repo } = setup('flux2-kustomize-helm-example', 'apps/staging', 'HelmRelease', 'podinfo', [
      { segments: ['spec', 'interval'], value: '5m' },
    ]);
    mkdirSync(join(repo, '.github'));
    writeFileSync(join(repo, '.github/driftback.yml'), 'clusters:\n  - name: staging\n    path: apps/staging\n');
    const run = await runCli(['codify', '--repo', repo, '--live', join(dir, 'live.json'), '--cluster', 'staging']);
    // The release's chart comes from a Helm repository: offline, its chart output is not rendered (said once,
    // the result partial); the HelmRelease object itself is still codified.
    expect(run.stderr).toMatch(
      /^warning: HelmRelease\/podinfo\/podinfo: \S+\/apps\/base\/podinfo\/release\.yaml:1 \(spec\.chart\): not rendered: chart podinfo \S+ from https:\/\/stefanprodan\.github\.io\/podinfo is not available offline/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.code).toBe(3);
    // The staging overlay's own patch for the release takes the change; the production overlay is untouched.
    expect(readFileSync(join(repo, 'apps/staging/podinfo-values.yaml'), 'utf8')).toContain('  interval: 5m\n');
    expect(readFileSync(join(repo, 'apps/production/podinfo-values.yaml'), 'utf8')).not.toContain('interval: 5m');
    expect(existsSync(join(repo, 'apps/staging/driftback-helmrelease-podinfo.yaml'))).toBe(false);
    expect(run.stdout).toMatch(
      /patch +HelmRelease\/podinfo\/podinfo spec\.interval → apps\/staging\/podinfo-values.yaml/,
    );
  });

  it('exits 2 with a one-line reason on bad input', async () => {
    const missing = await runCli(['codify', '--live', 'x.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--repo <dir> is required');
    const { dir, repo } = setup('argo-cd', 'test/e2e/testdata/guestbook', 'Deployment', 'guestbook-ui', []);
    const unknown = await runCli(['codify', '--repo', repo, '--live', join(dir, 'live.json'), '--cluster', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--cluster nope: the config lists no such cluster');
  });
});

describe('driftback codify on a repository with a HelmRelease', () => {
  it("writes a kubectl scale of the chart's Deployment into the release's replicaCount line", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftback-codify-chart-'));
    dirs.push(dir);
    const release = [
      'apiVersion: helm.toolkit.fluxcd.io/v2',
      'kind: HelmRelease',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  interval: 10m',
      '  chart:',
      '    spec:',
      '      chart: ./charts/web',
      '      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
      '  values:',
      '    replicaCount: 2 # outside the sale',
      '',
    ].join('\n');
    const files = chartFiles('kustomize-helm-oracle/local-chart/input/charts/web', 'charts/web');
    files.set('.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n');
    files.set('clusters/prod/web.yaml', release);
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, 'repo', path)), { recursive: true });
      writeFileSync(join(dir, 'repo', path), text);
    }
    const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
    const helm = locateHelm();
    if (!helm.found) throw new Error(`this test runs the pinned Helm (npm ci extracts it): ${helm.reason}`);
    const charts = createChartRenderer({ helm: helm.helm });
    const applied = renderCluster(files, target, { live: { items: [] }, charts }).objects.map((d) =>
      liveAfterHandEdit(
        d.object,
        d.key.name === 'web-web' ? [{ segments: ['spec', 'replicas'], value: 4 }] : [],
        'kubectl-scale',
      ),
    );
    writeFileSync(join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: applied }));
    const run = await runCli([
      'codify',
      '--repo',
      join(dir, 'repo'),
      '--live',
      join(dir, 'live.json'),
      '--cluster',
      'prod',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(changedLines(release, readFileSync(join(dir, 'repo/clusters/prod/web.yaml'), 'utf8'))).toEqual({
      removed: ['    replicaCount: 2 # outside the sale'],
      added: ['    replicaCount: 4 # outside the sale'],
    });
    expect(run.stdout).toMatch(/replace +Deployment\/shop\/web-web spec\.replicas → clusters\/prod\/web.yaml:11/);
  });
});

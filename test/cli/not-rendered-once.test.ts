// A source that is not rendered is said once per output, without a nested "reported, not rendered:":
// an Argo CD Application and a Flux HelmRelease (under a Kustomization) whose charts are not offline.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { PODINFO_APPLICATION, PODINFO_RELEASE } from '../support/charts.js';
import { writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const KUSTOMIZATION = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  interval: 10m
  path: ./apps
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

const SNAPSHOT = JSON.stringify({
  apiVersion: 'driftback.dev/v1',
  kind: 'Snapshot',
  repository: 'acme/gitops',
  cluster: 'prod',
  capturedAt: '2026-12-01T10:00:00Z',
  scope: { complete: true, errors: [] },
  items: [],
});

const repo = writeRepository('not-rendered-once', [
  ['clusters/prod/app.yaml', PODINFO_APPLICATION],
  ['clusters/prod/apps.yaml', KUSTOMIZATION],
  ['apps/release.yaml', PODINFO_RELEASE],
  ['.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n'],
  ['live.json', SNAPSHOT],
]);
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli(args, { cwd: repo, env: { PATH: '/usr/bin:/bin' } });
const OFFLINE = 'chart podinfo 6.14.1 from https://stefanprodan.github.io/podinfo is not available offline';

/** The lines of `text` that name the source `name` (`argocd/podinfo`, `podinfo/podinfo`). */
const naming = (text: string, name: string) => text.split('\n').filter((line) => line.includes(`/${name}`));

describe('a source not rendered, said once', () => {
  it('codify: one line per source on stderr, no nested "reported, not rendered"', async () => {
    const { code, stderr } = await cli('codify', '--repo', '.', '--cluster', 'prod', '--live', 'live.json');
    expect(code).toBe(3);
    expect(stderr).not.toContain('reported, not rendered');
    expect(naming(stderr, 'argocd/podinfo')).toEqual([
      `warning: Application/argocd/podinfo: clusters/prod/app.yaml (spec.source.helm): not rendered: ${OFFLINE} (give --charts DIR or set DRIFTBACK_CHARTS_DIR)`,
    ]);
    expect(naming(stderr, 'podinfo/podinfo')).toEqual([
      `warning: HelmRelease/podinfo/podinfo: apps/release.yaml:1 (spec.chart): not rendered: ${OFFLINE} (give --charts DIR or set DRIFTBACK_CHARTS_DIR)`,
    ]);
  });

  it('plan: one not-rendered warning per source', async () => {
    const { code, stdout } = await cli('plan', '--head', '.', '--cluster', 'prod', '--live', 'live.json');
    expect(code).toBe(3);
    expect(stdout).not.toContain('reported, not rendered');
    const warnings = stdout.split('\n').filter((line) => line.includes('! not-rendered'));
    expect(warnings.map((line) => line.split(': ')[1])).toEqual([
      'Application/argocd/podinfo',
      'HelmRelease/podinfo/podinfo',
    ]);
  });

  it('render: one line per source on stderr, saying "not rendered" once', async () => {
    const { code, stderr } = await cli('render', '.', '--cluster', 'prod');
    expect(code).toBe(3);
    expect(stderr.trim().split('\n')).toEqual([
      `not rendered: Application/argocd/podinfo: clusters/prod/app.yaml (spec.source.helm): ${OFFLINE} (give --charts DIR or set DRIFTBACK_CHARTS_DIR)`,
      `not rendered: HelmRelease/podinfo/podinfo: apps/release.yaml:1 (spec.chart): ${OFFLINE} (give --charts DIR or set DRIFTBACK_CHARTS_DIR)`,
    ]);
  });

  it('diff: the release is listed under Sources, not again under Not checked', async () => {
    const { code, stdout } = await cli('diff', '--desired', 'apps', '--live', 'live.json');
    expect(code).toBe(3);
    expect(stdout).not.toContain('Not checked:');
    expect(stdout.split('\n').filter((line) => line.includes(OFFLINE))).toEqual([
      `  podinfo/podinfo: not rendered: ${OFFLINE} (give --charts DIR or set DRIFTBACK_CHARTS_DIR)`,
    ]);
  });
});

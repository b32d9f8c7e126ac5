// A source that applies another repository is not part of this repository's desired state: every
// command leaves it out, says so, and exits as if it were not there (0 in sync, no changes, nothing to
// codify, everything rendered). A source of this repository that does not render makes every command's
// result partial (3). One repository, the four commands.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { stringify } from 'yaml';
import { argoApplication } from '../support/argo-application.js';
import { writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const application = (name: string, repoURL: string, path: string): string =>
  stringify(
    argoApplication(name, { repoURL, path, spec: { syncPolicy: { automated: { prune: true, selfHeal: true } } } }),
  );

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  greeting: hello
`;

const PLATFORM = 'https://github.com/acme/platform-manifests.git';
const FILES: Array<[string, string]> = [
  ['.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n'],
  ['clusters/prod/web.yaml', application('web', 'https://github.com/acme/gitops.git', 'apps/web')],
  ['clusters/prod/platform.yaml', application('platform', PLATFORM, 'redis')],
  ['apps/web/configmap.yaml', CONFIGMAP],
];

const snapshot = (items: KubeObject[]): string =>
  JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/gitops',
    cluster: 'prod',
    capturedAt: new Date().toISOString(),
    scope: { complete: true, errors: [] },
    items,
  });

const repos: string[] = [];
afterAll(() => repos.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The repository, with a snapshot of a cluster that runs exactly what it renders (`live.json`). */
async function repository(extra: Array<[string, string]> = []) {
  const repo = writeRepository('driftback-out-of-scope', [...FILES, ...extra, ['empty.json', snapshot([])]]);
  repos.push(repo);
  const cli = (...args: string[]) => runCli(args, { cwd: repo, env: { PATH: '/usr/bin:/bin' } });
  const rendered = await cli('render', '.', '--cluster', 'prod', '--snapshot', 'empty.json', '--format', 'json');
  writeFileSync(join(repo, 'live.json'), snapshot(JSON.parse(rendered.stdout) as KubeObject[]));
  return cli;
}

const LEFT_OUT = `argocd/platform applies ${PLATFORM}, another repository: its objects are not checked here`;

describe('a source of another repository is left out, not a partial result', () => {
  it('render prints everything of this repository, says once which source it left out, and exits 0', async () => {
    const cli = await repository();
    const { code, stdout, stderr } = await cli('render', '.', '--cluster', 'prod', '--snapshot', 'live.json');
    expect(stderr).toBe(`out of scope: ${LEFT_OUT}\n`);
    expect(code).toBe(0);
    expect(stdout).toContain('kind: ConfigMap\nmetadata:\n  name: web\n  namespace: web\n');
    // The Application itself is this repository's: it is declared here.
    expect(stdout).toContain('  name: platform\n');
  });

  it('diff, plan and codify list it as another repository, not checked, and exit 0', async () => {
    const cli = await repository();
    const diff = await cli('diff', '--desired', '.', '--cluster', 'prod', '--live', 'live.json');
    expect(diff.stdout).toContain('  argocd/platform: another repository, not checked\n');
    expect(diff.stdout).toContain('3 in sync, 0 modified, 0 missing, 0 extra, 0 ignored');
    expect([diff.code, diff.stderr]).toEqual([0, '']);
    const plan = await cli('plan', '--head', '.', '--cluster', 'prod', '--live', 'live.json');
    expect(plan.stdout).toContain('prod: 0 to create, 0 to update, 0 to prune, 3 unchanged\n');
    expect(plan.stdout).toContain('  argocd/platform: another repository, not checked\n');
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    const codify = await cli('codify', '--repo', '.', '--cluster', 'prod', '--live', 'live.json', '--dry-run');
    expect(codify.stdout).toBe('codified 0 changes\n');
    expect([codify.code, codify.stderr]).toEqual([0, '']);
  });

  it('render names a HelmRelease whose chart another repository holds, as diff does', async () => {
    const release = `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: platform
  namespace: flux-system
spec:
  interval: 10m
  url: https://github.com/acme/platform-charts
  ref:
    branch: main
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: redis
  namespace: shop
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/redis
      sourceRef:
        kind: GitRepository
        name: platform
        namespace: flux-system
`;
    const cli = await repository([['clusters/prod/redis.yaml', release]]);
    const render = await cli('render', '.', '--cluster', 'prod', '--snapshot', 'live.json');
    expect(render.stderr).toBe(
      `out of scope: ${LEFT_OUT}\nout of scope: shop/redis: another repository, not checked\n`,
    );
    expect(render.code).toBe(0);
    const diff = await cli('diff', '--desired', '.', '--cluster', 'prod', '--live', 'live.json');
    expect(diff.stdout).toContain('  shop/redis: another repository, not checked\n');
    expect(diff.code).toBe(0);
  });

  it('a source of this repository that does not render makes all four partial: exit 3', async () => {
    const broken = application('cart', 'https://github.com/acme/gitops.git', 'apps/cart');
    const cli = await repository([['clusters/prod/cart.yaml', broken]]);
    const reason = 'Application argocd/cart: app path apps/cart does not exist';
    const runs = {
      render: await cli('render', '.', '--cluster', 'prod', '--snapshot', 'live.json'),
      diff: await cli('diff', '--desired', '.', '--cluster', 'prod', '--live', 'live.json'),
      plan: await cli('plan', '--head', '.', '--cluster', 'prod', '--live', 'live.json'),
      codify: await cli('codify', '--repo', '.', '--cluster', 'prod', '--live', 'live.json', '--dry-run'),
    };
    for (const [command, run] of Object.entries(runs)) {
      expect(run.code, command).toBe(3);
      expect(run.stdout + run.stderr, command).toContain(reason);
    }
    expect(runs.render.stderr).toBe(
      `not rendered: clusters/prod/cart.yaml (spec.source.path): ${reason}\nout of scope: ${LEFT_OUT}\n`,
    );
  });
});

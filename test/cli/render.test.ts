// `driftback render`: the desired state of a repository whose Flux HelmRelease installs a chart of the
// repository and whose Argo CD Application installs a chart of a Helm repository from --charts,
// compared object for object with `helm template` on the same inputs; what is not rendered on stderr.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { maskSecretValues } from '../../src/core/k8s/index.js';
import { chartFiles, helmTemplateObjects, objectKey, packagedChart, PODINFO_RELEASE } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { pinnedHelm } from '../support/tools.js';
import { snapshotText, writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const RELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: webapp
  namespace: shop
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/webapp
      sourceRef:
        kind: GitRepository
        name: flux-system
        namespace: flux-system
  values:
    replicaCount: 3
`;

function repository(): string {
  const files = chartFiles('charts/webapp', 'charts/webapp');
  files.set('clusters/prod/webapp.yaml', RELEASE);
  files.set('clusters/prod/podinfo.yaml', PODINFO_RELEASE);
  files.set('.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n');
  return writeRepository('render-repo', files);
}

const SNAPSHOT = snapshotText();

const FLUX_LABELS = ['helm.toolkit.fluxcd.io/name', 'helm.toolkit.fluxcd.io/namespace'];

function unstamped(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  for (const key of FLUX_LABELS) delete copy.metadata?.labels?.[key];
  if (copy.metadata?.labels && Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  return copy;
}

describe('driftback render', () => {
  const repo = repository();
  const snapshot = join(repo, 'snapshot.json');
  writeFileSync(snapshot, SNAPSHOT);
  const env = { HELM_BINARY: pinnedHelm(), PATH: '/usr/bin:/bin' };

  it('prints every chart rendered, as helm template renders it, in a stable order', async () => {
    const charts = packagedChart('upstream/charts/podinfo');
    const args = ['render', repo, '--cluster', 'prod', '--snapshot', snapshot, '--charts', charts];
    const { code, stdout, stderr } = await runCli(args, { env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const printed = parseAllDocuments(stdout).map((doc) => doc.toJS() as KubeObject);
    const webapp = helmTemplateObjects('webapp', join(REPO_ROOT, 'test/fixtures/charts/webapp'), [
      '--namespace',
      'shop',
      '--no-hooks',
      '--include-crds',
      '--kube-version',
      'v1.33.1',
      '--set',
      'replicaCount=3',
    ]);
    const podinfo = helmTemplateObjects('podinfo', join(charts, 'podinfo-6.14.1.tgz'), [
      '--namespace',
      'podinfo',
      '--no-hooks',
      '--include-crds',
      '--kube-version',
      'v1.33.1',
      '--set',
      'replicaCount=2',
    ]);
    const byKey = new Map(printed.map((obj) => [objectKey(obj), obj]));
    for (const [want, namespace] of [
      ...webapp.map((o) => [o, 'shop'] as const),
      ...podinfo.map((o) => [o, 'podinfo'] as const),
    ]) {
      // render prints a Secret's values masked, never as Helm wrote them.
      const copy = structuredClone(want);
      if (!copy.metadata!.namespace && copy.kind !== 'CustomResourceDefinition') copy.metadata!.namespace = namespace;
      expect(unstamped(byKey.get(objectKey(copy))!), objectKey(copy)).toEqual(maskSecretValues(copy));
    }
    // The controller objects themselves are desired state too.
    expect(byKey.has('HelmRelease/shop/webapp')).toBe(true);
    expect(byKey.has('HelmRepository/podinfo/podinfo')).toBe(true);
    expect(printed.length).toBe(webapp.length + podinfo.length + 3);
    const again = await runCli(args, { env });
    expect(again.stdout).toBe(stdout);
  });

  it('lists on stderr what it could not render, and exits 3 for a partial result, as diff and plan do', async () => {
    const { code, stdout, stderr } = await runCli(
      ['render', repo, '--cluster', 'prod', '--snapshot', snapshot, '--format', 'json'],
      {
        env,
      },
    );
    expect(code).toBe(3);
    expect(stderr).toBe(
      'not rendered: HelmRelease/podinfo/podinfo: clusters/prod/podinfo.yaml:1 (spec.chart): chart podinfo 6.14.1 from https://stefanprodan.github.io/podinfo is not available offline (give --charts DIR or set DRIFTBACK_CHARTS_DIR)\n',
    );
    const objects = JSON.parse(stdout) as KubeObject[];
    expect(objects.some((obj) => obj.kind === 'Deployment' && obj.metadata?.name === 'webapp')).toBe(true);
  });

  it('renders a chart whose subchart is packaged in its charts/ directory, as helm dependency build leaves it', async () => {
    // charts/webapp with its cache subchart as charts/cache-0.3.0.tgz (bytes that are not UTF-8).
    const files = [...chartFiles('charts/webapp', 'charts/webapp')].filter(
      ([path]) => !path.includes('/charts/cache/'),
    );
    files.push(
      ['clusters/prod/webapp.yaml', RELEASE],
      ['.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n'],
    );
    const packaged = writeRepository('packaged-subchart', files);
    const archive = join(packagedChart('charts/webapp/charts/cache'), 'cache-0.3.0.tgz');
    mkdirSync(join(packaged, 'charts/webapp/charts'));
    copyFileSync(archive, join(packaged, 'charts/webapp/charts/cache-0.3.0.tgz'));
    writeFileSync(join(packaged, 'snapshot.json'), SNAPSHOT);
    const args = [
      'render',
      packaged,
      '--cluster',
      'prod',
      '--snapshot',
      join(packaged, 'snapshot.json'),
      '--format',
      'json',
    ];
    const { code, stdout, stderr } = await runCli(args, { env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const cache = (JSON.parse(stdout) as KubeObject[]).find((obj) => obj.kind === 'StatefulSet')!;
    const chart = join(packaged, 'charts/webapp');
    const theirs = helmTemplateObjects('webapp', chart, ['--namespace', 'shop', '--kube-version', 'v1.33.1']);
    expect(unstamped(cache)).toEqual({
      ...theirs.find((obj) => obj.kind === 'StatefulSet'),
      metadata: { name: 'webapp-cache', namespace: 'shop' },
    });
  });

  it('without Helm, reports every chart not rendered: helm not found', async () => {
    const { code, stderr } = await runCli(['render', repo, '--cluster', 'prod'], {
      env: { PATH: '/nonexistent', HELM_BINARY: '/nonexistent/helm' },
    });
    expect(code).toBe(3);
    expect(stderr).toContain(
      'not rendered: HelmRelease/shop/webapp: clusters/prod/webapp.yaml:1 (spec.chart): helm not found\n',
    );
    expect(stderr).not.toContain('reported, not rendered');
  });
});

describe('driftback render and Secrets', () => {
  it("never prints a Secret's values, even those Git holds in the clear: each is masked with the Secret it comes from", async () => {
    const secret =
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n' +
      'data:\n  password: aHVudGVyMg==\nstringData:\n  user: admin-in-clear\n';
    const dir = writeRepository('render-secret', [['app/secret.yaml', secret]]);
    for (const format of ['yaml', 'json']) {
      const { code, stdout } = await runCli(['render', join(dir, 'app'), '--format', format]);
      expect(code).toBe(0);
      expect(stdout).not.toContain('aHVudGVyMg==');
      expect(stdout).not.toContain('admin-in-clear');
      expect(stdout).toContain('password');
      expect(stdout).toContain('‹from Secret shop/db›');
    }
  });
});

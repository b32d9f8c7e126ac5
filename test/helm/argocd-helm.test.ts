// An Argo CD Application with a Helm source, rendered as Argo CD's repo-server renders it
// (reposerver/repository/repository.go helmTemplate, util/helm/cmd.go): compared object for object
// with `helm template` run directly with the arguments Argo CD builds for the same Application.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { argoSetValue } from '../../src/core/render/argocd-helm-render.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import {
  argoPodinfoTemplate,
  chartFiles,
  expectSame,
  helmTemplateObjects,
  packagedChart,
  PODINFO_APPLICATION,
} from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);
const helm = found.helm;

const APP = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: webapp
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/gitops.git
    targetRevision: main
    path: charts/webapp
    helm:
      releaseName: storefront
      ignoreMissingValueFiles: true
      valueFiles:
        - values-prod.yaml
        - values-missing.yaml
      valuesObject:
        image:
          tag: 2.1.2
      parameters:
        - name: replicaCount
          value: "4"
        - name: greeting
          value: hello, world
        - name: extraEnv.BUILD
          value: "0042"
          forceString: true
      fileParameters:
        - name: extraEnv.MOTD
          path: motd.txt
  destination:
    server: https://kubernetes.default.svc
    namespace: shop
`;

const SNAPSHOT = {
  items: [],
  repository: 'acme/gitops',
  server: { gitVersion: 'v1.31.4', resources: [] },
};

describe('an Argo CD Application with a Helm path source', () => {
  const files = chartFiles('charts/webapp', 'charts/webapp');
  files.set('charts/webapp/motd.txt', 'welcome');
  files.set('apps/webapp.yaml', APP);
  const rendered = renderCluster(
    files,
    { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' },
    { live: SNAPSHOT, charts: createChartRenderer({ helm }) },
  );

  it('renders what helm template renders with the arguments Argo CD builds', () => {
    expect(rendered.errors).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'argo-'));
    writeFileSync(join(dir, 'values.yaml'), 'image:\n  tag: 2.1.2\n');
    writeFileSync(join(dir, 'motd'), 'welcome');
    const chart = join(REPO_ROOT, 'test/fixtures/charts/webapp');
    const theirs = helmTemplateObjects('storefront', chart, [
      '--namespace',
      'shop',
      '--no-hooks',
      '--include-crds',
      '--kube-version',
      'v1.31.4',
      '--values',
      join(chart, 'values-prod.yaml'),
      '--values',
      join(dir, 'values.yaml'),
      '--set',
      'replicaCount=4',
      '--set',
      'greeting=hello\\, world',
      '--set-string',
      'extraEnv.BUILD=0042',
      '--set-file',
      `extraEnv.MOTD=${join(dir, 'motd')}`,
    ]);
    const ours = rendered.objects.filter((d) => d.object.kind !== 'Application').map((d) => d.object);
    expectSame(ours, theirs, 'shop');
    const deployment = ours.find((obj) => obj.kind === 'Deployment') as any;
    expect(deployment.spec.replicas).toBe(4);
    expect(deployment.spec.template.spec.containers[0].env).toContainEqual({ name: 'BUILD', value: '0042' });
    expect(deployment.metadata.annotations['argocd.argoproj.io/tracking-id']).toBe(
      'webapp:apps/Deployment:shop/storefront-webapp',
    );
  });

  it('names a missing values file unless ignoreMissingValueFiles', () => {
    const strict = new Map(files);
    strict.set('apps/webapp.yaml', APP.replace('      ignoreMissingValueFiles: true\n', ''));
    const result = renderCluster(
      strict,
      { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' },
      { live: SNAPSHOT, charts: createChartRenderer({ helm }) },
    );
    expect(result.notes.map((n) => n.message)).toContain(
      'Application argocd/webapp: reported, not rendered: valueFiles values-missing.yaml: charts/webapp/values-missing.yaml does not exist',
    );
    expect(result.notRendered).toContainEqual(
      expect.objectContaining({ namespace: 'shop', field: 'spec.source.helm' }),
    );
  });

  it('escapes commas of --set values as Argo CD does, lists kept', () => {
    expect(argoSetValue('a,b')).toBe('a\\,b');
    expect(argoSetValue('a\\,b,,c')).toBe('a\\,b\\,\\,c');
    expect(argoSetValue('{a,b}')).toBe('{a,b}');
  });
});

describe("the cluster's Kubernetes version as Argo CD hands it to Helm", () => {
  // gitops-engine GetServerVersion and the repo-server's parseKubeVersion (Argo CD 3.4) keep
  // <major>.<minor>.<patch> of an EKS cluster's v1.30.4-eks-a737599: `semverCompare ">=1.19.0"` holds.
  const chart = chartFiles('kustomize-helm-oracle/local-chart/input/charts/web', 'charts/web');
  const live = { ...SNAPSHOT, server: { gitVersion: 'v1.30.4-eks-a737599', resources: [] } };
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'argocd' as const };
  const charts = createChartRenderer({ helm });
  const settingsOf = (files: Map<string, string>): { data: Record<string, string> } => {
    const rendered = renderCluster(files, target, { live, charts });
    expect(rendered.errors).toEqual([]);
    const settings = rendered.objects.find((d) => d.object.kind === 'ConfigMap' && d.key.name.endsWith('-settings'));
    return settings!.object as unknown as { data: Record<string, string> };
  };

  it('a Helm source renders with v1.30.4, as helm template --kube-version 1.30.4 does', () => {
    const app = APP.replace(/ {4}helm:[\s\S]*?(?= {2}destination:)/, '').replace(
      'path: charts/webapp',
      'path: charts/web',
    );
    const files = new Map([...chart, ['clusters/prod/web.yaml', app]]);
    const ours = settingsOf(files);
    const dir = join(REPO_ROOT, 'test/fixtures/kustomize-helm-oracle/local-chart/input/charts/web');
    const theirs = helmTemplateObjects('webapp', dir, ['--namespace', 'shop', '--kube-version', '1.30.4']);
    expect(ours.data).toEqual(theirs.find((obj) => obj.metadata?.name === 'webapp-web-settings')!.data);
    expect(ours.data!.kubeVersion).toBe('v1.30.4');
  });

  it('so does a kustomize helmCharts entry (--helm-kube-version)', () => {
    const files = new Map([...chart].map(([path, text]) => [`apps/web/${path}`, text]));
    files.set('apps/web/kustomization.yaml', 'helmCharts:\n  - {name: web, releaseName: storefront}\n');
    files.set(
      'clusters/prod/web.yaml',
      APP.replace(/ {4}helm:[\s\S]*?(?= {2}destination:)/, '').replace('path: charts/webapp', 'path: apps/web'),
    );
    const argocdCm = { 'kustomize.buildOptions': '--enable-helm' };
    live.items = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', namespace: 'argocd' }, data: argocdCm },
    ] as never;
    expect(settingsOf(files).data!.kubeVersion).toBe('v1.30.4');
  });
});

describe('Argo CD helm valueFiles globs (repository.go getResolvedValueFiles)', () => {
  const app = (valueFiles: string, ignore = false) =>
    APP.replace(
      '      ignoreMissingValueFiles: true\n      valueFiles:\n        - values-prod.yaml\n        - values-missing.yaml\n',
      `${ignore ? '      ignoreMissingValueFiles: true\n' : ''}      valueFiles: ${valueFiles}\n`,
    );
  const render = (valueFiles: string, ignore = false) => {
    const files = chartFiles('charts/webapp', 'charts/webapp');
    files.set('charts/webapp/motd.txt', 'welcome');
    files.set('charts/webapp/env/a.yaml', 'image:\n  repository: example/a\n');
    files.set('charts/webapp/env/b.yaml', 'image:\n  repository: example/b\n');
    files.set('charts/webapp/env/deep/c.yaml', 'greeting: from c\n');
    files.set('apps/webapp.yaml', app(valueFiles, ignore));
    return renderCluster(
      files,
      { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' },
      { live: SNAPSHOT, charts: createChartRenderer({ helm }) },
    );
  };
  it('expands a glob in lexical order; a file also listed by name takes its named place', () => {
    const inOrder = render('["env/*.yaml"]');
    expect(inOrder.errors).toEqual([]);
    const image = (rendered: ReturnType<typeof render>) =>
      (rendered.objects.find((d) => d.object.kind === 'Deployment')!.object as any).spec.template.spec.containers[0]
        .image;
    // The later file wins: b.yaml after a.yaml; a.yaml last when it is also listed by name after the glob.
    expect(image(inOrder)).toBe('example/b:2.1.2');
    expect(image(render('["env/*.yaml", "env/a.yaml"]'))).toBe('example/a:2.1.2');
    const named = render('["env/*.yaml", "env/a.yaml"]');
    const dir = mkdtempSync(join(tmpdir(), 'argo-glob-'));
    writeFileSync(join(dir, 'values.yaml'), 'image:\n  tag: 2.1.2\n');
    writeFileSync(join(dir, 'a.yaml'), 'image:\n  repository: example/a\n');
    writeFileSync(join(dir, 'b.yaml'), 'image:\n  repository: example/b\n');
    writeFileSync(join(dir, 'motd'), 'welcome');
    const chart = join(REPO_ROOT, 'test/fixtures/charts/webapp');
    const args = (...values: string[]) => [
      ...['--namespace', 'shop', '--no-hooks', '--include-crds', '--kube-version', 'v1.31.4'],
      ...values.flatMap((file) => ['--values', join(dir, file)]),
      ...['--set', 'replicaCount=4', '--set', 'greeting=hello\\, world', '--set-string', 'extraEnv.BUILD=0042'],
      ...['--set-file', `extraEnv.MOTD=${join(dir, 'motd')}`],
    ];
    const ours = (rendered: ReturnType<typeof render>) =>
      rendered.objects.filter((d) => d.object.kind !== 'Application').map((d) => d.object);
    expectSame(ours(named), helmTemplateObjects('storefront', chart, args('b.yaml', 'a.yaml', 'values.yaml')), 'shop');
    expectSame(
      ours(inOrder),
      helmTemplateObjects('storefront', chart, args('a.yaml', 'b.yaml', 'values.yaml')),
      'shop',
    );
  });

  it('** crosses directories, and a glob that matches nothing is an error unless ignoreMissingValueFiles', () => {
    expect(render('["env/**/c.yaml"]').errors).toEqual([]);
    const none = render('["nothing/*.yaml"]');
    expect(none.notes.map((n) => n.message)).toContain(
      'Application argocd/webapp: reported, not rendered: values file glob "nothing/*.yaml" matched no files',
    );
    const ignored = render('["nothing/*.yaml"]', true);
    expect(ignored.errors).toEqual([]);
    expect(ignored.objects.some((d) => d.object.kind === 'Deployment')).toBe(true);
  });
});

describe('an Argo CD Application with a chart from a Helm repository, from the offline charts directory', () => {
  const files = new Map([['apps/podinfo.yaml', PODINFO_APPLICATION]]);
  const target = { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' as const };

  it('renders the archive helm pull would have written, as helm template does', () => {
    const chartsDir = packagedChart('upstream/charts/podinfo');
    const rendered = renderCluster(files, target, { live: SNAPSHOT, charts: createChartRenderer({ helm, chartsDir }) });
    const theirs = argoPodinfoTemplate(chartsDir, 'replicaCount: 2\n');
    expectSame(
      rendered.objects.filter((d) => d.object.kind !== 'Application').map((d) => d.object),
      theirs,
      'podinfo',
    );
    expect(theirs.some((obj) => obj.kind === 'Deployment')).toBe(true);
  });

  it('says which archive is missing', () => {
    const chartsDir = mkdtempSync(join(tmpdir(), 'charts-empty-'));
    const rendered = renderCluster(files, target, { live: SNAPSHOT, charts: createChartRenderer({ helm, chartsDir }) });
    expect(rendered.notes.map((n) => n.message)).toContain(
      `Application argocd/podinfo: reported, not rendered: chart podinfo 6.14.1 is not in ${chartsDir} (as podinfo-6.14.1.tgz)`,
    );
  });
});

// kustomize `helmCharts` inflated as `kubectl kustomize --enable-helm` inflates them: each case of
// test/fixtures/kustomize-helm-oracle holds an input tree (a local chart in its chart home) and what
// kubectl 1.35.2 (kustomize 5.7.1) printed for it with Helm 3.17.2 and the case's kubectl-flags.txt
// (scripts/kustomize-oracle.mjs --helm). driftback renders the same input with the pinned Helm 4 and
// must print the same objects in the same order — less Helm's hooks, which are not desired state
// (kustomize prints them; Argo CD runs them as hooks and never compares them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../src/core/manifests/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { fixturePath, readFixtureTree } from '../support/fixtures.js';
import { runKrustyBuild } from '../support/krusty-run.js';

const ROOT = fixturePath('..', 'kustomize-helm-oracle');
const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const found = locateHelm();
if (!found.found) throw new Error(`these tests run the pinned Helm (npm ci extracts it): ${found.reason}`);
const charts = createChartRenderer({ helm: found.helm });

/** kubectl-flags.txt as the build's helm options (--helm-kube-version, --helm-api-versions). */
function helmFlags(name: string): { kubeVersion?: string; apiVersions: string[] } {
  const file = join(ROOT, name, 'kubectl-flags.txt');
  const words = existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/) : [];
  const flags: { kubeVersion?: string; apiVersions: string[] } = { apiVersions: [] };
  for (let i = 0; i < words.length; i += 2) {
    if (words[i] === '--helm-kube-version') flags.kubeVersion = words[i + 1]!;
    if (words[i] === '--helm-api-versions') flags.apiVersions.push(words[i + 1]!);
  }
  return flags;
}

function withoutHooks(yaml: string): string {
  return yaml
    .split(/^---$/m)
    .filter((doc) => !doc.includes('helm.sh/hook:'))
    .join('---');
}

describe('kustomize helmCharts, as kubectl kustomize --enable-helm inflates them', () => {
  it('has cases, each with what kustomize printed', () => {
    expect(cases).toEqual(['inline-nulls', 'local-chart', 'values-merge', 'versioned-dir']);
  });

  for (const name of cases) {
    it(name, () => {
      const outcome = runKrustyBuild(
        {
          root: '',
          files: readFixtureTree('..', 'kustomize-helm-oracle', name, 'input'),
          options: { order: 'legacy', loadRestrictions: 'rootOnly', managedByLabel: false },
          expected: withoutHooks(readFileSync(join(ROOT, name, 'expected.yaml'), 'utf8')),
          line: 0,
        },
        { helm: { charts, ...helmFlags(name) } },
      );
      expect(outcome.ok, outcome.detail).toBe(true);
    });
  }

  it('leaves the charts out with the reason when the build does not enable helm', () => {
    const files = readFixtureTree('..', 'kustomize-helm-oracle', 'local-chart', 'input');
    const flux = "Flux's kustomize-controller builds without --enable-helm";
    const result = renderManifests(files, '', { defaultNamespace: null, helm: { disabled: flux } });
    expect(result.errors).toEqual([]);
    expect(result.objects.map((o) => o.key.name)).toEqual(['storefront']);
    expect(result.notRendered).toEqual([
      expect.objectContaining({
        file: 'kustomization.yaml',
        line: 6,
        field: 'helmCharts',
        reason: flux,
        namespace: 'shop',
      }),
    ]);
  });

  it('says helm was not found when helm is enabled but there is no Helm', () => {
    const files = readFixtureTree('..', 'kustomize-helm-oracle', 'local-chart', 'input');
    const result = renderManifests(files, '', { defaultNamespace: null, helm: {} });
    expect(result.notRendered?.map((n) => `${n.field}: ${n.reason}`)).toEqual(['helmCharts[0]: helm not found']);
  });

  it('traces every field of a chart object to its helmCharts entry', () => {
    const files = readFixtureTree('..', 'kustomize-helm-oracle', 'local-chart', 'input');
    const result = renderManifests(files, '', { defaultNamespace: null, helm: { charts, kubeVersion: 'v1.33.1' } });
    const deployment = result.objects.find((o) => o.key.kind === 'Deployment')!;
    expect(deployment.source.file).toBe('charts/web/templates/deployment.yaml');
    expect(deployment.source.fields['/spec/replicas']?.origin).toEqual({
      type: 'source-transform',
      source: 'helmCharts[0] web of kustomization.yaml',
      transform: 'chart',
      file: 'kustomization.yaml',
      // Where the entry's values are set, lowest precedence first: codify writes a hand change there.
      values: {
        layers: [
          expect.objectContaining({ label: "the chart's default values" }),
          expect.objectContaining({ label: 'helmCharts[0].valuesInline of kustomization.yaml' }),
          expect.objectContaining({ label: 'values-prod.yaml' }),
        ],
        defaults: 1,
        addTo: expect.objectContaining({ label: 'helmCharts[0].valuesInline of kustomization.yaml' }),
      },
    });
    // The kustomization's own transforms keep their origins on top.
    expect(deployment.source.fields['/metadata/labels/team']?.origin).toMatchObject({ type: 'labels' });
  });
});

describe('helmCharts under each controller', () => {
  const chartTree = readFixtureTree('..', 'kustomize-helm-oracle', 'local-chart', 'input');
  const files = new Map([...chartTree].map(([path, text]) => [`apps/web/${path}`, text]));
  const snapshot = (argocdCm?: Record<string, string>) => ({
    repository: 'acme/gitops',
    server: { gitVersion: 'v1.33.1', resources: [] },
    items: argocdCm
      ? [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', namespace: 'argocd' }, data: argocdCm }]
      : [],
  });
  const application = [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata: {name: web, namespace: argocd}',
    'spec:',
    '  project: default',
    '  source: {repoURL: https://github.com/acme/gitops.git, targetRevision: main, path: apps/web}',
    '  destination: {server: https://kubernetes.default.svc, namespace: shop}',
    '',
  ].join('\n');
  const argo = new Map([...files, ['clusters/prod/web.yaml', application]]);
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'argocd' as const };

  it('Argo CD with --enable-helm in kustomize.buildOptions: the chart is rendered, patched and stamped', () => {
    const live = snapshot({ 'kustomize.buildOptions': '--enable-helm --load-restrictor LoadRestrictionsNone' });
    const rendered = renderCluster(argo, target, { live, charts });
    expect(rendered.errors).toEqual([]);
    const deployment = rendered.objects.find((d) => d.key.kind === 'Deployment')!;
    expect(deployment.key).toEqual({ group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'storefront-web' });
    expect((deployment.object as any).spec.template.spec.containers[0].env).toEqual([{ name: 'MODE', value: 'prod' }]);
    expect(deployment.object.metadata?.annotations?.['argocd.argoproj.io/tracking-id']).toBe(
      'web:apps/Deployment:shop/storefront-web',
    );
    // Argo CD passes the cluster's version to Helm.
    const settings = rendered.objects.find((d) => d.key.name === 'storefront-web-settings')!;
    expect((settings.object as any).data.kubeVersion).toBe('v1.33.1');
    expect(rendered.objects.some((d) => d.key.kind === 'Pod')).toBe(false);
  });

  it('Argo CD without --enable-helm: the charts are not rendered, and argocd-cm is named', () => {
    const rendered = renderCluster(argo, target, { live: snapshot({ 'kustomize.buildOptions': '' }), charts });
    expect(rendered.objects.map((d) => d.key.kind).sort()).toEqual(['Application', 'ServiceAccount']);
    expect(rendered.notRendered?.map((n) => n.reason)).toEqual([
      'argocd-cm kustomize.buildOptions does not hold --enable-helm, so Argo CD does not inflate helmCharts',
    ]);
  });

  it("a Flux Kustomization's helmCharts are not rendered: kustomize-controller does not enable helm", () => {
    const kustomization = [
      'apiVersion: kustomize.toolkit.fluxcd.io/v1',
      'kind: Kustomization',
      'metadata: {name: web, namespace: flux-system}',
      'spec:',
      '  interval: 10m',
      '  path: ./apps/web',
      '  prune: true',
      '  sourceRef: {kind: GitRepository, name: flux-system}',
      '',
    ].join('\n');
    const flux = new Map([...files, ['clusters/prod/web.yaml', kustomization]]);
    const rendered = renderCluster(flux, { ...target, controller: 'flux' }, { live: snapshot(), charts });
    expect(rendered.objects.some((d) => d.key.kind === 'Deployment')).toBe(false);
    expect(rendered.notRendered?.map((n) => n.reason)).toEqual([
      expect.stringMatching(
        /^Flux's kustomize-controller builds without --enable-helm.*declare the chart as a HelmRelease$/,
      ),
    ]);
  });
});

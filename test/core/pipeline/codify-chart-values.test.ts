// A hand change on a chart's output (`kubectl scale`, `kubectl set image`) codified into the chart value
// that sets it, in the place that sets it, proven by rendering the chart again with the pinned Helm:
// Flux HelmRelease spec.values and valuesFiles, Argo CD parameters, valuesObject and valueFiles, kustomize
// helmCharts valuesInline. When no single value renders exactly the live value and nothing else, the
// change is reported with the places tried, and nothing is written.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config/index.js';
import type { KubeObject, PathSegment, Snapshot } from '../../../src/core/model/index.js';
import { codifyEvaluated, evaluateDrift, type DriftInput } from '../../../src/core/pipeline/index.js';
import { planChanges } from '../../../src/core/plan/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { renderCodifyText } from '../../../src/core/report/codify-text.js';
import { locateHelm } from '../../../src/helm/locate.js';
import { createChartRenderer } from '../../../src/helm/renderer.js';
import { chartFiles, packagedChart } from '../../support/charts.js';
import { REPO_ROOT } from '../../support/fixtures.js';
import { startRegistry } from '../../support/oci-registry/index.js';
import { openOciSession, type OciSession } from '../../support/oci-registry/session.js';
import { changedLines, liveAfterHandEdit } from '../codify/support.js';

const found = locateHelm();
if (!found.found) throw new Error(`these tests run the pinned Helm (npm ci extracts it): ${found.reason}`);
const charts = createChartRenderer({ helm: found.helm });

/** The `web` chart: replicaCount sets the Deployment's replicas only; image.tag defaults to "1.0". */
const WEB_FIXTURE = 'kustomize-helm-oracle/local-chart/input/charts/web';
const WEB = chartFiles(WEB_FIXTURE, 'charts/web');
/** The `webapp` chart: replicaCount sets the Deployment's replicas and the Widget's size. */
const WEBAPP = chartFiles('charts/webapp', 'charts/webapp');
const SERVER = { gitVersion: 'v1.32.3', resources: [] };
const REPLICAS: PathSegment[] = ['spec', 'replicas'];
const IMAGE: PathSegment[] = ['spec', 'template', 'spec', 'containers', { key: { name: 'web' } }, 'image'];

function helmRelease(values: string[], extra: string[] = [], chart = 'web'): string {
  return [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    `  name: ${chart}`,
    '  namespace: shop',
    'spec:',
    '  interval: 10m',
    '  chart:',
    '    spec:',
    `      chart: ./charts/${chart}`,
    '      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
    ...extra,
    ...values,
    '',
  ].join('\n');
}

interface HandChange {
  kind: string;
  name: string;
  segments: PathSegment[];
  value: unknown;
  manager: string;
  /** `name` is a generator's: the object's name is it with kustomize's content hash appended. */
  hashed?: true;
}

/** The cluster as its controller applied the repository (charts rendered by Helm), then changed by hand. */
function codifyOn(
  files: Map<string, string>,
  clusterYaml: string,
  changes: HandChange[],
  extra: KubeObject[] = [],
  renderer = charts,
) {
  const parsed = parseConfig(`clusters:\n  - name: prod\n${clusterYaml}drift:\n  minSnapshots: 1\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const cluster = parsed.config.clusters![0]!;
  const bare = { apiVersion: 'driftback.dev/v1', kind: 'Snapshot', repository: 'acme/gitops', cluster: 'prod' };
  const live = (items: KubeObject[]) =>
    ({
      ...bare,
      capturedAt: '2026-12-02T04:00:00Z',
      server: SERVER,
      scope: { complete: true, errors: [] },
      items,
    }) as unknown as Snapshot;
  const rendered = renderCluster(files, cluster, { live: live(extra), charts: renderer });
  expect(rendered.errors).toEqual([]);
  const applied = rendered.objects.map((desired) => {
    const named = (c: HandChange) =>
      c.name === desired.key.name || (c.hashed && desired.key.name.startsWith(`${c.name}-`));
    const mine = changes.filter((c) => c.kind === desired.key.kind && named(c));
    const manager = mine[0]?.manager ?? 'kubectl-edit';
    return liveAfterHandEdit(desired.object, mine, manager);
  });
  const input: DriftInput = {
    snapshot: live([...applied, ...extra]),
    config: parsed.config,
    cluster,
    files,
    history: [],
    declined: new Set(),
    charts: renderer,
  };
  const evaluated = evaluateDrift(input);
  if (evaluated.type !== 'evaluated') throw new Error(JSON.stringify(evaluated));
  return Object.assign(codifyEvaluated(input, evaluated), { input });
}

const FLUX = '    path: clusters/prod\n    controller: flux\n    namespaces: [shop]\n';
const ARGO = '    path: clusters/prod\n    controller: argocd\n    namespaces: [shop]\n';
/** Argo CD's argocd-cm with kustomize's `--enable-helm`, so kustomize helmCharts render. */
const ENABLE_HELM: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'argocd-cm', namespace: 'argocd' },
  data: { 'kustomize.buildOptions': '--enable-helm' },
};
/** The Application of the `web` chart at charts/web of this repository; `helm` are its source's helm lines. */
function webHelmApp(helm: string[]): string {
  const source = ['  source:', '    repoURL: https://github.com/acme/gitops.git', '    targetRevision: main'];
  return argoApplication([...source, '    path: charts/web', '    helm:', ...helm]);
}
/** Application argocd/web deploying into shop; `spec` are its lines between `project` and `destination`. */
function argoApplication(spec: string[]): string {
  return [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata: {name: web, namespace: argocd}',
    'spec:',
    '  project: default',
    ...spec,
    '  destination: {server: https://kubernetes.default.svc, namespace: shop}',
    '',
  ].join('\n');
}
const scale = (name: string, replicas: number): HandChange => ({
  kind: 'Deployment',
  name,
  segments: REPLICAS,
  value: replicas,
  manager: 'kubectl-scale',
});
const setImage = (image: string): HandChange => ({
  kind: 'Deployment',
  name: 'web-web',
  segments: IMAGE,
  value: image,
  manager: 'kubectl-set',
});

describe('Flux HelmRelease', () => {
  it('kubectl scale: the replicaCount line of spec.values, its comment kept', () => {
    const release = helmRelease(['  values:', '    replicaCount: 2 # raised for the sale', '    image: {tag: "1.0"}']);
    const files = new Map([...WEB, ['clusters/prod/web.yaml', release]]);
    const result = codifyOn(files, FLUX, [scale('web-web', 5)]);
    expect(result.check).toEqual({ ok: true });
    expect(result.reported).toEqual([]);
    expect(changedLines(release, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['    replicaCount: 2 # raised for the sale'],
      added: ['    replicaCount: 5 # raised for the sale'],
    });
    expect(result.codified).toMatchObject([
      { file: 'clusters/prod/web.yaml', line: 13, change: { path: '/spec/replicas' } },
    ]);
    expect([...result.edits.keys()]).toEqual(['clusters/prod/web.yaml']);
  });

  it('a value only the chart default sets is added to spec.values', () => {
    const release = helmRelease(['  values:', '    service: {}']);
    const files = new Map([...WEB, ['clusters/prod/web.yaml', release]]);
    const result = codifyOn(files, FLUX, [setImage('ghcr.io/example/web:1.1')]);
    expect(result.reported).toEqual([]);
    expect(changedLines(release, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: [],
      added: ['    image:', '      tag: "1.1"'],
    });
  });

  it('kubectl set image: the tag in the values file that sets it (chart.spec.valuesFiles)', () => {
    const prod = '# production values\nimage:\n  tag: "1.4" # pinned\n';
    const release = helmRelease([], ['      valuesFiles: [charts/web/values.yaml, clusters/prod/web-values.yaml]']);
    const files = new Map([...WEB, ['clusters/prod/web.yaml', release], ['clusters/prod/web-values.yaml', prod]]);
    const result = codifyOn(files, FLUX, [setImage('ghcr.io/example/web:1.5')]);
    expect(result.reported).toEqual([]);
    expect([...result.edits.keys()]).toEqual(['clusters/prod/web-values.yaml']);
    expect(result.edits.get('clusters/prod/web-values.yaml')).toBe(
      '# production values\nimage:\n  tag: "1.5" # pinned\n',
    );
  });

  it('a value that sets another object too is reported with the place tried, and nothing is written', () => {
    const release = helmRelease(['  values:', '    replicaCount: 2'], [], 'webapp');
    const files = new Map([...WEBAPP, ['clusters/prod/webapp.yaml', release]]);
    const result = codifyOn(files, FLUX, [scale('webapp', 5)]);
    expect(result.edits.size).toBe(0);
    expect(result.reported).toEqual([
      expect.objectContaining({
        key: expect.objectContaining({ kind: 'Deployment', name: 'webapp' }),
        reason: expect.stringMatching(
          /^set by the chart of HelmRelease shop\/webapp: no one chart value renders exactly the live value and nothing else: replicaCount: 5 in spec\.values of HelmRelease shop\/webapp \(would also change Widget\/shop\/webapp \/spec\/size to 5\); change the right one by hand$/,
        ),
      }),
    ]);
  });

  it('when the other object was changed the same way by hand, both are codified into the one value', () => {
    const release = helmRelease(['  values:', '    replicaCount: 2'], [], 'webapp');
    const files = new Map([...WEBAPP, ['clusters/prod/webapp.yaml', release]]);
    const widget: HandChange = {
      kind: 'Widget',
      name: 'webapp',
      segments: ['spec', 'size'],
      value: 5,
      manager: 'kubectl-edit',
    };
    const result = codifyOn(files, FLUX, [scale('webapp', 5), widget]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(changedLines(release, result.edits.get('clusters/prod/webapp.yaml')!)).toEqual({
      removed: ['    replicaCount: 2'],
      added: ['    replicaCount: 5'],
    });
    expect(result.codified.map((entry) => entry.key.kind).sort()).toEqual(['Deployment', 'Widget']);
  });
});

describe('Argo CD Application with a Helm source', () => {
  const shopValues = '# the shop\nreplicaCount: 3\n';

  it('kubectl scale goes to the values file, kubectl set image to the parameter that sets the tag', () => {
    const app = webHelmApp([
      '      valueFiles: [values-shop.yaml]',
      '      parameters:',
      '        - name: image.tag',
      '          value: "1.2"',
    ]);
    const files = new Map([...WEB, ['charts/web/values-shop.yaml', shopValues], ['clusters/prod/web.yaml', app]]);
    const result = codifyOn(files, ARGO, [scale('web-web', 5), setImage('ghcr.io/example/web:1.3')]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(result.edits.get('charts/web/values-shop.yaml')).toBe('# the shop\nreplicaCount: 5\n');
    expect(changedLines(app, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['          value: "1.2"'],
      added: ['          value: "1.3"'],
    });
  });

  it('multi-source: the $values file of a ref source takes the scale, the parameter of spec.sources[0] the tag', () => {
    const app = argoApplication([
      '  sources:',
      '    - repoURL: https://github.com/acme/gitops.git',
      '      targetRevision: main',
      '      path: charts/web',
      '      helm:',
      '        valueFiles: [$values/envs/prod/web-values.yaml]',
      '        parameters:',
      '          - name: image.tag',
      '            value: "1.2"',
      '    - repoURL: https://github.com/acme/gitops.git',
      '      targetRevision: main',
      '      ref: values',
    ]);
    const files = new Map([...WEB, ['envs/prod/web-values.yaml', shopValues], ['clusters/prod/web.yaml', app]]);
    const result = codifyOn(files, ARGO, [scale('web-web', 5), setImage('ghcr.io/example/web:1.3')]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(result.edits.get('envs/prod/web-values.yaml')).toBe('# the shop\nreplicaCount: 5\n');
    expect(changedLines(app, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['            value: "1.2"'],
      added: ['            value: "1.3"'],
    });
  });

  it('valuesObject takes a change it sets, and a value only the chart default sets', () => {
    const app = webHelmApp(['      valuesObject:', '        replicaCount: 2 # two zones']);
    const files = new Map([...WEB, ['clusters/prod/web.yaml', app]]);
    const result = codifyOn(files, ARGO, [scale('web-web', 4), setImage('ghcr.io/example/web:1.1')]);
    expect(result.reported).toEqual([]);
    expect(changedLines(app, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['        replicaCount: 2 # two zones'],
      added: ['        replicaCount: 4 # two zones', '        image:', '          tag: "1.1"'],
    });
  });
});

describe('kustomize helmCharts (Argo CD with --enable-helm)', () => {
  it('valuesInline takes the scale and the image tag it sets, and no other file is edited', () => {
    const input = chartFiles('kustomize-helm-oracle/local-chart/input', 'apps/web');
    const app = argoApplication([
      '  source: {repoURL: https://github.com/acme/gitops.git, targetRevision: main, path: apps/web}',
    ]);
    const files = new Map([...input, ['clusters/prod/web.yaml', app]]);
    const image: HandChange = { ...setImage('ghcr.io/example/web:1.5'), name: 'storefront-web' };
    const changes = [scale('storefront-web', 6), image];
    const result = codifyOn(files, ARGO, changes, [ENABLE_HELM]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits.keys()]).toEqual(['apps/web/kustomization.yaml']);
    const before = input.get('apps/web/kustomization.yaml')!;
    expect(changedLines(before, result.edits.get('apps/web/kustomization.yaml')!)).toEqual({
      removed: ['      replicaCount: 3', '        tag: "1.4"'],
      added: ['      replicaCount: 6', '        tag: "1.5"'],
    });
  });
});

describe('a chart of a Helm repository (its archive in the charts directory)', () => {
  const remote = createChartRenderer({ helm: found.helm, chartsDir: packagedChart(WEB_FIXTURE) });

  it('Flux: a value only the chart default sets is added to spec.values, proven by Helm', () => {
    const repository =
      'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: acme, namespace: shop}\nspec:\n  url: https://charts.acme.example\n';
    const release = helmRelease(['  values:', '    replicaCount: 2']).replace(
      '      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
      '      chart: web\n      version: 1.2.3\n      sourceRef: {kind: HelmRepository, name: acme}',
    );
    const files = new Map([
      ['clusters/prod/repo.yaml', repository],
      ['clusters/prod/web.yaml', release],
    ]);
    const result = codifyOn(files, FLUX, [setImage('ghcr.io/example/web:1.1')], [], remote);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(changedLines(release, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: [],
      added: ['    image:', '      tag: "1.1"'],
    });
  });

  it('Flux: a value a values file of the archive sets (chart.spec.valuesFiles) is added to spec.values, the archive untouched', () => {
    // values-prod.yaml of the webapp archive sets image.tag 2.1.1: a file of the archive can never be edited.
    const webapp = createChartRenderer({ helm: found.helm, chartsDir: packagedChart('charts/webapp') });
    const repository =
      'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: acme, namespace: shop}\nspec:\n  url: https://charts.acme.example\n';
    const release = helmRelease(['  values:', '    featureFlag: "no"'], [], 'webapp').replace(
      '      chart: ./charts/webapp\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
      '      chart: webapp\n      version: 1.4.0\n      valuesFiles: [values.yaml, values-prod.yaml]\n      sourceRef: {kind: HelmRepository, name: acme}',
    );
    const files = new Map([
      ['clusters/prod/repo.yaml', repository],
      ['clusters/prod/webapp.yaml', release],
    ]);
    const image: PathSegment[] = ['spec', 'template', 'spec', 'containers', { key: { name: 'webapp' } }, 'image'];
    const change = { kind: 'Deployment', name: 'webapp', segments: image, value: 'ghcr.io/example/webapp:2.2.0' };
    const result = codifyOn(files, FLUX, [{ ...change, manager: 'kubectl-set' }], [], webapp);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits.keys()]).toEqual(['clusters/prod/webapp.yaml']);
    expect(changedLines(release, result.edits.get('clusters/prod/webapp.yaml')!)).toEqual({
      removed: [],
      added: ['    image:', '      tag: 2.2.0'],
    });
  });

  it('Argo CD: a value only the chart default sets is added to valuesObject', () => {
    const app = argoApplication([
      '  source:',
      '    repoURL: https://charts.acme.example',
      '    chart: web',
      '    targetRevision: 1.2.3',
      '    helm:',
      '      valuesObject:',
      '        replicaCount: 2',
    ]);
    const files = new Map([['clusters/prod/web.yaml', app]]);
    const result = codifyOn(files, ARGO, [scale('web-web', 3), setImage('ghcr.io/example/web:1.1')], [], remote);
    expect(result.reported).toEqual([]);
    expect(changedLines(app, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['        replicaCount: 2'],
      added: ['        replicaCount: 3', '        image:', '          tag: "1.1"'],
    });
  });

  it('kustomize helmCharts: a value only the chart default sets is added to valuesInline', () => {
    const kustomization = [
      'helmCharts:',
      '  - name: web',
      '    repo: https://charts.acme.example',
      '    version: 1.2.3',
      '    releaseName: web',
      '    namespace: shop',
      '    valuesInline:',
      '      replicaCount: 2',
      '',
    ].join('\n');
    const app = argoApplication([
      '  source: {repoURL: https://github.com/acme/gitops.git, targetRevision: main, path: apps/web}',
    ]);
    const files = new Map([
      ['apps/web/kustomization.yaml', kustomization],
      ['clusters/prod/web.yaml', app],
    ]);
    const result = codifyOn(files, ARGO, [setImage('ghcr.io/example/web:1.1')], [ENABLE_HELM], remote);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(changedLines(kustomization, result.edits.get('apps/web/kustomization.yaml')!)).toEqual({
      removed: [],
      added: ['      image:', '        tag: "1.1"'],
    });
  });
});

describe('values held as YAML text: Argo CD helm.values, Flux valuesFrom ConfigMaps', () => {
  /** Flux's kustomizeconfig.yaml: a generated ConfigMap's hashed name follows into spec.valuesFrom. */
  const KUSTOMIZE_CONFIG = [
    'nameReference:',
    '  - kind: ConfigMap',
    '    version: v1',
    '    fieldSpecs:',
    '      - path: spec/valuesFrom/name',
    '        kind: HelmRelease',
    '',
  ].join('\n');
  const withValuesFrom = (refs: string[], values: string[] = []) =>
    helmRelease(values).replace('  interval: 10m\n', `  interval: 10m\n  valuesFrom:\n${refs.join('\n')}\n`);
  /** A `valuesFrom` entry reading the generated ConfigMap's `key` as the value at `targetPath`. */
  const targetPath = (key: string, path: string) =>
    `    - {kind: ConfigMap, name: web-values, valuesKey: ${key}, targetPath: ${path}}`;
  const WHOLE_VALUES = ['    - kind: ConfigMap', '      name: web-values'];
  /**
   * Flux's values from a configMapGenerator: clusters/prod/kustomization.yaml generates ConfigMap
   * shop/web-values from `entry` (its files, literals or envs lines), with the content hash and
   * kustomizeconfig.yaml's nameReference (`hashed`) or without the hash; the HelmRelease reads it
   * through `refs`; `more` are further files of clusters/prod.
   */
  function generatorRepo(entry: string[], refs: string[], more: Record<string, string> = {}, hashed = true) {
    const kustomization = [
      'resources: [web.yaml]',
      'configMapGenerator:',
      '  - name: web-values',
      '    namespace: shop',
      ...entry,
      hashed ? 'configurations: [kustomizeconfig.yaml]' : '    options: {disableNameSuffixHash: true}',
      '',
    ].join('\n');
    const files = new Map([
      ...WEB,
      ['clusters/prod/kustomization.yaml', kustomization],
      ...(hashed ? [['clusters/prod/kustomizeconfig.yaml', KUSTOMIZE_CONFIG] as const] : []),
      ['clusters/prod/web.yaml', withValuesFrom(refs)],
      ...Object.entries(more).map(([name, text]) => [`clusters/prod/${name}`, text] as const),
    ]);
    return { kustomization, files };
  }
  const VALUES = '# shop values\nreplicaCount: 2\n';
  /** ConfigMap shop/web-values of a plain manifest; `data` are the lines under its `data:`. */
  const valuesConfigMap = (data: string[]) =>
    ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: web-values, namespace: shop}', 'data:', ...data, ''].join(
      '\n',
    );

  it('Argo CD: the helm.values text is edited inside its block, the rest byte for byte', () => {
    const app = webHelmApp([
      '      values: |- # the shop',
      '        # two zones',
      '        replicaCount: 2',
      '',
      '        service: {}',
    ]);
    const files = new Map([...WEB, ['clusters/prod/web.yaml', app]]);
    const result = codifyOn(files, ARGO, [scale('web-web', 4), setImage('ghcr.io/example/web:1.1')]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(changedLines(app, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['        replicaCount: 2'],
      added: ['        replicaCount: 4', '        image:', '          tag: "1.1"'],
    });
  });

  it('Argo CD: a folded helm.values text is not edited; the change is reported with the place and why', () => {
    const app = webHelmApp(['      values: >', '        replicaCount: 2']);
    const files = new Map([...WEB, ['clusters/prod/web.yaml', app]]);
    const result = codifyOn(files, ARGO, [scale('web-web', 4)]);
    expect(result.edits.size).toBe(0);
    expect(result.reported).toEqual([
      expect.objectContaining({
        reason:
          'set by the chart of Application argocd/web: no one chart value renders exactly the live value and nothing else: replicaCount: 4 in helm.values of Application argocd/web (clusters/prod/web.yaml: the values text is not a literal block scalar (|), so it is not edited); change the right one by hand',
      }),
    ]);
  });

  it('Flux: a ConfigMap manifest’s values.yaml text, under spec.values that sets other values', () => {
    const configMap = valuesConfigMap([
      '  values.yaml: |',
      '    replicaCount: 2 # peak',
      '    image:',
      '      tag: "1.0"',
    ]);
    const release = withValuesFrom(
      ['    - kind: ConfigMap', '      name: web-values'],
      ['  values:', '    service: {}'],
    );
    const files = new Map([...WEB, ['clusters/prod/web.yaml', release], ['clusters/prod/web-values.yaml', configMap]]);
    const result = codifyOn(files, FLUX, [scale('web-web', 6), setImage('ghcr.io/example/web:1.2')]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits.keys()]).toEqual(['clusters/prod/web-values.yaml']);
    expect(changedLines(configMap, result.edits.get('clusters/prod/web-values.yaml')!)).toEqual({
      removed: ['    replicaCount: 2 # peak', '      tag: "1.0"'],
      added: ['    replicaCount: 6 # peak', '      tag: "1.2"'],
    });
    expect(result.codified.map((entry) => entry.chartValue)).toEqual([
      expect.objectContaining({
        path: ['replicaCount'],
        where: 'data.values.yaml',
        object: 'ConfigMap shop/web-values',
        source: 'HelmRelease shop/web',
      }),
      expect.objectContaining({ path: ['image', 'tag'], where: 'data.values.yaml' }),
    ]);
  });

  it('Flux precedence: spec.values over valuesFrom, the later valuesFrom over the earlier; targetPath and valuesKey', () => {
    const configMap = valuesConfigMap([
      '  base.yaml: |',
      '    replicaCount: 2',
      '    image: {tag: "1.0"}',
      '  tag: "1.3"',
    ]);
    const release = withValuesFrom(
      [
        '    - {kind: ConfigMap, name: web-values, valuesKey: base.yaml}',
        '    - {kind: ConfigMap, name: web-values, valuesKey: tag, targetPath: image.tag}',
      ],
      ['  values:', '    replicaCount: 3'],
    );
    const files = new Map([...WEB, ['clusters/prod/web.yaml', release], ['clusters/prod/web-values.yaml', configMap]]);
    const result = codifyOn(files, FLUX, [scale('web-web', 5), setImage('ghcr.io/example/web:1.4')]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(changedLines(release, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['    replicaCount: 3'],
      added: ['    replicaCount: 5'],
    });
    expect(changedLines(configMap, result.edits.get('clusters/prod/web-values.yaml')!)).toEqual({
      removed: ['  tag: "1.3"'],
      added: ['  tag: "1.4"'],
    });
  });

  it('Flux: a ConfigMap a configMapGenerator makes from values.yaml: that file is edited', () => {
    const entry = ['    files: [values.yaml=web-values.yaml]'];
    const { files } = generatorRepo(entry, WHOLE_VALUES, { 'web-values.yaml': VALUES }, false);
    const result = codifyOn(files, FLUX, [scale('web-web', 7)]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits]).toEqual([['clusters/prod/web-values.yaml', '# shop values\nreplicaCount: 7\n']]);
    expect(renderCodifyText(result)).toContain(
      'replicaCount in clusters/prod/web-values.yaml (chart value of HelmRelease shop/web)',
    );
  });
  it('Flux: a hashed configMapGenerator ConfigMap (nameReference on spec/valuesFrom/name): the values file is edited', () => {
    // Flux's helm-values-from-configmap pattern: the generated name keeps its hash, kustomizeconfig.yaml
    // makes kustomize rewrite the HelmRelease's reference, so a values change rolls out a new ConfigMap.
    const { files } = generatorRepo(['    files: [values.yaml=web-values.yaml]'], WHOLE_VALUES, {
      'web-values.yaml': VALUES,
    });
    const result = codifyOn(files, FLUX, [scale('web-web', 7)]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits]).toEqual([['clusters/prod/web-values.yaml', '# shop values\nreplicaCount: 7\n']]);
    // The drift PR's plan: Flux applies the new ConfigMap and the HelmRelease naming it, and prunes the old one.
    const { config, cluster, snapshot } = result.input;
    const render = (tree: Map<string, string>) => renderCluster(tree, cluster!, { live: snapshot, charts }).objects;
    const head = render(new Map([...files, ...result.edits]));
    const base = render(files);
    const plan = planChanges({ head, base, live: snapshot.items, config, cluster, now: '2026-12-02T04:05:00Z' });
    const names = (entries: { id: { kind: string; name: string } }[]) =>
      entries.map((e) => `${e.id.kind}/${e.id.name}`);
    const configMap = (desired: typeof head) => desired.find((o) => o.key.name.startsWith('web-values-'))!.key.name;
    expect(configMap(head)).not.toBe(configMap(base));
    expect(names(plan.create)).toEqual([`ConfigMap/${configMap(head)}`]);
    expect(names(plan.update)).toEqual(['HelmRelease/web']);
    expect(names(plan.prune)).toEqual([`ConfigMap/${configMap(base)}`]);
  });
  it('Flux targetPath: the literals entry and the envs file line of a hashed configMapGenerator, byte for byte', () => {
    const env = '# scale of the shop\r\nreplicas=2\r\nzone=eu\r\n';
    const { kustomization, files } = generatorRepo(
      ['    envs: [web.env]', '    literals:', '      - tag="1.3" # pinned'],
      [targetPath('replicas', 'replicaCount'), targetPath('tag', 'image.tag')],
      { 'web.env': env },
    );
    const result = codifyOn(files, FLUX, [scale('web-web', 5), setImage('ghcr.io/example/web:1.4')]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits.keys()].sort()).toEqual(['clusters/prod/kustomization.yaml', 'clusters/prod/web.env']);
    expect(result.edits.get('clusters/prod/web.env')).toBe('# scale of the shop\r\nreplicas=5\r\nzone=eu\r\n');
    expect(changedLines(kustomization, result.edits.get('clusters/prod/kustomization.yaml')!)).toEqual({
      removed: ['      - tag="1.3" # pinned'],
      added: ['      - tag="1.4" # pinned'],
    });
  });
  describe('a hashed values ConfigMap edited live as well: the chart value goes to its source, its own drift is reported', () => {
    const { files } = generatorRepo(['    files: [values.yaml=web-values.yaml]'], WHOLE_VALUES, {
      'web-values.yaml': VALUES,
    });
    const liveValues = (text: string): HandChange => ({
      kind: 'ConfigMap',
      name: 'web-values',
      hashed: true,
      segments: ['data', 'values.yaml'],
      value: text,
      manager: 'kubectl-edit',
    });
    const CONFIGMAP = expect.objectContaining({ kind: 'ConfigMap', name: expect.stringMatching(/^web-values-/) });
    /** The values file, as the reasons name it: with the generated ConfigMap the HelmRelease reads. */
    const labelOf = (result: { reported: Array<{ key: { kind: string; name: string } }> }) =>
      `clusters/prod/web-values.yaml (valuesFrom ConfigMap shop/${result.reported.find((entry) => entry.key.kind === 'ConfigMap')!.key.name} key values.yaml)`;

    it('the same edit (helm-controller rolled out the edited ConfigMap): one edit of the values file codifies both', () => {
      const result = codifyOn(files, FLUX, [scale('web-web', 7), liveValues('# shop values\nreplicaCount: 7\n')]);
      expect(result.reported).toEqual([]);
      expect(result.check).toEqual({ ok: true });
      expect([...result.edits]).toEqual([['clusters/prod/web-values.yaml', '# shop values\nreplicaCount: 7\n']]);
      expect(result.codified.map((entry) => [entry.key.kind, entry.change?.path, entry.file, entry.line])).toEqual([
        ['Deployment', '/spec/replicas', 'clusters/prod/web-values.yaml', 2],
        ['ConfigMap', '/data/values.yaml', 'clusters/prod/web-values.yaml', 2],
      ]);
    });

    it.each([
      ['another line only', '# shop values\nreplicaCount: 2\nservice: {type: NodePort}\n'],
      ['the same value and another line', '# shop values\nreplicaCount: 7\nservice: {type: NodePort}\n'],
    ])('its own drift on %s: the values file takes the chart value, the ConfigMap is reported', (_, live) => {
      const result = codifyOn(files, FLUX, [scale('web-web', 7), liveValues(live)]);
      const LABEL = labelOf(result);
      expect(result.check).toEqual({ ok: true });
      expect([...result.edits]).toEqual([['clusters/prod/web-values.yaml', '# shop values\nreplicaCount: 7\n']]);
      expect(result.codified).toEqual([
        expect.objectContaining({
          key: expect.objectContaining({ kind: 'Deployment' }),
          file: 'clusters/prod/web-values.yaml',
        }),
      ]);
      expect(result.reported).toEqual([
        expect.objectContaining({
          key: CONFIGMAP,
          change: expect.objectContaining({ path: '/data/values.yaml' }),
          reason: `its other live changes are not written: only replicaCount: 7 in ${LABEL} is, for Deployment/shop/web-web /spec/replicas, and the controller applies what Git holds; make them in ${LABEL} by hand to keep them`,
        }),
      ]);
    });

    it('the two disagree on the same value: nothing is written, both are reported with the places', () => {
      const result = codifyOn(files, FLUX, [scale('web-web', 7), liveValues('# shop values\nreplicaCount: 4\n')]);
      expect(result.edits.size).toBe(0);
      expect(result.codified).toEqual([]);
      const configMap = result.reported.find((entry) => entry.key.kind === 'ConfigMap')!;
      const LABEL = labelOf(result);
      expect(result.reported).toEqual([
        expect.objectContaining({
          key: CONFIGMAP,
          reason: `edited live, and the live Deployment/shop/web-web /spec/replicas disagrees: replicaCount: 7 in ${LABEL} renders it; change the right one by hand`,
        }),
        expect.objectContaining({
          key: expect.objectContaining({ kind: 'Deployment' }),
          reason: `set by the chart of HelmRelease shop/web: replicaCount: 7 in ${LABEL} renders the live value, but the live ConfigMap/shop/${configMap.key.name} says replicaCount: 4 (edited there too); change the right one by hand`,
        }),
      ]);
    });
  });

  describe('a ConfigMap manifest of values text edited live as well: one edit of its text, or both reported', () => {
    const configMap = valuesConfigMap(['  values.yaml: |', '    # shop values', '    replicaCount: 2 # peak']);
    const files = new Map([
      ...WEB,
      ['clusters/prod/web.yaml', withValuesFrom(WHOLE_VALUES)],
      ['clusters/prod/web-values.yaml', configMap],
    ]);
    const LABEL = 'valuesFrom ConfigMap shop/web-values key values.yaml';
    const liveValues = (text: string): HandChange => ({
      kind: 'ConfigMap',
      name: 'web-values',
      segments: ['data', 'values.yaml'],
      value: text,
      manager: 'kubectl-edit',
    });
    const written = (result: ReturnType<typeof codifyOn>) =>
      result.codified.map((entry) => [entry.key.kind, entry.change?.path, entry.file, entry.line]);

    it('the same edit: the values text is written once, and both changes point at its line', () => {
      const result = codifyOn(files, FLUX, [
        scale('web-web', 7),
        liveValues('# shop values\nreplicaCount: 7 # peak\n'),
      ]);
      expect(result.reported).toEqual([]);
      expect(result.check).toEqual({ ok: true });
      expect([...result.edits]).toEqual([['clusters/prod/web-values.yaml', configMap.replace('2 # peak', '7 # peak')]]);
      expect(written(result)).toEqual([
        ['Deployment', '/spec/replicas', 'clusters/prod/web-values.yaml', 7],
        ['ConfigMap', '/data/values.yaml', 'clusters/prod/web-values.yaml', 7],
      ]);
    });

    it.each([
      ['another line only', '# shop values\nreplicaCount: 2 # peak\nservice: {type: NodePort}\n'],
      ['the same value and another line', '# shop values\nreplicaCount: 7 # peak\nservice: {type: NodePort}\n'],
      ['the same value and another comment', '# shop values, scaled\nreplicaCount: 7 # peak\n'],
    ])('its own drift on %s: the chart value alone is written, the rest reported', (_, live) => {
      const result = codifyOn(files, FLUX, [scale('web-web', 7), liveValues(live)]);
      expect(result.check).toEqual({ ok: true });
      expect([...result.edits]).toEqual([['clusters/prod/web-values.yaml', configMap.replace('2 # peak', '7 # peak')]]);
      expect(written(result)).toEqual([['Deployment', '/spec/replicas', 'clusters/prod/web-values.yaml', 7]]);
      expect(result.reported).toEqual([
        expect.objectContaining({
          key: expect.objectContaining({ kind: 'ConfigMap', name: 'web-values' }),
          change: expect.objectContaining({ path: '/data/values.yaml' }),
          reason: `its other live changes are not written: only replicaCount: 7 in ${LABEL} is, for Deployment/shop/web-web /spec/replicas, and the controller applies what Git holds; make them in ${LABEL} by hand to keep them`,
        }),
      ]);
    });

    it('the two disagree on the same value: neither is written, both are reported with the places', () => {
      const result = codifyOn(files, FLUX, [
        scale('web-web', 7),
        liveValues('# shop values\nreplicaCount: 4 # peak\n'),
      ]);
      expect(result.edits.size).toBe(0);
      expect(result.codified).toEqual([]);
      expect(result.reported).toEqual([
        expect.objectContaining({
          key: expect.objectContaining({ kind: 'ConfigMap', name: 'web-values' }),
          reason: `edited live, and the live Deployment/shop/web-web /spec/replicas disagrees: replicaCount: 7 in ${LABEL} renders it; change the right one by hand`,
        }),
        expect.objectContaining({
          key: expect.objectContaining({ kind: 'Deployment' }),
          reason: `set by the chart of HelmRelease shop/web: replicaCount: 7 in ${LABEL} renders the live value, but the live ConfigMap/shop/web-values says replicaCount: 4 (edited there too); change the right one by hand`,
        }),
      ]);
    });
  });

  const greeting = (value: string): HandChange => ({
    kind: 'ConfigMap',
    name: 'web-web-settings',
    segments: ['data', 'greeting'],
    value,
    manager: 'kubectl-edit',
  });
  it('Flux targetPath: literals entries written as quoted YAML strings keep their quotes, byte for byte', () => {
    const { kustomization, files } = generatorRepo(
      ['    literals:', '      - "replicas=2" # two zones', "      - 'greeting=hello'"],
      [targetPath('replicas', 'replicaCount'), targetPath('greeting', 'settings.greeting')],
      {},
      false,
    );
    const result = codifyOn(files, FLUX, [scale('web-web', 5), greeting(`it's "on"`)]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits.keys()]).toEqual(['clusters/prod/kustomization.yaml']);
    expect(changedLines(kustomization, result.edits.get('clusters/prod/kustomization.yaml')!)).toEqual({
      removed: ['      - "replicas=2" # two zones', "      - 'greeting=hello'"],
      added: ['      - "replicas=5" # two zones', `      - 'greeting=it''s "on"'`],
    });
  });
  it.each([
    ['a double-quoted entry escapes a quote', '["greeting=hello"]', 'say "hi"', '["greeting=say \\"hi\\""]'],
    [
      "kustomize's own quotes inside a single-quoted entry stay",
      `['greeting="hello"']`,
      "it's",
      `['greeting="it''s"']`,
    ],
    [
      'a single-quoted entry that cannot hold a line break is double-quoted',
      "['greeting=hello', 'tag=1.0']",
      'hello\nworld',
      `["greeting=hello\\nworld", 'tag=1.0']`,
    ],
    [
      'a plain entry whose value would read as a comment is double-quoted',
      '[greeting=hello]',
      'hi #1',
      '["greeting=hi #1"]',
    ],
  ])('Flux targetPath: %s, proven by rendering again', (_, literals, live, expected) => {
    const repo = (entries: string) =>
      generatorRepo([`    literals: ${entries}`], [targetPath('greeting', 'settings.greeting')]);
    const { files } = repo(literals);
    const result = codifyOn(files, FLUX, [greeting(live)]);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect([...result.edits]).toEqual([['clusters/prod/kustomization.yaml', repo(expected).kustomization]]);
  });
});

describe('a chart of an OCI registry (fetched by driftback, as Flux pulls it)', () => {
  let registry: OciSession;
  let fetching: ReturnType<typeof createChartRenderer>;
  beforeAll(async () => {
    registry = openOciSession(await startRegistry());
    const packaged = registry.tempDir('charts-');
    registry.helm(['package', join(REPO_ROOT, 'test/fixtures', WEB_FIXTURE), '-d', packaged]);
    registry.push(join(packaged, readdirSync(packaged)[0]!), 'charts');
    fetching = createChartRenderer({ helm: found.helm, fetch: registry.options() });
  });
  afterAll(() => registry?.stop());

  it("Flux: a value only the OCI chart's default sets is added to spec.values, proven by Helm", () => {
    const repository = `apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: acme, namespace: shop}\nspec:\n  type: oci\n  url: oci://${registry.host}/charts\n`;
    const release = helmRelease(['  values:', '    replicaCount: 2']).replace(
      '      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
      '      chart: web\n      version: 1.2.3\n      sourceRef: {kind: HelmRepository, name: acme}',
    );
    const files = new Map([
      ['clusters/prod/repo.yaml', repository],
      ['clusters/prod/web.yaml', release],
    ]);
    const result = codifyOn(files, FLUX, [scale('web-web', 4), setImage('ghcr.io/example/web:1.1')], [], fetching);
    expect(result.reported).toEqual([]);
    expect(result.check).toEqual({ ok: true });
    expect(changedLines(release, result.edits.get('clusters/prod/web.yaml')!)).toEqual({
      removed: ['    replicaCount: 2'],
      added: ['    replicaCount: 4', '    image:', '      tag: "1.1"'],
    });
  });
});

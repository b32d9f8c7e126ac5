// Flux HelmReleases whose chart is not a path of this repository — `chartRef` to an OCIRepository or a
// HelmChart, `chart.spec` of a HelmRepository — rendered from the offline charts directory at the
// version the cluster runs when HEAD asks for a range, and `postRenderers` kustomize patches and
// images applied to Helm's output, as helm-controller applies them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { chartFiles, packagedChart } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);

/** webapp 1.4.0 (as the fixture is) and 1.5.0, as `helm pull` would have written them. */
const chartsDir = packagedChart('charts/webapp');
execFileSync(
  pinnedHelm(),
  ['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', '1.5.0', '--destination', chartsDir],
  { env: { HOME: mkdtempSync(join(tmpdir(), 'helm-home-')), PATH: '/usr/bin:/bin' } },
);
const charts = createChartRenderer({ helm: found.helm, chartsDir });
const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
const server = { gitVersion: 'v1.32.3', resources: [] };

const release = (spec: string): string =>
  `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  interval: 10m\n${spec}`;

const OCI_REPOSITORY = `apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: webapp
  namespace: shop
spec:
  interval: 10m
  url: oci://ghcr.io/acme/charts/webapp
  ref:
    semver: 1.x
`;

/** The live HelmRelease with what helm-controller records of the installed chart. */
function liveRelease(chartVersion: string): KubeObject {
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: 'webapp', namespace: 'shop' },
    status: {
      lastAttemptedRevision: chartVersion,
      history: [{ name: 'webapp', namespace: 'shop', chartName: 'webapp', chartVersion, status: 'deployed' }],
    },
  };
}

function render(files: Map<string, string>, live: KubeObject[] = []) {
  return renderCluster(files, target, { live: { items: live, server }, charts });
}

const chartLabel = (rendered: ReturnType<typeof render>): string | undefined =>
  rendered.objects.find((d) => d.key.kind === 'Deployment')?.object.metadata?.labels?.['helm.sh/chart'];

describe('a HelmRelease with chartRef to an OCIRepository', () => {
  const files = new Map([
    ['clusters/prod/oci.yaml', OCI_REPOSITORY],
    ['clusters/prod/release.yaml', release('  chartRef:\n    kind: OCIRepository\n    name: webapp\n')],
  ]);

  it('renders the chart the range allows, the newest offline, when the cluster has no release yet', () => {
    const rendered = render(files);
    expect(rendered.errors).toEqual([]);
    expect(chartLabel(rendered)).toBe('webapp-1.5.0');
  });

  it('renders the version the cluster runs while the range allows it', () => {
    expect(chartLabel(render(files, [liveRelease('1.4.0')]))).toBe('webapp-1.4.0');
    // An installed version outside the range is not what HEAD asks for: the range decides.
    expect(chartLabel(render(files, [liveRelease('0.9.0')]))).toBe('webapp-1.5.0');
  });

  it('says why when the OCIRepository pins a manifest digest the charts directory cannot hold', () => {
    const pinned = new Map(files);
    const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
    pinned.set('clusters/prod/oci.yaml', OCI_REPOSITORY.replace('semver: 1.x', `digest: ${digest}`));
    expect(render(pinned).notes.map((n) => n.message)).toContain(
      `HelmRelease shop/webapp: reported, not rendered: chart webapp from oci://ghcr.io/acme/charts is pinned at manifest ${digest}: the charts directory holds versions, so it is fetched (DRIFTBACK_FETCH_CHARTS) or not rendered`,
    );
    pinned.set('clusters/prod/oci.yaml', OCI_REPOSITORY.replace('semver: 1.x', 'digest: sha256:0123'));
    expect(render(pinned).notes.map((n) => n.message)).toContain(
      'HelmRelease shop/webapp: reported, not rendered: OCIRepository shop/webapp: ref.digest sha256:0123 is not a sha256 digest',
    );
  });

  it('takes the semver range over the tag, as source-controller does', () => {
    const both = new Map(files);
    both.set('clusters/prod/oci.yaml', OCI_REPOSITORY.replace('semver: 1.x', 'tag: 1.4.0\n    semver: 1.x'));
    expect(chartLabel(render(both))).toBe('webapp-1.5.0');
  });
});

describe('a HelmRelease with a chart of a HelmRepository', () => {
  const repository =
    'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: acme\n  namespace: shop\nspec:\n  url: https://charts.acme.example\n';
  /** The release with chartRef to HelmChart shop/webapp, declared as `helmChart`. */
  const byChartRef = (helmChart: string) =>
    new Map([
      ['clusters/prod/repo.yaml', repository],
      ['clusters/prod/chart.yaml', helmChart],
      ['clusters/prod/release.yaml', release('  chartRef:\n    kind: HelmChart\n    name: webapp\n')],
    ]);
  it('takes the version from chart.spec, or through chartRef to a HelmChart', () => {
    const bySpec = new Map([
      ['clusters/prod/repo.yaml', repository],
      [
        'clusters/prod/release.yaml',
        release(
          '  chart:\n    spec:\n      chart: webapp\n      version: "~1.4.0"\n      sourceRef:\n        kind: HelmRepository\n        name: acme\n',
        ),
      ],
    ]);
    expect(chartLabel(render(bySpec))).toBe('webapp-1.4.0');
    const helmChart =
      'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmChart\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  chart: webapp\n  version: ">=1.5.0"\n  sourceRef:\n    kind: HelmRepository\n    name: acme\n';
    expect(chartLabel(render(byChartRef(helmChart)))).toBe('webapp-1.5.0');
  });

  const withValuesFiles = (valuesFiles: string, more = '') =>
    new Map([
      ['clusters/prod/repo.yaml', repository],
      [
        'clusters/prod/release.yaml',
        release(
          `  chart:\n    spec:\n      chart: webapp\n      version: 1.4.0\n      valuesFiles: ${valuesFiles}\n${more}      sourceRef:\n        kind: HelmRepository\n        name: acme\n`,
        ),
      ],
    ]);
  const deployment = (rendered: ReturnType<typeof render>) =>
    rendered.objects.find((d) => d.key.kind === 'Deployment')?.object as
      { spec: { replicas: number; template: { spec: { containers: Array<{ image: string }> } } } } | undefined;

  it('renders with chart.spec.valuesFiles of the archive merged in place of its values.yaml', () => {
    // source-controller merges values.yaml and values-prod.yaml of the archive into its values.yaml.
    const rendered = render(withValuesFiles('[values.yaml, values-prod.yaml]'));
    expect(rendered.notRendered ?? []).toEqual([]);
    expect(deployment(rendered)?.spec.replicas).toBe(3);
    expect(deployment(rendered)?.spec.template.spec.containers[0]?.image).toBe('ghcr.io/example/webapp:2.1.1');
  });

  it("fails the chart with source-controller's message when a values file is missing, unless ignoreMissingValuesFiles", () => {
    const missing = render(withValuesFiles('[values.yaml, values-staging.yaml]'));
    expect(missing.objects.map((d) => d.key.kind)).toEqual(['HelmRelease', 'HelmRepository']);
    expect(missing.notRendered?.map((n) => n.reason)).toEqual([
      "values files merge error: failed to merge chart values: no values file found at path 'values-staging.yaml'",
    ]);
    const ignored = render(
      withValuesFiles('[values.yaml, values-staging.yaml]', '      ignoreMissingValuesFiles: true\n'),
    );
    expect(deployment(ignored)?.spec.replicas).toBe(1);
  });

  it("reads the HelmChart's spec.valuesFiles through chartRef", () => {
    const helmChart =
      'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmChart\nmetadata: {name: webapp, namespace: shop}\nspec:\n  chart: webapp\n  version: 1.4.0\n  valuesFiles: [values.yaml, values-prod.yaml]\n  sourceRef: {kind: HelmRepository, name: acme}\n';
    expect(deployment(render(byChartRef(helmChart)))?.spec.template.spec.containers[0]?.image).toBe(
      'ghcr.io/example/webapp:2.1.1',
    );
  });
});

describe('a HelmRelease of a chart of this repository with chart.spec.valuesFiles', () => {
  const local = (valuesFiles: string, more = '') =>
    new Map([
      ...chartFiles('charts/webapp', 'charts/webapp'),
      [
        'clusters/prod/release.yaml',
        release(
          `  chart:\n    spec:\n      chart: ./charts/webapp\n      valuesFiles: ${valuesFiles}\n${more}      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n`,
        ),
      ],
    ]);
  const replicas = (rendered: ReturnType<typeof render>) =>
    (rendered.objects.find((d) => d.key.kind === 'Deployment')?.object.spec as { replicas?: number } | undefined)
      ?.replicas;

  it("reads them from the source's root, not the chart's directory, as source-controller does", () => {
    expect(replicas(render(local('[charts/webapp/values.yaml, charts/webapp/values-prod.yaml]')))).toBe(3);
    expect(render(local('[values.yaml, values-prod.yaml]')).notRendered?.map((n) => n.reason)).toEqual([
      "values files merge error: no values file found at path '/values.yaml' (reference 'values.yaml')",
    ]);
  });

  it('skips a missing one with ignoreMissingValuesFiles', () => {
    const files = local('[charts/webapp/values.yaml, values-staging.yaml]', '      ignoreMissingValuesFiles: true\n');
    expect(replicas(render(files))).toBe(1);
  });
});

describe('a HelmRelease with postRenderers', () => {
  const files = chartFiles('charts/webapp', 'charts/webapp');
  const postRenderers = [
    '  postRenderers:',
    '    - kustomize:',
    '        patches:',
    '          - target: {kind: Deployment}',
    '            patch: |',
    '              - op: add',
    '                path: /metadata/annotations',
    '                value: {team: checkout}',
    '        images:',
    '          - name: ghcr.io/example/webapp',
    '            newTag: 9.9.9',
    '    - kustomize:',
    '        patches:',
    '          - patch: |',
    '              apiVersion: v1',
    '              kind: Service',
    '              metadata: {name: webapp}',
    '              spec: {type: NodePort}',
    '',
  ].join('\n');
  files.set(
    'clusters/prod/release.yaml',
    release(
      `  chart:\n    spec:\n      chart: ./charts/webapp\n      sourceRef:\n        kind: GitRepository\n        name: flux-system\n        namespace: flux-system\n${postRenderers}`,
    ),
  );

  it("applies each post-renderer's patches and images, in order, to the chart's objects", () => {
    const rendered = render(files);
    expect(rendered.errors).toEqual([]);
    expect(rendered.notes.filter((n) => n.code === 'unsupported')).toEqual([]);
    const deployment = rendered.objects.find((d) => d.key.kind === 'Deployment')!.object as any;
    expect(deployment.metadata.annotations).toEqual({ team: 'checkout' });
    expect(deployment.spec.template.spec.containers[0].image).toBe('ghcr.io/example/webapp:9.9.9');
    const service = rendered.objects.find((d) => d.key.kind === 'Service' && d.key.name === 'webapp')!;
    expect(service.key.namespace).toBe('shop');
    expect((service.object as any).spec.type).toBe('NodePort');
    expect(service.object.metadata?.labels?.['helm.toolkit.fluxcd.io/name']).toBe('webapp');
  });
});

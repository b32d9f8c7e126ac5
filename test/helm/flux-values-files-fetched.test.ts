// A Flux HelmRelease of a HelmRepository chart fetched over HTTP whose `chart.spec.valuesFiles` name files
// of the archive other than values.yaml: rendered as helm template renders the chart whose values.yaml
// is those files merged (source-controller's build), with the release's own values on top.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { expectSame, helmTemplateObjects } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { serveHelmRepository } from '../support/helm-repository.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);
const helm = found.helm;

const WEBAPP = join(REPO_ROOT, 'test/fixtures/charts/webapp');
/** The chart's values.yaml with its PodDisruptionBudget off, as values-base.yaml of the archive. */
const BASE = readFileSync(join(WEBAPP, 'values.yaml'), 'utf8').replace(
  'podDisruptionBudget:\n  enabled: true',
  'podDisruptionBudget:\n  enabled: false',
);

/** webapp 1.6.0 with values-base.yaml beside values.yaml and values-prod.yaml, packaged and indexed. */
function repositoryDir(): string {
  const chart = mkdtempSync(join(tmpdir(), 'webapp-src-'));
  cpSync(WEBAPP, chart, { recursive: true });
  writeFileSync(join(chart, 'values-base.yaml'), BASE);
  const dir = mkdtempSync(join(tmpdir(), 'helm-repo-'));
  const env = { HOME: mkdtempSync(join(tmpdir(), 'helm-home-')), PATH: '/usr/bin:/bin' };
  execFileSync(pinnedHelm(), ['package', chart, '--version', '1.6.0', '--destination', dir], { env });
  execFileSync(pinnedHelm(), ['repo', 'index', dir], { env });
  return dir;
}

let server: ChildProcess;
let url = '';
beforeAll(async () => {
  ({ server, url } = await serveHelmRepository(repositoryDir()));
});
afterAll(() => {
  server.kill();
});

const release = (valuesFiles: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: webapp, namespace: shop}
spec:
  values:
    replicaCount: 5
  interval: 10m
  chart:
    spec:
      chart: webapp
      version: 1.6.x
      valuesFiles: ${valuesFiles}
      sourceRef: {kind: HelmRepository, name: acme}
`;

function render(valuesFiles: string) {
  const repository = `apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: acme, namespace: shop}\nspec:\n  url: ${url}\n`;
  const files = new Map([
    ['clusters/prod/repo.yaml', repository],
    ['clusters/prod/webapp.yaml', release(valuesFiles)],
  ]);
  const cacheDir = mkdtempSync(join(tmpdir(), 'chart-cache-'));
  const charts = createChartRenderer({ helm, fetch: { cacheDir, allowPrivate: ['127.0.0.1'] } });
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const live = { items: [], server: { gitVersion: 'v1.32.3', resources: [] } };
  return renderCluster(files, target, { live, charts });
}

describe('a fetched HelmRepository chart with chart.spec.valuesFiles', () => {
  it('renders as helm template does with the listed files of the archive as the chart values.yaml', () => {
    const rendered = render('[values-base.yaml, values-prod.yaml]');
    expect(rendered.notRendered ?? []).toEqual([]);
    const replaced = mkdtempSync(join(tmpdir(), 'values-files-chart-'));
    cpSync(WEBAPP, replaced, { recursive: true });
    writeFileSync(join(replaced, 'values.yaml'), BASE);
    const chartYaml = readFileSync(join(WEBAPP, 'Chart.yaml'), 'utf8');
    writeFileSync(join(replaced, 'Chart.yaml'), chartYaml.replace('version: 1.4.0', 'version: 1.6.0'));
    const oracle = helmTemplateObjects('webapp', replaced, [
      ...['--namespace', 'shop', '--no-hooks', '--include-crds', '--kube-version', 'v1.32.3'],
      ...['--values', join(WEBAPP, 'values-prod.yaml'), '--set', 'replicaCount=5'],
    ]);
    const objects = rendered.objects.map((d) => d.object).filter((o) => !/^Helm(Release|Repository)$/.test(o.kind!));
    expectSame(objects, oracle, 'shop');
    expect(oracle.map((o) => o.kind)).not.toContain('PodDisruptionBudget');
  });

  it("is not rendered, with source-controller's message, when a listed file is not in the archive", () => {
    const rendered = render('[values-base.yaml, values-staging.yaml]');
    expect(rendered.notRendered?.map((n) => n.reason)).toEqual([
      "values files merge error: failed to merge chart values: no values file found at path 'values-staging.yaml'",
    ]);
  });
});

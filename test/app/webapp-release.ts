// The set-up the chart plan tests share: a Flux HelmRelease shop/webapp of the chart at charts/webapp
// (test/fixtures/charts/webapp) in the repository the App plans for cluster prod, and the objects the
// base commit renders with the pinned Helm (what helm-controller applied).
import { expect } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import type { ChartRenderer, KubeObject } from '../../src/core/model/index.js';
import { chartFiles } from '../support/charts.js';

const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n    namespaces: [shop]\n';
const SERVER = { gitVersion: 'v1.32.3', resources: [] };

/** The HelmRelease's text; `spec` are its lines after the chart (`valuesFrom`, `values`). */
export function webappRelease(spec: string[]): string {
  return [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    '  name: webapp',
    '  namespace: shop',
    'spec:',
    '  interval: 10m',
    '  chart:',
    '    spec:',
    '      chart: ./charts/webapp',
    '      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
    ...spec,
    '',
  ].join('\n');
}

/** The chart, the App's config and `release` at clusters/prod/webapp.yaml. */
export function webappRepository(release: string): Map<string, string> {
  const files = chartFiles('charts/webapp', 'charts/webapp');
  files.set('.github/driftback.yml', CONFIG);
  files.set('clusters/prod/webapp.yaml', release);
  return files;
}

/** What `files` render for cluster prod, Helm included: the objects as their controllers applied them. */
export function renderedProd(files: ReadonlyMap<string, string>, charts: ChartRenderer): KubeObject[] {
  const base = renderCluster(
    files,
    { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' },
    { live: { items: [], server: SERVER }, charts },
  );
  expect(base.errors).toEqual([]);
  return base.objects.map(({ object }) => object);
}

// A chart of the repository is handed to Helm with every file of its directory (a packaged subchart,
// an image `.Files.Get` embeds): its render reports all of them as read, rendered or not, so a reader
// that left some unfetched fetches them and renders again; a file the reader would not fetch (over a
// file's or the job's byte limit) leaves that chart not rendered, saying which file and why, while
// the cluster's other sources render.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  fileText,
  notReadFile,
  notReadReason,
  type ChartRenderer,
  type ChartRequest,
} from '../../../src/core/model/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { argoApplication } from '../../support/argo-application.js';

const CHART = [
  ['Chart.yaml', 'apiVersion: v2\nname: web\nversion: 1.0.0\n'],
  ['values.yaml', 'replicaCount: 1\n'],
  ['templates/logo.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: logo\n'],
] as const;
const LOGO = fileText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]));
const TOO_LARGE = notReadReason(5 * 1024 * 1024, { file: 4 * 1024 * 1024 });
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n  namespace: shop\n';
const RELEASE = stringify({
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    interval: '10m',
    chart: {
      spec: {
        chart: './charts/web',
        sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' },
      },
    },
  },
});

/** The chart at charts/web with files/logo.png and charts/cache-0.3.0.tgz as given, a release of it, a plain ConfigMap. */
function repository(declaration: [string, string], extra: { logo: string; subchart: string }): Map<string, string> {
  return new Map<string, string>([
    ...CHART.map(([path, text]): [string, string] => [`charts/web/${path}`, text]),
    ['charts/web/files/logo.png', extra.logo],
    ['charts/web/charts/cache-0.3.0.tgz', extra.subchart],
    declaration,
    ['clusters/prod/plain.yaml', CONFIG_MAP],
  ]);
}

/** A renderer that keeps the requests it is given, and renders the chart's one template, or fails as Helm does. */
function recording(fail?: string): { charts: ChartRenderer; requests: ChartRequest[] } {
  const requests: ChartRequest[] = [];
  const charts: ChartRenderer = (request) => {
    requests.push(request);
    if (fail) return { ok: false, reason: fail };
    return { ok: true, manifest: `---\n# Source: web/templates/logo.yaml\n${CHART[2][1]}` };
  };
  return { charts, requests };
}

const CASES = [
  {
    controller: 'flux' as const,
    declaration: ['clusters/prod/web.yaml', RELEASE] as [string, string],
  },
  {
    controller: 'argocd' as const,
    declaration: [
      'clusters/prod/web.yaml',
      stringify(argoApplication('web', { path: 'charts/web', destination: 'shop' })),
    ] as [string, string],
  },
];
const CHART_PATHS = [
  'charts/web/Chart.yaml',
  'charts/web/charts/cache-0.3.0.tgz',
  'charts/web/files/logo.png',
  'charts/web/templates/logo.yaml',
  'charts/web/values.yaml',
];

function render(controller: 'flux' | 'argocd', files: Map<string, string>, charts: ChartRenderer) {
  const target = { name: 'prod', path: 'clusters/prod', controller, defaultNamespace: 'default' };
  return renderCluster(files, target, { charts, live: { items: [], repository: 'acme/gitops' } });
}

describe.each(CASES)('a chart of the repository ($controller)', ({ controller, declaration }) => {
  it("hands Helm every file of the chart's directory, bytes included, and reports each as read", () => {
    const { charts, requests } = recording();
    const rendered = render(controller, repository(declaration, { logo: LOGO, subchart: LOGO }), charts);
    expect(rendered.notRendered ?? []).toEqual([]);
    const chart = requests[0]?.chart;
    expect(chart?.type === 'files' ? chart.files.get('files/logo.png') : undefined).toBe(LOGO);
    expect(rendered.filesRead).toEqual(expect.arrayContaining(CHART_PATHS));
    expect(rendered.objects.map((desired) => desired.key.name).sort()).toEqual(
      expect.arrayContaining(['logo', 'plain']),
    );
  });

  it('reports every file of the chart as read when Helm fails (a subchart not fetched yet), so it is fetched and rendered again', () => {
    const { charts } = recording(`found in Chart.yaml, but missing in charts/ directory: cache`);
    const rendered = render(controller, repository(declaration, { logo: '', subchart: '' }), charts);
    expect(rendered.notRendered?.map((part) => part.reason)).toEqual([
      'found in Chart.yaml, but missing in charts/ directory: cache',
    ]);
    expect(rendered.filesRead).toEqual(expect.arrayContaining(CHART_PATHS));
  });

  it('a chart file over the byte limit leaves that chart not rendered, naming the file, and Helm is not run', () => {
    const { charts, requests } = recording();
    const files = repository(declaration, { logo: notReadFile(TOO_LARGE), subchart: LOGO });
    const rendered = render(controller, files, charts);
    expect(requests).toEqual([]);
    expect(rendered.notRendered?.map((part) => part.reason)).toEqual([
      `file charts/web/files/logo.png was not read: ${TOO_LARGE}`,
    ]);
    // The cluster's other sources still render.
    expect(rendered.objects.map((desired) => desired.key.name)).toContain('plain');
  });
});

describe('a kustomize helmCharts chart of the repository (Argo CD with --enable-helm)', () => {
  const ENABLE_HELM = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'argocd-cm', namespace: 'argocd' },
    data: { 'kustomize.buildOptions': '--enable-helm' },
  };
  const files = (logo: string) =>
    new Map<string, string>([
      ...CHART.map(([path, text]): [string, string] => [`app/charts/web/${path}`, text]),
      ['app/charts/web/files/logo.png', logo],
      ['app/kustomization.yaml', 'helmCharts:\n  - name: web\n    releaseName: web\n'],
      ['clusters/prod/web.yaml', stringify(argoApplication('web', { path: 'app', destination: 'shop' }))],
    ]);
  const render = (logo: string, charts: ChartRenderer) =>
    renderCluster(
      files(logo),
      { name: 'prod', path: 'clusters/prod', controller: 'argocd', defaultNamespace: 'default' },
      { charts, live: { items: [ENABLE_HELM], repository: 'acme/gitops' } },
    );

  it("hands Helm the chart's bytes and reports its files as read", () => {
    const { charts, requests } = recording();
    const rendered = render(LOGO, charts);
    const chart = requests[0]?.chart;
    expect(chart?.type === 'files' ? chart.files.get('files/logo.png') : undefined).toBe(LOGO);
    expect(rendered.filesRead).toEqual(expect.arrayContaining(['app/charts/web/files/logo.png']));
    expect(rendered.objects.map((desired) => desired.key.name)).toContain('logo');
  });

  it('a chart file over the byte limit leaves the source not rendered, naming the file, and Helm is not run', () => {
    const { charts, requests } = recording();
    const rendered = render(notReadFile(TOO_LARGE), charts);
    expect(requests).toEqual([]);
    expect(rendered.notRendered?.map((part) => part.reason).join('\n')).toContain(
      `file app/charts/web/files/logo.png was not read: ${TOO_LARGE}`,
    );
  });
});

// A chart output served again from the renderer's cache is read once: later renders get copies of
// the objects (a render may stamp or mask them) and charge the job's budget as the first read did.
import { describe, expect, it } from 'vitest';
import { renderChart, type ChartOutput } from '../../../src/core/charts/index.js';
import { renderBudget } from '../../../src/core/manifests/index.js';

const MANIFEST = [
  '---',
  '# Source: app/templates/cm.yaml',
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata:',
  '  name: app',
  'data:',
  '  a: "1"',
  '---',
  '# Source: app/templates/crd.yaml',
  'apiVersion: apiextensions.k8s.io/v1',
  'kind: CustomResourceDefinition',
  'metadata:',
  '  name: widgets.example.com',
  'spec:',
  '  group: example.com',
  '  scope: Cluster',
  '  names: {kind: Widget, plural: widgets}',
  '  versions: [{name: v1, served: true, storage: true}]',
  '---',
  '# Source: app/templates/widget.yaml',
  'apiVersion: example.com/v1',
  'kind: Widget',
  'metadata:',
  '  name: w',
  '',
].join('\n');

function render(output: ChartOutput, budget = renderBudget()) {
  const result = renderChart({
    request: {
      where: 'charts/app',
      chart: { type: 'files', files: new Map() },
      releaseName: 'app',
      namespace: 'shop',
      valueFiles: [],
      set: [],
      apiVersions: [],
      includeCrds: true,
    },
    where: 'charts/app',
    origin: { origin: { type: 'source-transform', source: 'HelmRelease shop/app', transform: 'chart' } },
    charts: () => output,
    budget,
  });
  if (!result.ok) throw new Error(result.reason);
  return result.objects;
}

describe('a cached chart output', () => {
  it('is read once and handed out as copies', () => {
    const output: ChartOutput = { ok: true, manifest: MANIFEST, memo: new Map() };
    const first = render(output);
    expect(output.memo!.size).toBe(1);
    first[0]!.object.data = { a: 'changed by a render' };
    const second = render(output);
    expect(second.map((d) => d.key)).toEqual([
      { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'app' },
      { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', namespace: '', name: 'widgets.example.com' },
      // The chart's own CRD says Widget is cluster-scoped: no release namespace.
      { group: 'example.com', kind: 'Widget', namespace: '', name: 'w' },
    ]);
    expect(second[0]!.object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'app', namespace: 'shop' },
      data: { a: '1' },
    });
    expect(second[0]!.source.fields['']?.origin).toMatchObject({ source: 'HelmRelease shop/app' });
  });

  it('charges the job budget on every read, as the first read did', () => {
    const output: ChartOutput = { ok: true, manifest: MANIFEST, memo: new Map() };
    const once = renderBudget();
    render(output, once);
    const again = renderBudget();
    render(output, again);
    expect(again.used()).toEqual(once.used());
    expect(once.used().documents).toBe(3);
  });
});

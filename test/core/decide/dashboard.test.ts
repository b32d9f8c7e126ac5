// The dashboard as data: each configured cluster's latest snapshot and record → the view; the view
// and the digest last written → one write (with the security label following risky drift) or none.
import { describe, expect, it } from 'vitest';
import { dashboardOf, decideDashboard, type GatheredCluster } from '../../../src/core/decide/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const NOW = '2026-12-02T12:00:00Z';
const cluster = (name: string) => ({ name, staleAfter: '30m' });
const web: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { replicas: 2 },
};
const risky = {
  resource: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
  field: '/spec/template/spec/containers/0/image',
  risk: [{ code: 'image-change', why: 'the image changed in the cluster' }],
};

const prod = (capturedAt: string, record: GatheredCluster['record'] = {}): GatheredCluster => ({
  cluster: cluster('prod'),
  latest: { capturedAt, items: [web] },
  record,
});

describe('dashboardOf', () => {
  it('a cluster that never reported has a section but no gauges; each record’s problems are listed', () => {
    const problem = { file: 'clusters/prod/kustomization.yaml', message: 'not a kustomization' };
    const { view, figures } = dashboardOf(
      [prod('2026-12-02T11:55:00Z', { problems: [problem] }), { cluster: cluster('staging'), record: {} }],
      [],
      NOW,
    );
    expect(view.clusters.map((c) => [c.name, c.lastSnapshotAt, c.resourcesInScope])).toEqual([
      ['prod', '2026-12-02T11:55:00Z', 1],
      ['staging', undefined, 0],
    ]);
    expect(figures.map((f) => f.cluster)).toEqual(['prod']);
    expect(view.configErrors).toEqual([problem]);
  });
});

describe('decideDashboard', () => {
  const view = (capturedAt: string, record: GatheredCluster['record'] = {}, now = NOW) =>
    dashboardOf([prod(capturedAt, record)], [], now).view;
  const first = decideDashboard({ view: view('2026-12-02T11:55:00Z') });

  it.each<[string, () => ReturnType<typeof decideDashboard>, number]>([
    ['none written yet: written', () => first, 1],
    [
      'the same digest: no write',
      () => decideDashboard({ view: view('2026-12-02T11:55:00Z'), written: first.digest }),
      0,
    ],
    [
      'only times moved (a snapshot on time, a later clock): no write',
      () => decideDashboard({ view: view('2026-12-02T12:10:00Z', {}, '2026-12-02T12:12:00Z'), written: first.digest }),
      0,
    ],
    [
      'what it says changed (drift recorded): written',
      () =>
        decideDashboard({
          view: view('2026-12-02T11:55:00Z', { drift: { byCause: { human: 1 } } }),
          written: first.digest,
        }),
      1,
    ],
  ])('%s', (_name, decision, writes) => {
    expect(decision().actions).toHaveLength(writes);
  });

  it('the security label is on while risky drift waits for a decision, and off otherwise', () => {
    expect(first.actions[0]).toMatchObject({
      kind: 'dashboard.write',
      key: 'dashboard',
      title: 'driftback dashboard',
      labels: ['driftback'],
      stateLabels: { add: [], remove: ['driftback:security'] },
    });
    const withRisk = decideDashboard({
      view: view('2026-12-02T11:55:00Z', { drift: { byCause: {}, risky: [risky] } }),
    });
    expect(withRisk.actions[0]!.stateLabels).toEqual({ add: ['driftback:security'], remove: [] });
    expect(withRisk.digest).not.toBe(first.digest);
  });
});

// What a reconcile keeps for the dashboard: drift reported and never codified, with who and when,
// whether or not a pull request opens, each field once.
import { describe, expect, it } from 'vitest';
import { summarizeCluster } from '../../src/app/reconcile/cluster-summary.js';
import { parseConfig } from '../../src/core/config/index.js';
import { reconcileDrift } from '../../src/core/pipeline/index.js';
import { clusterStateSchema } from '../../src/store/state/schemas.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

describe('summarizeCluster: reported, not codified', () => {
  it('keeps hand changes on chart output with who and when, once each, in a shape the state schema accepts', () => {
    const files = scenarioRepository('flux-helm');
    const parsed = parseConfig('clusters:\n  - name: staging\n    path: apps/staging\n');
    if (!parsed.ok) throw new Error('config');
    const config = parsed.config;
    const snapshot = scenarioSnapshot('flux-helm', 'hand-changes');
    const evaluation = reconcileDrift({
      snapshot,
      config,
      cluster: config.clusters![0]!,
      files,
      history: [],
      minSnapshots: 1,
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    const summary = summarizeCluster(evaluation);
    expect(summary.drift?.reported).toContainEqual({
      resource: { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' },
      field: '/spec/template/spec/containers/0/image',
      manager: 'kubectl-set',
      time: '2026-12-01T10:40:00Z',
      reason: expect.stringContaining('managed by Helm release podinfo/podinfo'),
      segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'podinfo' } }, 'image'],
    });
    const ids = summary.drift!.reported!.map((r) => `${r.resource.kind}/${r.resource.name} ${r.field ?? ''}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(clusterStateSchema.safeParse({ drift: summary.drift }).success).toBe(true);
  });
});

describe('summarizeCluster: each item once', () => {
  it('does not count under Ignored what it lists as reported (the suspension switch of an emergency)', () => {
    const files = scenarioRepository('emergency');
    const parsed = parseConfig('clusters:\n  - name: kind-dev\n    path: clusters/kind-dev\n    controller: flux\n');
    if (!parsed.ok) throw new Error('config');
    const config = parsed.config;
    const evaluation = reconcileDrift({
      snapshot: scenarioSnapshot('emergency', 'flux-2-suspended'),
      config,
      cluster: config.clusters![0]!,
      files,
      history: [],
      minSnapshots: 1,
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    const ignoredInDiff = evaluation.diff.resources.flatMap((r) => r.ignored.map((c) => `${r.key.name} ${c.path}`));
    expect(ignoredInDiff).toContain('apps /spec/suspend');
    const summary = summarizeCluster(evaluation);
    expect(summary.drift?.reported?.map((r) => `${r.resource.name} ${r.field}`)).toContain('apps /spec/suspend');
    const counted = summary.ignored!.reduce((n, entry) => n + entry.count, 0);
    expect(counted).toBe(ignoredInDiff.length - 1);
  });
});

describe('summarizeCluster: a source not rendered', () => {
  it('lists a HelmRelease whose chart is not rendered once, without its note again', () => {
    const release =
      'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo\n  namespace: podinfo\nspec:\n  interval: 10m\n  chart:\n    spec:\n      chart: podinfo\n      version: 6.14.1\n      sourceRef:\n        kind: HelmRepository\n        name: podinfo\n---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: podinfo\n  namespace: podinfo\nspec:\n  interval: 1h\n  url: https://stefanprodan.github.io/podinfo\n';
    const parsed = parseConfig('clusters:\n  - name: prod\n    path: clusters/prod\n');
    if (!parsed.ok) throw new Error('config');
    const config = parsed.config;
    const snapshot = { repository: 'acme/gitops', cluster: 'prod', capturedAt: '2026-12-07T05:00:00Z', items: [] };
    const evaluation = reconcileDrift({
      snapshot,
      config,
      cluster: config.clusters![0]!,
      files: new Map([['clusters/prod/release.yaml', release]]),
      history: [],
      minSnapshots: 1,
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    const lines = summarizeCluster(evaluation).drift?.notChecked ?? [];
    expect(lines.filter((line) => line.includes('podinfo'))).toEqual([
      'HelmRelease/podinfo/podinfo: clusters/prod/release.yaml:1 (spec.chart): not rendered: helm not found',
    ]);
  });
});

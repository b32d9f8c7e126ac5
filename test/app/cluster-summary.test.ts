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

// The dashboard lists drift that is reported and never codified, with who changed it and when.
import { describe, expect, it } from 'vitest';
import { renderDashboard, type DashboardCluster } from '../../../src/core/report/index.js';

const cluster = (reported: DashboardCluster['reported']): DashboardCluster => ({
  name: 'staging',
  lastSnapshotAt: '2026-12-01T10:45:00Z',
  staleAfter: '30m',
  resourcesInScope: 30,
  driftByCause: {},
  conflicts: [],
  ignored: [],
  degraded: [],
  reconcilers: [],
  openPullRequests: [],
  ...(reported ? { reported } : {}),
});

describe('dashboard: reported, not codified', () => {
  it('names the object, the field, who, when and why', () => {
    const body = renderDashboard({
      now: '2026-12-01T10:50:00Z',
      configErrors: [],
      clusters: [
        cluster([
          {
            key: { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' },
            path: '/spec/template/spec/containers/0/image',
            manager: 'kubectl-set',
            time: '2026-12-01T10:40:00Z',
            reason:
              "managed by Helm release podinfo/podinfo; change the image in the HelmRelease's `spec.values` instead",
          },
        ]),
      ],
    });
    expect(body).toContain('Reported, not codified (1)');
    const line = body.split('\n').find((l) => l.includes('Deployment/podinfo/podinfo'))!;
    expect(line).toContain('image');
    expect(line).toContain('`kubectl-set`');
    expect(line).toContain('at 10:40 UTC');
    expect(line).toContain('managed by Helm release podinfo/podinfo');
  });

  it('has no such section when nothing is reported', () => {
    const body = renderDashboard({ now: '2026-12-01T10:50:00Z', configErrors: [], clusters: [cluster(undefined)] });
    expect(body).not.toContain('Reported, not codified');
  });
});

// The series one tenant can make are bounded: what a snapshot names (suspended objects) is folded
// into a closed set of kinds, and clusters beyond the cap get no series at all.
import { describe, expect, it } from 'vitest';
import { createMetrics, recordClusterFigures, recordSuspendedSeconds } from '../../src/app/metrics.js';

const NOW = new Date('2026-12-02T12:00:00Z');
const FIGURES = { degraded: 1, suspended: 0, conflicts: 0, driftByCause: {} };

async function lines(metrics: ReturnType<typeof createMetrics>, name: string): Promise<string[]> {
  return (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith(`${name}{`));
}

describe('metric labels a tenant cannot grow', () => {
  it('folds a thousand suspended objects of one cluster into one series per kind, holding the longest', async () => {
    const metrics = createMetrics();
    const suspended = Array.from({ length: 1000 }, (_, i) => ({
      repository: 'acme/platform',
      cluster: 'prod',
      kind: i % 2 === 0 ? ('flux-kustomization' as const) : ('argocd-application' as const),
      since: new Date(NOW.getTime() - (i + 1) * 1000).toISOString(),
    }));
    recordSuspendedSeconds(metrics, suspended, NOW);
    expect(await lines(metrics, 'driftback_suspended_seconds')).toEqual([
      'driftback_suspended_seconds{repository="acme/platform",cluster="prod",kind="flux-kustomization"} 999',
      'driftback_suspended_seconds{repository="acme/platform",cluster="prod",kind="argocd-application"} 1000',
    ]);
    recordSuspendedSeconds(metrics, [], NOW);
    expect(await lines(metrics, 'driftback_suspended_seconds')).toEqual([]);
  });

  it('gives clusters beyond the cap no series, counts what was left out, and keeps updating the others', async () => {
    const metrics = createMetrics({ maxClusterSeries: 3 });
    for (let i = 0; i < 5; i++) recordClusterFigures(metrics, 'acme/platform', `c${i}`, FIGURES);
    recordClusterFigures(metrics, 'ACME/Platform', 'c0', { ...FIGURES, degraded: 7 });
    expect(await lines(metrics, 'driftback_degraded_resources')).toEqual([
      'driftback_degraded_resources{repository="acme/platform",cluster="c0"} 7',
      'driftback_degraded_resources{repository="acme/platform",cluster="c1"} 1',
      'driftback_degraded_resources{repository="acme/platform",cluster="c2"} 1',
    ]);
    expect((await metrics.registry.metrics()).split('\n')).toContain('driftback_metric_series_dropped_total 2');
  });
});

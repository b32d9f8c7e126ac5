// One series per cluster, whoever writes it: a repository whose name has capitals (as the agent and
// GitHub's payloads spell it) is one series under its lower-case name, after a reconcile, a watch
// and a scrape alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { appliedObjects, CLUSTER, gitopsRepository, scaled, snapshotOf } from './live.js';

let h: AppHarness;
let text = '';

/** Every sample of `name` whose labels include `cluster`, as `labels value` lines. */
function series(name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) && line.includes(`cluster="${CLUSTER}"`));
}

beforeAll(async () => {
  const files = gitopsRepository();
  h = await startAppHarness({ owner: 'Acme', repo: 'Platform-GitOps', files });
  const live = appliedObjects(files);
  const upload = await uploadSnapshot(h, snapshotOf(h.repository, scaled(live, 'frontend', 5), '2026-12-02T03:05:00Z'));
  expect(upload.status).toBe(202);
  await drain(h);
  // The scheduled watch, run now: it sets the same gauges from the dashboard's figures.
  await h.app.queue.enqueue('alerts', 'alerts', {});
  await drain(h);
  const response = await fetch(`${h.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  text = await response.text();
}, 60_000);
afterAll(async () => h?.close());

describe('/metrics for a repository named with capitals', () => {
  it('names the repository in lower case on every per-cluster series', () => {
    const perCluster = text.split('\n').filter((line) => line.includes(`cluster="${CLUSTER}"`));
    expect(perCluster.length).toBeGreaterThan(0);
    for (const line of perCluster) expect(line).toContain('repository="acme/platform-gitops"');
  });

  it('has one series per gauge (and per cause), not one per spelling', () => {
    const gauges = [
      'driftback_snapshot_age_seconds',
      'driftback_degraded_resources',
      'driftback_suspended_resources',
      'driftback_conflicts',
    ];
    for (const name of gauges) {
      expect(series(name), name).toHaveLength(1);
    }
    const drift = series('driftback_drift_resources');
    expect(drift.filter((line) => line.includes('cause="human"'))).toHaveLength(1);
    expect(drift.find((line) => line.includes('cause="human"'))).toMatch(/ 1$/);
  });
});

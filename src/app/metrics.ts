// Prometheus metrics (GET /metrics). Labels are bounded: repository and cluster names, causes,
// routes and statuses; resource names only as `source` (a suspended GitOps source: a repository has few).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'driftback_process_' });
  const labels = ['repository', 'cluster'] as const;
  const metrics = {
    registry,
    snapshotAge: new Gauge({ name: 'driftback_snapshot_age_seconds', help: 'Seconds since the latest snapshot of a cluster was captured', labelNames: labels, registers: [registry] }),
    driftResources: new Gauge({ name: 'driftback_drift_resources', help: 'Resources with persistent drift, by cause', labelNames: [...labels, 'cause'], registers: [registry] }),
    conflicts: new Gauge({ name: 'driftback_conflicts', help: 'Fields Git declares that a controller owns', labelNames: labels, registers: [registry] }),
    suspended: new Gauge({ name: 'driftback_suspended_resources', help: 'Suspended reconcilers and workloads', labelNames: labels, registers: [registry] }),
    suspendedSeconds: new Gauge({
      name: 'driftback_suspended_seconds',
      help: 'Seconds a source has been suspended (Flux suspend, Argo CD automated sync off), at scrape time',
      labelNames: [...labels, 'source'], registers: [registry],
    }),
    degraded: new Gauge({ name: 'driftback_degraded_resources', help: 'Resources whose health is Degraded', labelNames: labels, registers: [registry] }),
    reconcileDuration: new Histogram({ name: 'driftback_reconcile_duration_seconds', help: 'Duration of reconcile jobs', labelNames: ['result'], buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120], registers: [registry] }),
    reconcileErrors: new Counter({ name: 'driftback_reconcile_errors_total', help: 'Reconcile jobs that failed', labelNames: labels, registers: [registry] }),
    githubRequests: new Counter({ name: 'driftback_github_requests_total', help: 'GitHub API requests', labelNames: ['route', 'status'], registers: [registry] }),
    githubRateLimitRemaining: new Gauge({ name: 'driftback_github_rate_limit_remaining', help: 'x-ratelimit-remaining of the last GitHub response', registers: [registry] }),
    snapshotsReceived: new Counter({ name: 'driftback_snapshots_received_total', help: 'Snapshot uploads by result', labelNames: ['result'], registers: [registry] }),
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

// The `driftback dashboard` issue of one repository: one issue, found by its marker, rewritten only
// when something it shows changed (the caller decides when to look; the marker hash skips a
// rewrite that would change nothing).
import type { Config, ConfigResult } from '../../core/config/index.js';
import type { SourceProblem } from '../../core/model/index.js';
import {
  DASHBOARD_TITLE,
  type DashboardCluster,
  type DashboardView,
  type TemplateOverrides,
} from '../../core/report/index.js';
import { upsertIssueByMarker, type AppIdentity, type GitHubClient, type IssueResult } from '../../github/index.js';
import type { Store } from '../../store/types.js';
import { splitRepository } from '../github-client.js';
import { recordClusterFigures, type Metrics } from '../metrics.js';
import { dashboardCluster } from './cluster-view.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';

export const DASHBOARD_KEY = 'dashboard';
export const DASHBOARD_LABELS = ['driftback'];
import { SECURITY_LABEL } from '../../core/decide/index.js';

export { SECURITY_LABEL };

export interface DashboardDeps {
  store: Pick<Store, 'latestSnapshot' | 'getState'>;
  metrics: Metrics;
  now: () => Date;
  appIdentity: () => Promise<AppIdentity>;
}

/** What the dashboard shows of each configured cluster, from the store (records the clusters' figures). */
export async function dashboardView(
  deps: Pick<DashboardDeps, 'store' | 'metrics' | 'now'>,
  repository: string,
  config: ConfigResult,
): Promise<DashboardView> {
  const now = deps.now().toISOString();
  const configErrors: SourceProblem[] = config.ok ? [] : [...config.problems];
  const clusters: DashboardCluster[] = [];
  for (const cluster of config.ok ? (config.config.clusters ?? []) : []) {
    const latest = await deps.store.latestSnapshot(repository, cluster.name);
    const key = { kind: 'cluster', repository, cluster: cluster.name } as const;
    const state = (await deps.store.getState(key)) ?? {};
    const { view, figures } = dashboardCluster(cluster, latest?.snapshot, state, now);
    // A cluster that never reported has no series: the config alone cannot make one.
    if (latest) recordClusterFigures(deps.metrics, repository, cluster.name, figures);
    clusters.push(view);
    configErrors.push(...(state.problems ?? []));
  }
  return { now, clusters, configErrors };
}

/** `templates`: the repository's overrides (default: the built-in templates); `view`: when already gathered. */
export async function updateDashboard(
  deps: DashboardDeps,
  octokit: GitHubClient,
  repository: string,
  config: ConfigResult,
  templates?: TemplateOverrides,
  documents: Documents = renderInPlace,
  gathered?: DashboardView,
): Promise<IssueResult> {
  const view = gathered ?? (await dashboardView(deps, repository, config));
  const body = await documents('renderDashboard', view, { templates });
  // The label follows the risky drift: on while any cluster has some waiting for a decision.
  const security = view.clusters.some((cluster) => cluster.risky?.length);
  return upsertIssueByMarker(octokit, {
    ...splitRepository(repository),
    key: DASHBOARD_KEY,
    title: DASHBOARD_TITLE,
    body,
    labels: DASHBOARD_LABELS,
    author: await deps.appIdentity(),
    stateLabels: security ? { add: [SECURITY_LABEL], remove: [] } : { add: [], remove: [SECURITY_LABEL] },
  });
}

/** What the dashboard shows that can change between looks; a new value means a refresh is due. */
export function dashboardFingerprint(
  config: Config | undefined,
  clusters: Array<{ name: string; snapshotId?: string; reconciledAt?: string; stale: boolean }>,
  configProblems: number,
): string {
  return JSON.stringify({
    clusters: clusters.map((c) => [c.name, c.snapshotId ?? '', c.reconciledAt ?? '', c.stale]),
    configProblems,
    configured: config?.clusters?.map((c) => [c.name, c.path, c.staleAfter]) ?? [],
  });
}

// The `driftback dashboard` issue of one repository: one issue, found by its marker. The App gathers
// each configured cluster's latest snapshot, record and comment decisions from its store (`gatherDashboard`), core
// decides whether what it says changed (decideDashboard), and the write is executed here.
import type { ConfigResult } from '../../core/config/index.js';
import { dashboardOf, type DashboardWrite } from '../../core/decide/index.js';
import type { DashboardView, TemplateOverrides } from '../../core/report/index.js';
import { upsertIssueByMarker, type AppIdentity, type GitHubClient, type IssueResult } from '../../github/index.js';
import type { Store } from '../../store/types.js';
import { splitRepository } from '../github-client.js';
import { recordClusterFigures, type Metrics } from '../metrics.js';
import type { Documents } from '../isolation/documents.js';

export interface DashboardDeps {
  store: Pick<Store, 'latestSnapshot' | 'getState' | 'itemDecisions'>;
  metrics: Metrics;
  now: () => Date;
}

/** What the dashboard shows of each configured cluster, from the store (records the clusters' figures). */
export async function gatherDashboard(
  deps: DashboardDeps,
  repository: string,
  config: ConfigResult,
): Promise<DashboardView> {
  const gathered = [];
  for (const cluster of config.ok ? (config.config.clusters ?? []) : []) {
    const latest = await deps.store.latestSnapshot(repository, cluster.name);
    const record = (await deps.store.getState({ kind: 'cluster', repository, cluster: cluster.name })) ?? {};
    const decisions = (await deps.store.itemDecisions(repository, cluster.name)).map(
      ({ action, object, field, reason, by, decidedAt, pullRequest }) => ({
        action,
        object,
        field,
        reason,
        by,
        decidedAt,
        pullRequest,
      }),
    );
    gathered.push({ cluster, record, decisions, ...(latest ? { latest: latest.snapshot } : {}) });
  }
  const { view, figures } = dashboardOf(gathered, config.ok ? [] : config.problems, deps.now().toISOString());
  for (const each of figures) recordClusterFigures(deps.metrics, repository, each.cluster, each.figures);
  return view;
}

/** Writes the dashboard issue a decision asks for, rendered with the repository's templates. */
export async function executeDashboard(
  writer: { octokit: GitHubClient; repository: string; author: AppIdentity; documents: Documents },
  action: DashboardWrite,
  templates: TemplateOverrides,
): Promise<IssueResult> {
  const body = await writer.documents('renderDashboard', action.view, { templates });
  return upsertIssueByMarker(writer.octokit, {
    ...splitRepository(writer.repository),
    key: action.key,
    title: action.title,
    body,
    labels: action.labels,
    author: writer.author,
    stateLabels: action.stateLabels,
  });
}

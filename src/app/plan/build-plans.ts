// The App's door to the plan: a pull request's inputs (the base branch's config, head and base files,
// the changed files, each cluster's latest snapshot) handed to the core's planClusters, the one place
// a plan is assembled (`driftback plan` calls it too). A cluster with no snapshot yet is planned
// against nothing, and the plan says so.
import type { ChartRenderer } from '../../core/charts/index.js';
import type { Config } from '../../core/config/index.js';
import type { RenderBudget } from '../../core/manifests/index.js';
import type { Snapshot } from '../../core/model/index.js';
import { planClusters, type PlannedClusters, type PlanRequest } from '../../core/pipeline/index.js';
import type { ConfigChangeNote } from '../../core/report/index.js';
import type { Store } from '../../store/types.js';

export interface PlanInputs {
  repository: string;
  config: Config;
  headFiles: ReadonlyMap<string, string>;
  baseFiles: ReadonlyMap<string, string>;
  headSha: string;
  changed: readonly string[];
  now: string;
  /** The pull request comes from a fork: private chart repositories' credentials are not used for it. */
  fork?: boolean;
}

/** What planning needs, all of it values: the work a job worker does. */
export interface PlanWork extends PlanInputs {
  /** cluster → its latest snapshot (none yet: planned against nothing). */
  latest: ReadonlyMap<string, Snapshot | undefined>;
}

/** The plans as the App publishes them: what a head render left out is the command line's concern. */
export type BuiltPlans = Omit<PlannedClusters, 'heads' | 'stopped' | 'filesRead'> & {
  /** Files the renders (head and base, every cluster) read: what the blob cache keeps. */
  filesRead?: string[];
  /** Set when the pull request changes the config: what its version would change. */
  configChange?: ConfigChangeNote;
};

/** The latest snapshot of every configured cluster. */
export async function latestSnapshots(
  store: Pick<Store, 'latestSnapshot'>,
  input: PlanInputs,
): Promise<Map<string, Snapshot | undefined>> {
  const latest = new Map<string, Snapshot | undefined>();
  for (const cluster of input.config.clusters ?? [])
    latest.set(cluster.name, (await store.latestSnapshot(input.repository, cluster.name))?.snapshot);
  return latest;
}

/** Every configured cluster as a plan target, with its latest snapshot. */
export function planRequestOf(work: PlanWork): PlanRequest {
  const targets = (work.config.clusters ?? []).map((cluster) => {
    const live = work.latest.get(cluster.name);
    return { render: cluster, cluster, ...(live ? { live } : {}) };
  });
  const { config, headFiles, baseFiles, changed, now, repository, headSha } = work;
  return { config, targets, headFiles, baseFiles, changed, now, repository, headRevision: headSha };
}

/** The plans of every cluster the pull request touches: pure, so a job worker runs it. */
export function planPullRequest(work: PlanWork, budget: RenderBudget, charts?: ChartRenderer): BuiltPlans {
  const { plans, errors, snapshots, filesRead, dataLossConclusion } = planClusters(planRequestOf(work), budget, charts);
  return { plans, errors, snapshots, filesRead, dataLossConclusion };
}

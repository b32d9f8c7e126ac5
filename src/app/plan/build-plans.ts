// Builds the plan of each touched cluster with the core plan pipeline: desired at head and at base
// (the build of the cluster's path), live from the cluster's latest snapshot. Per-cluster problems
// are collected; a cluster with no snapshot yet is planned against nothing, and the plan says so.
import type { ChartRenderer } from '../../core/charts/index.js';
import { CONFIG_PATH, type ClusterConfig, type Config } from '../../core/config/index.js';
import { newParseCache, type RenderBudget } from '../../core/manifests/index.js';
import type { Plan, Snapshot, SourceProblem } from '../../core/model/index.js';
import { planCluster } from '../../core/pipeline/index.js';
import { renderCluster, type ClusterRender } from '../../core/render/index.js';
import type { ConfigChangeNote } from '../../core/report/index.js';
import type { Store } from '../../store/types.js';
import { touchedClusters } from './touched-clusters.js';

export interface PlanInputs {
  repository: string;
  config: Config;
  headFiles: ReadonlyMap<string, string>;
  baseFiles: ReadonlyMap<string, string>;
  headSha: string;
  changed: readonly string[];
  now: string;
}

/** What planning needs, all of it values: the work a job worker does. */
export interface PlanWork extends PlanInputs {
  /** cluster → its latest snapshot (none yet: planned against nothing). */
  latest: ReadonlyMap<string, Snapshot | undefined>;
}

export interface BuiltPlans {
  plans: Array<{ cluster: string; plan: Plan }>;
  errors: SourceProblem[];
  /** cluster → capturedAt of the snapshot planned against. */
  snapshots: Record<string, string>;
  /** Set when the pull request changes the config: what its version would change. */
  configChange?: ConfigChangeNote;
  /** Files the renders (head and base, every cluster) read: what the blob cache keeps. */
  filesRead?: string[];
  /** The check run's conclusion when a prune deletes data (`plan.dataLossConclusion`). */
  dataLossConclusion?: Config['plan']['dataLossConclusion'];
}

/**
 * Head and base of every cluster, each rendered with its latest live state (the sources it holds).
 * Head and base differ in the few files the pull request changes, so every other file is parsed once;
 * the parse cache is dropped on return, before planning.
 */
function renderHeadAndBase(
  clusters: readonly ClusterConfig[],
  input: PlanInputs,
  latest: ReadonlyMap<string, Snapshot | undefined>,
  budget: RenderBudget,
  charts?: ChartRenderer,
): Array<{ cluster: ClusterConfig; head: ClusterRender; base: ClusterRender }> {
  const cache = newParseCache();
  return clusters.map((cluster) => {
    const live = latest.get(cluster.name);
    const options = { cache, budget, ...(live ? { live } : {}), ...(charts ? { charts } : {}) };
    const head = renderCluster(input.headFiles, cluster, options);
    return { cluster, head, base: renderCluster(input.baseFiles, cluster, options) };
  });
}

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

/**
 * The plans of every cluster the pull request touches, under one budget for the whole job (every
 * cluster, head and base): pure, so a job worker runs it.
 */
export function planClusters(input: PlanWork, budget: RenderBudget, charts?: ChartRenderer): BuiltPlans {
  const { latest } = input;
  const clusters = input.config.clusters ?? [];
  const rendered = renderHeadAndBase(clusters, input, latest, budget, charts);
  // The config decides every cluster's plan, so a change to it touches them all.
  const configChanged = input.changed.includes(CONFIG_PATH);
  const touched = new Set(
    configChanged
      ? clusters.map((c) => c.name)
      : touchedClusters(
          input.changed,
          rendered.map((r) => ({ cluster: r.cluster, filesRead: [...r.head.filesRead, ...r.base.filesRead] })),
        ).map((c) => c.name),
  );
  const result: BuiltPlans = {
    plans: [],
    errors: [],
    snapshots: {},
    dataLossConclusion: input.config.plan.dataLossConclusion,
    filesRead: [...new Set(rendered.flatMap((r) => [...r.head.filesRead, ...r.base.filesRead]))],
  };
  for (const { cluster, head, base } of rendered) {
    if (!touched.has(cluster.name)) continue;
    result.errors.push(...head.errors);
    // A render that ran out of its budget has no objects: planning it would show everything pruned.
    if (head.stopped || base.stopped) {
      if (!head.stopped)
        result.errors.push(
          ...base.errors.map((problem) => ({ ...problem, message: `at the base commit: ${problem.message}` })),
        );
      continue;
    }
    const snapshot = latest.get(cluster.name);
    const plan = planCluster({
      config: input.config,
      cluster,
      head: head.objects,
      base: base.objects,
      headFiles: input.headFiles,
      snapshot,
      now: input.now,
      repository: input.repository,
      headRevision: input.headSha,
      ...(cluster.path !== undefined ? { path: cluster.path } : {}),
      sources: head,
      changed: input.changed,
      notRendered: head.notRendered ?? [],
    });
    if (snapshot) result.snapshots[cluster.name] = snapshot.capturedAt;
    result.plans.push({ cluster: cluster.name, plan });
  }
  return result;
}

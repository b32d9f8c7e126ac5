// The plan assembled once, for the App and the command line alike: head and base of every cluster
// rendered (every file both share parsed once), the clusters the change touches picked, and each
// planned against its latest live state with planCluster. The App plans a pull request's clusters with
// it in a job worker; `driftback plan` plans the one tree it is given. Per-cluster problems are
// collected; a render the job's budget stopped is not planned (it would show everything pruned).
import type { ChartRenderer } from '../charts/index.js';
import { CONFIG_PATH, type ClusterConfig, type Config } from '../config/index.js';
import { newParseCache, type RenderBudget } from '../manifests/index.js';
import { keyId, type LiveState, type Plan, type SourceProblem } from '../model/index.js';
import type { SourceGoneAtHead } from '../plan/index.js';
import { sourceRefKey } from '../sources/index.js';
import { renderCluster, type ClusterRender, type ClusterTarget } from '../render/index.js';
import { renderedParts, type PartialParts } from './partial-parts.js';
import { planCluster } from './plan-pipeline.js';
import { touchedClusters } from './touched-clusters.js';

/** One cluster to plan. */
export interface PlanTarget {
  /** What is rendered at head and at base: the cluster's path, default namespace and controller. */
  render: ClusterTarget;
  /**
   * The config's cluster (namespaces, prune, staleAfter, the path its controllers apply). None for a
   * tree planned as it is given (`driftback plan` without --cluster): default rules, any controller.
   */
  cluster?: ClusterConfig;
  /** Its latest live state; none yet: planned against nothing, and the plan says so. */
  live?: LiveState;
}

export interface PlanRequest {
  config: Config;
  targets: readonly PlanTarget[];
  /** The files at head, path → text. */
  headFiles: ReadonlyMap<string, string>;
  /** The files at base; none: nothing is known to have left head since. */
  baseFiles?: ReadonlyMap<string, string>;
  /** The files the change touches: only the clusters they touch are planned. None: every target. */
  changed?: readonly string[];
  /** The moment the plan is made (ISO 8601). */
  now: string;
  /** The repository, for the command that makes an upload token. */
  repository?: string;
  /** The commit head is. */
  headRevision?: string;
}

export interface ClusterPlan {
  cluster: string;
  plan: Plan;
}

export interface PlannedClusters {
  plans: ClusterPlan[];
  errors: SourceProblem[];
  /** cluster → capturedAt of the snapshot planned against. */
  snapshots: Record<string, string>;
  /** Files the renders (head and base, every cluster) read: what the App's blob cache keeps. */
  filesRead: string[];
  /** The check run's conclusion when a prune deletes data (`plan.dataLossConclusion`). */
  dataLossConclusion?: Config['plan']['dataLossConclusion'];
  /** Per planned cluster, what its head render left out: a partial plan says so. */
  heads: Record<string, PartialParts>;
  /** Clusters the budget stopped, with the commit whose render it stopped and that render's problems. */
  stopped: Array<{ cluster: string; at: 'head' | 'base'; problems: SourceProblem[] }>;
}

interface Rendered {
  target: PlanTarget;
  name: string;
  head: ClusterRender;
  base?: ClusterRender;
}

/**
 * The plans of every target the change touches, under one budget for the whole job (every cluster,
 * head and base) and one chart renderer: pure, so a job worker runs it.
 */
export function planClusters(request: PlanRequest, budget: RenderBudget, charts?: ChartRenderer): PlannedClusters {
  const rendered = renderHeadAndBase(request, budget, charts);
  const touched = touchedNames(request, rendered);
  const result: PlannedClusters = {
    plans: [],
    errors: [],
    snapshots: {},
    dataLossConclusion: request.config.plan.dataLossConclusion,
    filesRead: [...new Set(rendered.flatMap(filesReadBy))],
    heads: {},
    stopped: [],
  };
  for (const cluster of rendered) if (touched.has(cluster.name)) planOne(request, cluster, result);
  return result;
}

/**
 * Head and base of every target, each rendered with its latest live state (the sources it holds).
 * Head and base differ in the few files a change touches, so every other file is parsed once; the
 * parse cache is dropped on return, before planning.
 */
function renderHeadAndBase(request: PlanRequest, budget: RenderBudget, charts?: ChartRenderer): Rendered[] {
  const cache = newParseCache();
  return request.targets.map((target) => {
    const options = { cache, budget, ...(target.live ? { live: target.live } : {}), ...(charts ? { charts } : {}) };
    const head = renderCluster(request.headFiles, target.render, options);
    const base = request.baseFiles && renderCluster(request.baseFiles, target.render, options);
    return { target, name: target.cluster?.name ?? target.render.name ?? '', head, ...(base ? { base } : {}) };
  });
}

const filesReadBy = (rendered: Rendered): string[] => [...rendered.head.filesRead, ...(rendered.base?.filesRead ?? [])];

/** The clusters a change touches; the config decides every cluster's plan, so a change to it touches them all. */
function touchedNames(request: PlanRequest, rendered: readonly Rendered[]): Set<string> {
  const { changed } = request;
  if (!changed || changed.includes(CONFIG_PATH)) return new Set(rendered.map((r) => r.name));
  const configured = rendered.flatMap((r) =>
    r.target.cluster ? [{ cluster: r.target.cluster, filesRead: filesReadBy(r) }] : [],
  );
  return new Set(touchedClusters(changed, configured).map((cluster) => cluster.name));
}

/** The sources base renders that head does not, with the objects base renders under each. */
function sourcesGoneAtHead(head: ClusterRender, base: ClusterRender): SourceGoneAtHead[] {
  const atHead = new Set(head.sources.map((result) => keyId(sourceRefKey(result.source.id))));
  return base.sources
    .filter((result) => result.scope === 'rendered' && !atHead.has(keyId(sourceRefKey(result.source.id))))
    .map((result) => ({ key: sourceRefKey(result.source.id), objects: result.objects }));
}

/** One cluster's plan into `result`, or why there is none: a render out of its budget has no objects. */
function planOne(request: PlanRequest, rendered: Rendered, result: PlannedClusters): void {
  const { target, name, head, base } = rendered;
  result.errors.push(...head.errors);
  if (head.stopped || base?.stopped) {
    const at = head.stopped ? 'head' : 'base';
    if (at === 'base')
      result.errors.push(...base!.errors.map((p) => ({ ...p, message: `at the base commit: ${p.message}` })));
    result.stopped.push({ cluster: name, at, problems: at === 'head' ? head.errors : base!.errors });
    return;
  }
  const { cluster, live } = target;
  const plan = planCluster({
    config: request.config,
    ...(cluster ? { cluster } : {}),
    ...(cluster?.path !== undefined ? { path: cluster.path } : {}),
    head: head.objects,
    ...(base ? { base: base.objects, ...(base.hooks ? { baseHooks: base.hooks } : {}) } : {}),
    ...(base ? { goneAtHead: sourcesGoneAtHead(head, base) } : {}),
    headFiles: request.headFiles,
    snapshot: live,
    now: request.now,
    ...(request.repository ? { repository: request.repository } : {}),
    ...(request.headRevision ? { headRevision: request.headRevision } : {}),
    sources: head,
    ...(request.changed ? { changed: request.changed } : {}),
    notRendered: head.notRendered ?? [],
  });
  if (live?.capturedAt) result.snapshots[name] = live.capturedAt;
  result.heads[name] = renderedParts(head);
  result.plans.push({ cluster: name, plan });
}

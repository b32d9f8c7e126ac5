// The plan pipeline, one for both doors: what merging head would do to one cluster, against its
// latest live state, with every warning — a cluster with no snapshot yet included, and protected
// prunes pointed at the line in head that stopped declaring them. The App posts it on pull
// requests; `driftback plan` prints it.
import type { ClusterConfig, Config } from '../config/index.js';
import {
  keyId,
  type DesiredObject,
  type KubeObject,
  type NotRenderedSource,
  type Plan,
  type PlanWarning,
} from '../model/index.js';
import { suspendedSourceWarnings, suspensionNotices, suspensionsByRepository } from '../emergency/index.js';
import { claimsOf, keepNotRendered } from './not-rendered.js';
import {
  argoResyncWarnings,
  imageUpdaterWarnings,
  argoCompareOptionWarnings,
  hooksOnDelete,
  hooksOnSync,
  locateProtectedPrunes,
  planChanges,
  planIgnoredFields,
  imagePolicyWarnings,
  keepWhatDeletedSourcesLeave,
  refuseUnpermitted,
  uninstallHooks,
  unrenderedDeleteHooks,
  withArgoSyncOptions,
  type SourceGoneAtHead,
  type UnrenderedDeletion,
} from '../plan/index.js';
import { sourceRefKey, type DesiredHook } from '../sources/index.js';
import { maskSecretFields, pruneInventories, summarizeSourcePlan } from '../render/index.js';
import type { LiveState } from '../model/index.js';
import { screenLive } from './live-state.js';
import { planGeneratedNames } from './generated-names.js';
import { configWithSourceRules, type ClusterRender } from '../render/cluster-render.js';

export interface PlanClusterInput {
  config: Config;
  /** The cluster's config (namespaces, prune, staleAfter); undefined: the defaults (the CLI without --cluster). */
  cluster?: ClusterConfig;
  /** Desired objects at head, and at base (what the pull request starts from) when known. */
  head: DesiredObject[];
  base?: DesiredObject[];
  /** Head's files, path → text: protected prunes are pointed at them. */
  headFiles: ReadonlyMap<string, string>;
  /** The latest live state; undefined when no snapshot of the cluster has been received yet. */
  snapshot: LiveState | undefined;
  /** The moment the plan is made (ISO 8601). */
  now: string;
  /** The repository, for the command that makes an upload token. */
  repository?: string;
  /** The commit head was rendered from. */
  headRevision?: string;
  /** Parts of head that were not rendered: nothing they may have made is pruned. */
  notRendered?: NotRenderedSource[];
  /** The repository path the cluster's GitOps controllers apply; undefined = any. */
  path?: string;
  /** The files the pull request changes: a suspended source applying one of them opens the plan. */
  changed?: readonly string[];
  /** Head's sources (renderCluster): the plan is shown per source, with the ignore rules they declare. */
  sources?: Pick<ClusterRender, 'sources' | 'ignore' | 'hooks'> & Partial<Pick<ClusterRender, 'notes' | 'skipped'>>;
  /** Base's hooks: the delete hooks of an Application whose source does not render at head are read there. */
  baseHooks?: DesiredHook[];
  /** Sources base renders and head does not: what they deployed stays unless their controller deletes it. */
  goneAtHead?: SourceGoneAtHead[];
}

export function planCluster(input: PlanClusterInput): Plan {
  // Objects whose identity cannot tell them apart are left out; one whose only fault is its name is planned.
  const screened = input.snapshot && screenLive(input.snapshot).live;
  // Values substituted from a Secret are masked in live as head shows them: a diff's context prints live.
  const snapshot = screened && { ...screened, items: maskSecretFields(input.head, screened.items) };
  const planned = keepWhatDeletedSourcesLeave(
    plannedChanges(input, snapshot),
    input.goneAtHead ?? [],
    snapshot?.items ?? [],
    input.base ?? [],
  );
  const claims = claimsOf(input.sources?.sources.map((result) => result.source) ?? [], snapshot?.items ?? []);
  const kept = keepNotRendered(planIgnoredFields(planned, input.sources?.ignore ?? []), input.notRendered, claims);
  const argo = withArgoProjects(kept, input, snapshot?.items ?? []);
  const plan = planGeneratedNames(argo, input.sources?.skipped ?? [], snapshot?.items ?? []);
  // A suspended source of another repository is that repository's to report.
  const suspensions = snapshot && suspensionsByRepository(snapshot.items, input.config, input.sources?.sources).own;
  const warnings = planWarnings(input, plan, snapshot, suspensions);
  const sources = input.sources?.sources.some(isListedSource)
    ? { sources: summarizeSourcePlan(input.sources.sources, plan) }
    : {};
  const suspended = suspensions ? suspensionNotices(suspensions) : [];
  // What a sync runs besides the apply, for information: head's hooks.
  const hooks = hooksOnSync(input.sources?.hooks, plan.hooks);
  if (hooks.length > 0) plan.hooks = hooks;
  const deleteHooks = deleteHooksOf(plan, input, snapshot?.items ?? []);
  if (deleteHooks.hooks.length > 0) plan.deleteHooks = deleteHooks.hooks;
  warnings.push(...deleteHooks.warnings);
  return { ...plan, warnings, ...sources, ...(suspended.length ? { suspensions: suspended } : {}) };
}

/**
 * The delete hooks of the Applications the plan prunes, and of those their ApplicationSet deletes; of one
 * whose source does not render at head, those of base's render or of the cluster, with a warning.
 */
function deleteHooksOf(plan: Plan, input: PlanClusterInput, live: readonly KubeObject[]) {
  const results = input.sources?.sources ?? [];
  const pruned = plan.prune
    .map((entry) => entry.id)
    .filter((id) => id.group === 'argoproj.io' && id.kind === 'Application');
  const deleted = results.flatMap((result) => result.deleted?.hooks ?? []);
  const unrendered: UnrenderedDeletion[] = [
    ...pruned.flatMap((application) => {
      const result = results.find((entry) => keyId(sourceRefKey(entry.source.id)) === keyId(application));
      if (result?.scope === 'rendered' || result?.scope === 'out-of-scope') return [];
      return [{ application, reason: result?.reason ?? 'driftback does not render it at head' }];
    }),
    ...results.flatMap(({ source, deleted: removed }) =>
      removed?.notRenderedAtHead !== undefined
        ? [{ application: sourceRefKey(source.id), reason: removed.notRenderedAtHead }]
        : [],
    ),
  ];
  const fallback = unrenderedDeleteHooks(unrendered, input.baseHooks ?? [], live);
  const releases = plan.prune
    .map((entry) => entry.id)
    .filter((id) => id.group === 'helm.toolkit.fluxcd.io' && id.kind === 'HelmRelease');
  const uninstall = uninstallHooks(releases, input.sources?.hooks ?? [], input.baseHooks ?? [], live);
  const listed = [...fallback.hooks, ...uninstall];
  return { hooks: hooksOnDelete(pruned, input.sources?.hooks, deleted, listed), warnings: fallback.warnings };
}

/** What Argo CD's AppProjects refuse and its sync options change, and objects two Applications claim. */
function withArgoProjects(plan: Plan, input: PlanClusterInput, live: readonly KubeObject[]): Plan {
  if (!input.sources) return plan;
  const { sources, notes } = input.sources;
  const refused = refuseUnpermitted(plan, sources, input.head, live);
  // Compared under the same config as drift: the ignore rules head's sources declare apply.
  const config = configWithSourceRules(input.config, input.sources);
  return withArgoSyncOptions(refused, sources, notes ?? [], input.head, live, config);
}

/** What merging does through Argo CD: Applications it re-syncs, images Argo CD Image Updater writes. */
function argoPlanWarnings(input: PlanClusterInput, plan: Plan, live: KubeObject[] | undefined): PlanWarning[] {
  if (!live || !input.sources) return [];
  const resync = { plan, sources: input.sources.sources, head: input.head, live };
  const changed = input.changed ? { changed: input.changed } : {};
  return [
    ...argoResyncWarnings({ ...resync, ...changed }),
    ...imageUpdaterWarnings(resync),
    ...argoCompareOptionWarnings(input.sources.sources, input.head, live),
  ];
}

/** A plan lists its sources when one is a GitOps controller's, or one was not rendered. */
function isListedSource(result: { source: { id: { controller: string } }; scope: string }): boolean {
  return result.source.id.controller !== 'kubectl' || result.scope === 'not-rendered';
}

/** What head would change in live, under the config and the ignore rules head's sources declare. */
function plannedChanges(input: PlanClusterInput, snapshot: LiveState | undefined): Plan {
  const { cluster } = input;
  const config = input.sources ? configWithSourceRules(input.config, input.sources) : input.config;
  return planChanges({
    head: input.head,
    live: snapshot?.items ?? [],
    config,
    now: input.now,
    ...(cluster ? { cluster } : {}),
    ...(input.base ? { base: input.base } : {}),
    ...(input.headRevision ? { headRevision: input.headRevision } : {}),
    ...(input.path !== undefined ? { path: input.path } : {}),
    ...(input.sources ? { inventories: pruneInventories(input.sources.sources) } : {}),
    ...(input.sources?.hooks ? { hooks: input.sources.hooks } : {}),
    // Objects that are no snapshot (a kubectl get -o json file) carry no time and no scope.
    ...(snapshot?.capturedAt && snapshot.scope
      ? { snapshot: { capturedAt: snapshot.capturedAt, ...snapshot.scope } }
      : {}),
  });
}

/** The plan's warnings; first of all that a suspended source deploys nothing of this merge, then a missing snapshot. */
function planWarnings(
  input: PlanClusterInput,
  plan: Plan,
  snapshot: LiveState | undefined,
  suspensions: ReturnType<typeof suspensionsByRepository>['own'] | undefined,
): PlanWarning[] {
  const { cluster } = input;
  const warnings = locateProtectedPrunes(plan, input.headFiles);
  warnings.push(...argoPlanWarnings(input, plan, snapshot?.items), ...imagePolicyWarnings(plan, input.headFiles));
  if (!snapshot) {
    const name = cluster?.name ?? 'the cluster';
    const repository = input.repository ? ` --repository ${input.repository}` : '';
    const token = `driftback token${repository} --cluster ${cluster?.name ?? '<name>'}`;
    const message =
      `No snapshot of ${name} has been received yet: every resource is shown as created. ` +
      `Deploy the driftback agent to the cluster (${token}).`;
    warnings.unshift({ code: 'stale-snapshot', message });
  }
  if (snapshot && suspensions) {
    const path = input.path ?? cluster?.path;
    const touched = { ...(input.changed ? { changed: input.changed } : {}), ...(path !== undefined ? { path } : {}) };
    warnings.unshift(...suspendedSourceWarnings(snapshot.items, suspensions, touched));
  }
  return warnings;
}

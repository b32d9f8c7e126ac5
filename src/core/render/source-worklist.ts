// desired for a cluster = every source of this repository rendered as its controller renders it.
// The cluster path (when configured) is read first: the controller objects it declares are the roots;
// each source's render may declare more (a Flux root Kustomization, an Argo CD app of apps), which are
// followed; sources the snapshot holds are followed too (no path needed). Sources of other
// repositories are listed as out of scope. Without controller objects the cluster path is applied
// by kubectl: its render, unchanged, is desired.
import { findKustomizationFile, KUSTOMIZATION_FILE_NAMES, renderManifests } from '../manifests/index.js';
import {
  displayKey,
  keyId,
  keyOf,
  type DesiredObject,
  type KubeObject,
  type RenderResult,
  type ResourceKey,
} from '../model/index.js';
import { readArgoInstances, readArgoSettings } from '../sources/argocd-settings.js';
import { argoIgnoreRules, argoSettingsOf, type SourceIgnoreRule } from './argocd-ignore.js';
import { readSource } from '../sources/read-sources.js';
import { renderArgoSource } from './argocd-render.js';
import { expandApplicationSet, generatedDesired } from './appset-expand.js';
import { generatedFate, type RemovedApplication } from './appset-deletions.js';
import { listersOf, liveGenerators, readFromLiveWhy, type LiveGenerator } from './appset-live.js';
import { isApplicationSet } from '../sources/applicationset.js';
import { failedRender, problemPart, problemsReason, unapplicableObjects, unrenderedParts } from './failed-render.js';
import { renderFluxSource } from './flux-render.js';
import { maskEncrypted, SOPS_REASONS } from './sops.js';
import { liveReleasesOfOthers, renderReleases } from './releases-render.js';
import { isFluxHelmRelease } from './helmrelease-render.js';
import type { DeclaredSource, RenderSourceInputs, SourceNote, SourceRender } from './types.js';
import { repositoryMatcher, type RepositoryMatcher } from '../sources/scope.js';
import {
  kubectlRef,
  sourceName,
  sourceRefKey,
  sourceRefText,
  stampedSource,
  type ControllerName,
} from '../sources/identity.js';
import type { Source } from '../sources/types.js';
import { hookUnder, type DesiredHook } from '../sources/sync-hooks.js';

export interface ClusterSourcesInput {
  files: ReadonlyMap<string, string>;
  live: readonly KubeObject[];
  /** The config's cluster path (repository-relative, normalized); undefined: only the snapshot's sources. */
  path?: string;
  /** The config's `controller`; undefined: detected. */
  controller?: ControllerName;
  /** The cluster's name (names the kubectl source). */
  cluster: string;
  defaultNamespace: string;
  /** `owner/name`, when known: sources whose URL names it are this repository's. */
  repository?: string;
  cache?: RenderSourceInputs['cache'];
  /** Which kinds are namespaced, as the cluster says: cluster-scoped custom kinds get no namespace. */
  kindScopes?: RenderSourceInputs['kindScopes'];
  unfollowed?: RenderSourceInputs['unfollowed'];
  budget?: RenderSourceInputs['budget'];
  charts?: RenderSourceInputs['charts'];
  capabilities?: RenderSourceInputs['capabilities'];
}

export type SourceScope = 'rendered' | 'not-rendered' | 'out-of-scope';

export interface SourceResult {
  source: Source;
  scope: SourceScope;
  /** Why a `not-rendered` source was not rendered: its first problem, or what is not supported. */
  reason?: string;
  /** The objects its render gives (rendered sources). */
  objects: ResourceKey[];
  /**
   * A generated Application its ApplicationSet no longer generates and its controller deletes: it renders
   * nothing; what it deployed goes with it when `cascade` (the resources finalizer), else stays.
   */
  deleted?: { cascade: boolean; reason: string; hooks?: DesiredHook[]; notRenderedAtHead?: string };
  /** A generated Application the cluster does not hold yet: the ApplicationSet controller creates it at the merge. */
  createdBy?: { applicationSet: string; readFromCluster: boolean };
}

export interface ClusterSourcesRender extends RenderResult {
  controller: ControllerName;
  sources: SourceResult[];
  notes: SourceNote[];
  /** Ignore rules the sources declare (Argo CD ignoreDifferences and resource.customizations), per object. */
  ignore: SourceIgnoreRule[];
  /** Hooks the sources declare (Argo CD, Helm): set aside from `objects`, never compared. */
  hooks?: DesiredHook[];
}

/** The controller of a cluster: Flux when Flux Kustomizations are in the repository or the snapshot, then Argo CD. */
export function detectController(sources: readonly Source[]): ControllerName {
  if (sources.some((source) => source.id.controller === 'flux')) return 'flux';
  if (sources.some((source) => source.id.controller === 'argocd')) return 'argocd';
  return 'kubectl';
}

function kubectlSource(cluster: string, path: string | undefined): Source {
  return {
    id: kubectlRef(cluster),
    ...(path !== undefined ? { path } : {}),
    origin: { type: 'this-repository' },
    transforms: { controller: 'kubectl' },
  };
}

/** The declared entry of a source read from a desired object: where it is written, with the file's text. */
function declaredEntry(desired: DesiredObject, source: Source, files: ReadonlyMap<string, string>): DeclaredSource {
  const text = files.get(desired.source.file);
  const declaredIn = { file: desired.source.file, document: desired.source.document };
  return { source: { ...source, declaredIn }, desired, ...(text !== undefined ? { text } : {}) };
}

export function renderClusterSources(input: ClusterSourcesInput): ClusterSourcesRender {
  const renderOptions = {
    defaultNamespace: input.defaultNamespace,
    ...(input.cache ? { cache: input.cache } : {}),
    ...(input.kindScopes ? { kindScopes: input.kindScopes } : {}),
    ...(input.unfollowed ? { unfollowed: input.unfollowed } : {}),
    ...(input.budget ? { budget: input.budget } : {}),
  };
  const entry = renderEntry(input, renderOptions);
  const declared = new Map<string, DeclaredSource>();
  for (const desired of entry.objects) {
    const source = readSource(desired.object, false);
    const id = source ? sourceRefText(source.id) : undefined;
    if (source && id !== undefined && !declared.has(id)) declared.set(id, declaredEntry(desired, source, input.files));
  }
  const liveSources = input.live.flatMap((obj) => readSource(obj, true) ?? []);
  const known = [...[...declared.values()].map((d) => d.source), ...liveSources];
  // HelmReleases are applied by Flux even where no Kustomization is in view.
  const fluxReleases = entry.objects.some((desired) => isFluxHelmRelease(desired.object));
  // So are the Applications of an ApplicationSet, in the repository or only in the cluster.
  const appSets =
    entry.objects.some((desired) => isApplicationSet(desired.object)) || input.live.some(isApplicationSet);
  const detected = detectController(known);
  const controller =
    input.controller ?? (detected !== 'kubectl' ? detected : fluxReleases ? 'flux' : appSets ? 'argocd' : detected);
  if (controller === 'kubectl' || entry.stopped) {
    const { failed, ...rendered } = entry;
    const objects = rendered.objects.map((desired) => desired.key);
    const source = kubectlSource(input.cluster, input.path);
    const name = source.id.name || 'cluster';
    const notes = maskEncrypted(rendered.objects, input.live, name, SOPS_REASONS.kubectl);
    const sources: SourceResult[] = [
      failed
        ? { source, scope: 'not-rendered', reason: problemsReason(rendered.errors), objects }
        : { source, scope: 'rendered', objects },
    ];
    return { ...rendered, controller, sources, notes, ignore: [] };
  }
  return followSources(input, entry, declared, liveSources, controller);
}

/**
 * The cluster path's render. Its problems stop nothing: each is a part not rendered. A kustomization
 * with a problem gives nothing (kustomize build fails as a whole); plain manifests give every object
 * that reads (kubectl apply goes on past a file it cannot read).
 */
function renderEntry(
  input: ClusterSourcesInput,
  options: Parameters<typeof renderManifests>[2],
): RenderResult & { failed?: true } {
  if (input.path === undefined) return { objects: [], skipped: [], errors: [], filesRead: [] };
  const entry = renderManifests(input.files, input.path, options);
  entry.errors.push(...unapplicableObjects(entry.objects));
  if (entry.errors.length === 0 || entry.stopped) return entry;
  const notRendered = [...(entry.notRendered ?? []), ...entry.errors.map((problem) => problemPart(problem))];
  const kustomization =
    findKustomizationFile(input.files, input.path) !== undefined ||
    (input.files.has(input.path) &&
      (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(input.path.slice(input.path.lastIndexOf('/') + 1)));
  return kustomization ? { ...entry, objects: [], notRendered, failed: true } : { ...entry, notRendered };
}

/** What every source's render reads of the cluster. */
function renderInputsOf(input: ClusterSourcesInput): RenderSourceInputs {
  return {
    files: input.files,
    live: input.live,
    defaultNamespace: input.defaultNamespace,
    argoSettings: readArgoSettings(input.live),
    argoInstances: readArgoInstances(input.live),
    ...(input.cache ? { cache: input.cache } : {}),
    ...(input.kindScopes ? { kindScopes: input.kindScopes } : {}),
    ...(input.unfollowed ? { unfollowed: input.unfollowed } : {}),
    ...(input.budget ? { budget: input.budget } : {}),
    ...(input.charts ? { charts: input.charts } : {}),
    ...(input.capabilities ? { capabilities: input.capabilities } : {}),
  };
}

/**
 * The order sources are rendered in: those the repository declares first, as their renders declare
 * them; then those only the snapshot names, parents first (those no other one's inventory lists):
 * their renders declare the children, whose patches and overrides are then traced to their files.
 */
function sourceOrder(
  declaredIds: readonly string[],
  liveById: ReadonlyMap<string, Source>,
  generators: ReadonlyMap<string, LiveGenerator>,
) {
  const sourceKey = (source: Source): string => keyId(sourceRefKey(source.id));
  const idByKey = new Map([...liveById].map(([id, source]) => [sourceKey(source), id]));
  const parents = new Map<string, string[]>();
  for (const [id, source] of liveById) {
    for (const listed of source.status?.inventory ?? []) {
      const child = idByKey.get(keyId(listed.key));
      if (child !== undefined && child !== id) parents.set(child, [...(parents.get(child) ?? []), id]);
    }
  }
  // A generated Application waits for the sources that list its ApplicationSet.
  for (const [id, generator] of generators) {
    const listers = listersOf(generator.key, liveById).filter((lister) => lister !== id);
    if (listers.length > 0) parents.set(id, [...(parents.get(id) ?? []), ...listers]);
  }
  const queue = [...declaredIds];
  const done = new Set<string>();
  const listedByAnother = (id: string): boolean => (parents.get(id) ?? []).some((parent) => !done.has(parent));
  const pick = (): string | undefined => {
    const declaredNext = queue.shift();
    if (declaredNext !== undefined) return declaredNext;
    const waiting = [...liveById.keys()].filter((id) => !done.has(id));
    return waiting.find((id) => !listedByAnother(id)) ?? waiting[0];
  };
  return {
    /** The next source not rendered yet; undefined when every one is. */
    next(): string | undefined {
      for (let id = pick(); id !== undefined; id = pick()) {
        if (done.has(id)) continue;
        done.add(id);
        return id;
      }
      return undefined;
    },
    /** A source a render declared: rendered after those already waiting. */
    add(id: string): void {
      queue.push(id);
    },
  };
}

/** A source of another repository: listed, with a note that says which repository it applies. */
function outOfScopeNote(source: Source): SourceNote {
  const name = sourceName(source.id);
  const { origin } = source;
  const from =
    origin.type === 'git'
      ? origin.repoURL
      : origin.type === 'flux-source'
        ? `${origin.kind} ${origin.namespace}/${origin.name}`
        : '';
  return {
    code: 'out-of-scope',
    source: name,
    message: `${name} applies ${from}, another repository: its objects are not checked here`,
  };
}

type Taken = ReadonlyMap<string, { desired: DesiredObject; source: string; controller?: string }>;

/**
 * The note for an object another source rendered first. Two Argo CD Applications that render one object
 * fight over it: each sync writes its own tracking id, and Argo CD reports SharedResourceWarning on both
 * (controller/state.go), or fails the sync under `FailOnSharedResource=true`.
 */
function takenNote(name: string, controller: string, desired: DesiredObject, first: string, firstBy?: string) {
  if (controller === 'argocd' && firstBy === 'argocd') {
    const message =
      `also rendered by Argo CD Application ${first}: two Applications claim it, and each sync takes it over ` +
      'from the other (Argo CD reports SharedResourceWarning; with FailOnSharedResource=true the sync fails). ' +
      'Keep it in one Application only';
    const shared = { first, desired };
    return { code: 'shared-resource' as const, source: name, key: desired.key, message, shared };
  }
  const message = `also rendered by ${first}, which applies it first`;
  return { code: 'rendered-twice' as const, source: name, key: desired.key, message };
}

/**
 * One source's objects against those already taken: the new ones (this source applies them), and a
 * note for each another source renders first. Nothing is changed; the caller adds what is new.
 */
function newObjectsOf(rendered: readonly DesiredObject[], name: string, taken: Taken, controller: string) {
  const fresh: DesiredObject[] = [];
  const notes: SourceNote[] = [];
  const seen = new Set<string>();
  for (const desired of rendered) {
    const key = keyId(desired.key);
    const first: { source: string; controller?: string } | undefined =
      taken.get(key) ?? (seen.has(key) ? { source: name } : undefined);
    if (first) {
      if (first.source !== name) notes.push(takenNote(name, controller, desired, first.source, first.controller));
      continue;
    }
    seen.add(key);
    fresh.push(desired);
  }
  return { fresh, notes };
}

function addIgnoreRules(result: ClusterSourcesRender, ignore: ReturnType<typeof argoIgnoreRules>): void {
  result.ignore.push(...ignore.rules);
  result.notes.push(...ignore.notes);
}

function renderSource(found: DeclaredSource, inputs: RenderSourceInputs): SourceRender {
  if (found.source.id.controller === 'flux') return renderFluxSource(found, inputs);
  const rendered = renderArgoSource(found, inputs);
  const name = sourceName(found.source.id);
  rendered.notes.push(...maskEncrypted(rendered.objects, inputs.live, name, SOPS_REASONS.argocd));
  return rendered;
}

/**
 * A source is rendered when it applies this repository, or a chart of a Helm repository when Helm is at
 * hand (from the offline charts directory); a multi-source Application when any entry reads this repository.
 */
function appliesThisRepository(source: Source, matcher: RepositoryMatcher, charts: boolean): boolean {
  const entries = source.transforms.controller === 'argocd' ? source.transforms.sources : undefined;
  if (entries)
    return entries.some(
      (entry) => matcher.isThisRepositoryUrl(entry.origin.repoURL) || (charts && entry.origin.chart !== undefined),
    );
  const repositoryChart = source.origin.type === 'git' && source.origin.chart !== undefined && charts;
  return repositoryChart || matcher.isThisRepository(source);
}

interface ChildWalk {
  input: ClusterSourcesInput;
  matcher: RepositoryMatcher;
  declared: Map<string, DeclaredSource>;
  order: ReturnType<typeof sourceOrder>;
  result: ClusterSourcesRender;
  /** ApplicationSets already expanded (one may be both at the cluster path and in a source's render). */
  expanded: Set<string>;
  /** Live generated Applications their ApplicationSet deletes, by source id. */
  deleted: Map<string, RemovedApplication>;
  /** Generated Applications the cluster does not hold, by source id: their ApplicationSet creates them. */
  created: Map<string, NonNullable<SourceResult['createdBy']>>;
  /** The ids of the sources the snapshot holds, or whose stamps a live object carries (it deployed them). */
  liveIds: ReadonlySet<string>;
}

/**
 * The sources a rendered object declares, rendered after those already waiting: a Kustomization or an
 * Application itself, or the Applications an ApplicationSet generates (an Application the repository
 * declares by the same name wins). An ApplicationSet that cannot be expanded is reported with why.
 */
function declareChildren(desired: DesiredObject, walk: ChildWalk): void {
  const { input, declared, order } = walk;
  const child = readSource(desired.object, false);
  if (child) {
    declared.set(sourceRefText(child.id), declaredEntry(desired, child, input.files));
    order.add(sourceRefText(child.id));
  }
  if (!isApplicationSet(desired.object) || walk.expanded.has(keyId(desired.key))) return;
  walk.expanded.add(keyId(desired.key));
  const files = input.files;
  const expansion = expandApplicationSet(desired.object, {
    files,
    live: input.live,
    isThisRepository: walk.matcher.isThisRepositoryUrl,
  });
  const namespace = desired.key.namespace;
  const name = `${namespace}/${desired.key.name}`;
  if (!expansion.ok) {
    const message = `ApplicationSet ${name}: not rendered: ${expansion.reason}`;
    walk.result.notes.push({ code: 'unsupported', source: name, message });
    const reason = `ApplicationSet ${name}: ${expansion.reason}`;
    walk.result.notRendered!.push({ file: desired.source.file, field: 'spec.generators', reason, namespace });
    return;
  }
  walk.result.filesRead.push(...expansion.filesRead);
  const fate = generatedFate(desired.object, expansion.applications, input.live);
  for (const application of expansion.applications) {
    const source = readSource(application, false)!;
    const id = sourceRefText(source.id);
    if (declared.has(id) || fate.keptAsLive.has(application.metadata.name ?? '')) continue;
    declared.set(id, declaredEntry(generatedDesired(application, desired), source, files));
    order.add(id);
    markCreated(id, name, false, walk);
  }
  markDeleted(fate.removed, walk);
}

/**
 * The sources the cluster holds: those of the snapshot, and those a live object's stamps name (a snapshot
 * without the Application still shows it exists when something it deployed carries its tracking).
 */
function liveSourceIds(live: readonly KubeObject[]): Set<string> {
  const ids = new Set<string>();
  for (const obj of live) {
    const ref = readSource(obj, true)?.id ?? stampedSource(obj);
    if (ref) ids.add(sourceRefText(ref));
  }
  return ids;
}

/** A generated Application the cluster does not hold: its ApplicationSet's controller creates it. */
function markCreated(id: string, applicationSet: string, readFromCluster: boolean, walk: ChildWalk): void {
  if (!walk.liveIds.has(id)) walk.created.set(id, { applicationSet, readFromCluster });
}

/**
 * The Applications a live ApplicationSet generates at head that the cluster does not hold: declared as
 * sources (rendered from head like any other), marked as created by that ApplicationSet.
 */
function declareLiveGenerated(applications: readonly KubeObject[], name: string, walk: ChildWalk): void {
  for (const application of applications) {
    const source = readSource(application, false);
    if (!source) continue;
    const id = sourceRefText(source.id);
    if (walk.declared.has(id)) continue;
    const before = walk.created.size;
    markCreated(id, name, true, walk);
    if (walk.created.size === before) continue;
    walk.declared.set(id, { source });
    walk.order.add(id);
  }
}

/** The live generated Applications the controller deletes, each rendering nothing. */
function markDeleted(removed: readonly RemovedApplication[], walk: ChildWalk, why?: string): void {
  for (const entry of removed) {
    const id = sourceRefText(readSource(entry.application, true)!.id);
    if (!entry.deleted || walk.declared.has(id)) continue;
    walk.deleted.set(id, why ? { ...entry, reason: `${entry.reason}; the ApplicationSet was ${why}` } : entry);
  }
}

/**
 * Before a live generated Application is followed: its ApplicationSet, when no rendered source declared
 * it, expanded from its live spec, so an Application it no longer generates is planned as deleted.
 * One that cannot be expanded is a part not rendered, with the reason: nothing its Applications deployed
 * is pruned on its account.
 */
function expandLiveGenerator(id: string, follow: FollowState): void {
  const { walk } = follow;
  const generator = follow.generators.get(id);
  if (!generator?.appset || walk.declared.has(id) || walk.expanded.has(keyId(generator.key))) return;
  expandLiveAppSet({ key: generator.key, appset: generator.appset }, follow);
}

/**
 * The live ApplicationSets no rendered source declares and no Application of theirs led to (they have
 * generated none yet), each expanded from its live spec; false when there was none. One a rendered
 * source lists is that source's: if head no longer declares it, the source prunes it.
 */
function expandRemainingLiveAppSets(follow: FollowState): boolean {
  const { walk, liveById } = follow;
  const rendered = new Set(
    walk.result.sources.filter((r) => r.scope === 'rendered').map((r) => sourceRefText(r.source.id)),
  );
  const remaining = walk.input.live.filter((obj) => {
    if (!isApplicationSet(obj) || walk.expanded.has(keyId(keyOf(obj)))) return false;
    return !listersOf(keyOf(obj), liveById).some((parent) => rendered.has(parent));
  });
  for (const appset of remaining) expandLiveAppSet({ key: keyOf(appset), appset }, follow);
  return remaining.length > 0;
}

/** A live ApplicationSet expanded against head: the Applications it creates and those it deletes. */
function expandLiveAppSet(generator: Required<LiveGenerator>, follow: FollowState): void {
  const { walk, liveById } = follow;
  walk.expanded.add(keyId(generator.key));
  const appset = generator.appset;
  const name = `${generator.key.namespace}/${generator.key.name}`;
  const parents = listersOf(generator.key, liveById).map((parent) => {
    const result = walk.result.sources.find((entry) => sourceRefText(entry.source.id) === parent);
    const state = result?.scope === 'out-of-scope' ? 'of another repository' : 'not rendered';
    return { name: sourceName(liveById.get(parent)!.id), state };
  });
  const why = readFromLiveWhy(parents);
  const { input, matcher } = walk;
  const expansion = expandApplicationSet(appset, {
    files: input.files,
    live: input.live,
    isThisRepository: matcher.isThisRepositoryUrl,
  });
  if (!expansion.ok) {
    const reason = `ApplicationSet ${name}, ${why}: ${expansion.reason}; its Applications are rendered from their live spec`;
    const own = displayKey(generator.key);
    walk.result.notRendered!.push({ file: '', reason, namespace: generator.key.namespace, source: own });
    return;
  }
  walk.result.filesRead.push(...expansion.filesRead);
  declareLiveGenerated(expansion.applications, name, walk);
  markDeleted(generatedFate(appset, expansion.applications, input.live).removed, walk, why);
}

function followSources(
  input: ClusterSourcesInput,
  entry: RenderResult,
  declaredAtEntry: ReadonlyMap<string, DeclaredSource>,
  liveSources: readonly Source[],
  controller: ControllerName,
): ClusterSourcesRender {
  const declared = new Map(declaredAtEntry);
  const liveById = new Map(liveSources.map((source) => [sourceRefText(source.id), source]));
  const matcher = repositoryMatcher(
    [...declared.values()].map((d) => d.source),
    [...entry.objects.map((d) => d.object), ...input.live],
    input.path,
    input.repository,
  );
  const inputs = { ...renderInputsOf(input), isThisRepository: matcher.isThisRepositoryUrl };
  const result = startingResult(entry, controller);
  const generators = liveGenerators(input.live);
  const order = sourceOrder([...declared.keys()], liveById, generators);
  const walk: ChildWalk = {
    ...{ input, matcher, declared, order, result },
    ...{ expanded: new Set<string>(), deleted: new Map(), created: new Map(), liveIds: liveSourceIds(input.live) },
  };
  const follow: FollowState = { walk, inputs, liveById, generators, byKey: new Map(), releases: [] };
  for (const desired of entry.objects) if (isApplicationSet(desired.object)) declareChildren(desired, walk);
  do {
    for (let id = order.next(); id !== undefined; id = order.next())
      if (followOne(id, follow) === 'stopped') return { ...result, objects: [], stopped: true };
  } while (expandRemainingLiveAppSets(follow));
  for (const source of result.sources) {
    const created = walk.created.get(sourceRefText(source.source.id));
    if (created) source.createdBy = created;
  }
  return withReleasesAndRoots(input, inputs, entry, {
    matcher,
    result,
    byKey: follow.byKey,
    releases: follow.releases,
  });
}

interface FollowState {
  walk: ChildWalk;
  inputs: ReturnType<typeof renderInputsOf> & { isThisRepository: (url: string) => boolean };
  liveById: ReadonlyMap<string, Source>;
  /** The ApplicationSet of each live generated Application, by the Application's source id. */
  generators: ReadonlyMap<string, LiveGenerator>;
  byKey: Map<string, { desired: DesiredObject; source: string; controller?: string }>;
  releases: DesiredObject[];
}

/** What the entry render holds already, before any source is followed. */
function startingResult(entry: RenderResult, controller: ControllerName): ClusterSourcesRender {
  return {
    ...{ objects: [], skipped: [...entry.skipped], errors: [...entry.errors], filesRead: [...entry.filesRead] },
    ...{ controller, sources: [], notes: [], ignore: [], notRendered: [...(entry.notRendered ?? [])] },
  };
}

/** One source in the worklist: set aside (another repository's), not rendered, or rendered and its objects taken. */
function followOne(id: string, follow: FollowState): 'stopped' | undefined {
  const { walk, inputs, liveById } = follow;
  const { result, matcher } = walk;
  const found = walk.declared.get(id) ?? { source: liveById.get(id)! };
  const status = liveById.get(id)?.status;
  const source = status ? { ...found.source, status } : found.source;
  expandLiveGenerator(id, follow);
  const removed = walk.deleted.get(id);
  if (removed) {
    const { hooks, notRendered } = deleteHooksOf({ ...found, source }, follow);
    const deleted = {
      ...{ cascade: removed.cascade, reason: removed.reason },
      ...(hooks.length ? { hooks } : {}),
      ...(notRendered !== undefined ? { notRenderedAtHead: notRendered } : {}),
    };
    result.sources.push({ source, scope: 'rendered', objects: [], deleted });
    return undefined;
  }
  if (!appliesThisRepository(source, matcher, inputs.charts !== undefined)) {
    result.sources.push({ source, scope: 'out-of-scope', objects: [] });
    result.notes.push(outOfScopeNote(source));
    return undefined;
  }
  const rendered = renderSource({ ...found, source }, inputs);
  rendered.errors.push(...unapplicableObjects(rendered.objects));
  result.errors.push(...rendered.errors);
  result.skipped.push(...rendered.skipped);
  result.filesRead.push(...rendered.filesRead);
  result.notes.push(...rendered.notes);
  const own = sourceRefText(source.id);
  result.notRendered!.push(...(rendered.notRendered ?? []).map((part) => ({ source: own, ...part })));
  if (rendered.stopped) return 'stopped';
  const failed = failedRender(rendered);
  if (failed !== undefined) {
    // The parts the render named already say why (reason included); one more would repeat them.
    const named = rendered.errors.length === 0 ? rendered.notRendered?.[0]?.reason : undefined;
    result.sources.push({ source, scope: 'not-rendered', reason: named ?? failed, objects: [] });
    if (named === undefined) result.notRendered!.push(...unrenderedParts(source, rendered.errors, failed));
    return undefined;
  }
  takeObjects(source, rendered.objects, follow);
  return undefined;
}

/**
 * The PreDelete / PostDelete hooks of an Application its ApplicationSet deletes: Argo CD renders its
 * source once more when deleting it and runs them (controller/hook.go executeHooks). When its source
 * does not render at head, none, and why: the plan then lists them from base or the cluster.
 */
function deleteHooksOf(found: DeclaredSource, follow: FollowState): { hooks: DesiredHook[]; notRendered?: string } {
  if (!appliesThisRepository(found.source, follow.walk.matcher, follow.inputs.charts !== undefined))
    return { hooks: [] };
  const rendered = renderSource(found, follow.inputs);
  const failed = rendered.stopped ? 'the render budget ran out' : failedRender(rendered);
  if (failed !== undefined) return { hooks: [], notRendered: failed };
  const hooks = rendered.objects.flatMap((desired) => {
    const hook = hookUnder(desired.object, found.source.id);
    return hook && hook.onDelete.length > 0 ? [{ desired, hook, appliedBy: found.source.id }] : [];
  });
  return { hooks };
}

/** A rendered source's objects not taken by an earlier source, recorded and followed for children. */
function takeObjects(source: Source, objects: readonly DesiredObject[], follow: FollowState): void {
  const { result } = follow.walk;
  const name = sourceName(source.id);
  const { fresh, notes } = newObjectsOf(objects, name, follow.byKey, source.id.controller);
  result.notes.push(...notes);
  for (const desired of fresh) {
    follow.byKey.set(keyId(desired.key), { desired, source: name, controller: source.id.controller });
    declareChildren(desired, follow.walk);
    if (isFluxHelmRelease(desired.object)) follow.releases.push(desired);
  }
  result.sources.push({ source, scope: 'rendered', objects: fresh.map((desired) => desired.key) });
  const settings = argoSettingsOf(source, follow.inputs);
  addIgnoreRules(result, argoIgnoreRules(source, fresh, follow.walk.input.live, settings));
}

/** The HelmReleases rendered last, then what the cluster path declares and no source applies. */
function withReleasesAndRoots(
  input: ClusterSourcesInput,
  inputs: RenderSourceInputs,
  entry: RenderResult,
  walked: {
    matcher: ReturnType<typeof repositoryMatcher>;
    result: ClusterSourcesRender;
    byKey: Map<string, { desired: DesiredObject; source: string; controller?: string }>;
    releases: readonly DesiredObject[];
  },
): ClusterSourcesRender {
  const { matcher, result, byKey } = walked;
  // A HelmRelease the cluster path declares and no source renders was applied from it by hand (bootstrap).
  const releases = [
    ...walked.releases,
    ...entry.objects.filter((desired) => isFluxHelmRelease(desired.object) && !byKey.has(keyId(desired.key))),
  ];
  if (renderReleases(releases, { input, inputs, matcher, result, byKey, declared: entry.objects }))
    return { ...result, objects: [], stopped: true };
  const rendered = new Set([...byKey.keys(), ...entry.objects.map((desired) => keyId(desired.key))]);
  result.sources.push(...liveReleasesOfOthers(input.live, rendered, matcher));
  // What the cluster path declares and no source applies was applied by hand (a root Application).
  const roots = entry.objects.filter((desired) => !byKey.has(keyId(desired.key)));
  for (const desired of roots) byKey.set(keyId(desired.key), { desired, source: '' });
  // Applied by hand, so decrypted (if at all) by a tool driftback does not run: masked as under kubectl.
  const name = kubectlSource(input.cluster, input.path).id.name || 'cluster';
  result.notes.push(...maskEncrypted(roots, input.live, name, SOPS_REASONS.kubectl));
  return {
    ...result,
    objects: [...byKey.values()].map((taken) => taken.desired),
    filesRead: [...new Set(result.filesRead)],
  };
}

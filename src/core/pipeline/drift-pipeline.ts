// The drift pipeline, one for both doors: the cluster's path rendered, compared with live state in
// the namespaces and types the snapshot covers, the persistence gate, declined drift dropped
// (evaluateDrift); then the drift split into pull-request groups and codified (proposeDrift). The
// App runs both steps on every snapshot; `driftback diff` runs the first, `driftback codify` both.
import { applyPersistenceGate, setImageAutomationAside, summarize } from '../classify/index.js';
import { allowDecidedSwitches, classifyRisk, type RiskDecisions } from '../risk/index.js';
import {
  addedByRender,
  codifyWith,
  type CodifyEngine,
  type CodifyResult,
  type DirectoryReading,
  type PathReader,
} from '../codify/index.js';
import type { ChartRenderer } from '../charts/index.js';
import type { ClusterConfig, Config } from '../config/index.js';
import { diffResources } from '../diff/index.js';
import { autoscaledReplicas, setSharedResourcesAside, type AutoscaledReplicas } from '../plan/index.js';
import { inventoryClaims, sourceScope } from '../ownership/index.js';
import { coverageOf, type SnapshotScope } from '../k8s/index.js';
import type { SkippedObject } from '../k8s/object-names.js';
import { renderBudget, type RenderBudget, type UnfollowedKind } from '../manifests/index.js';
import {
  emergencyChanges,
  indexSuspensions,
  setSuspensionSwitchesAside,
  suspensionsByRepository,
  type EmergencyChange,
  type Suspension,
} from '../emergency/index.js';
import {
  isUndecided,
  isUndoneNext,
  type DesiredObject,
  type DiffResult,
  type FieldChange,
  type KubeObject,
  type ResourceDiff,
  type ResourceKey,
  type SkippedDocument,
  type SourceProblem,
  type SourceReport,
} from '../model/index.js';
import { describeSource, hooksById, isSourceObject, readArgoSettings } from '../sources/index.js';
import {
  maskSecretFields,
  newResourceHomes,
  summarizeSourceDrift,
  unseenApplier,
  type SourceNote,
  type SourceResult,
} from '../render/index.js';
import { codifiedFingerprints, dropDeclined } from './decisions.js';
import type { LiveState } from '../model/index.js';
import { scopeOf, screenLive } from './live-state.js';
import { clusterRoot, configWithSourceRules, renderCluster, type ClusterRender } from '../render/cluster-render.js';
import { imageUpdaterScopes, setImageUpdaterAside } from '../render/argocd-image-updater.js';
import { isFluxHelmRelease } from '../render/helmrelease-render.js';
import { matchGeneratedNames } from './generated-names.js';
import { claimsOf, setAsideNotRendered } from './not-rendered.js';
import { withNextMoves } from './next-moves.js';

export interface DriftInput {
  /** The live state: a stored snapshot, or objects read from files. */
  snapshot: LiveState;
  config: Config;
  cluster: ClusterConfig;
  /** Repository files, path → text. */
  files: ReadonlyMap<string, string>;
  /** Fingerprint sets of earlier snapshots, newest first (this snapshot excluded). */
  history: ReadonlyArray<ReadonlySet<string>>;
  /**
   * Consecutive snapshots a change must be seen in. Default: the config's `drift.minSnapshots`. A
   * caller holding fewer earlier snapshots than that on purpose (the CLI) says so here.
   */
  minSnapshots?: number;
  declined: ReadonlySet<string>;
  /** Symlinks and submodules in the tree: named as such when a kustomization refers to one. */
  unfollowed?: ReadonlyMap<string, UnfollowedKind>;
  /**
   * The job's budget: every render of it (the cluster's, codify's checks) charges this one. Default:
   * one per render of evaluateDrift; one for the whole job in reconcileDrift.
   */
  renderBudget?: RenderBudget;
  /** Decisions people made on single risky items, by fingerprint: those may be codified. Default: none. */
  riskDecisions?: RiskDecisions;
  /** Runs Helm for the charts the sources declare; absent: charts are reported, not rendered. */
  charts?: ChartRenderer;
}

export interface DriftGroup {
  /** The namespace with `groupBy: namespace` ('' = cluster-scoped objects); undefined with `groupBy: cluster`. */
  namespace: string | undefined;
  branch: string;
  result: DiffResult;
  codify: CodifyResult;
  /** What the group's PR codifies: declined when it is closed unmerged. */
  fingerprints: string[];
  /** The GitOps sources this group's drift comes from, with their counts; none under kubectl. */
  sources: SourceReport[];
  /** How many consecutive snapshots showed what the group codifies (absent when it codifies nothing). */
  seen?: SeenRange;
}

/**
 * The fewest and most consecutive snapshots that showed a group's changes, each counted up to `cap`
 * (the gate's minSnapshots, at least 2): past it the text no longer changes with every snapshot.
 */
export interface SeenRange {
  fewest: number;
  most: number;
  cap: number;
}

export interface EvaluatedDrift {
  type: 'evaluated';
  /** Live objects listed with what is wrong with their identity: never written as files. */
  skipped: SkippedObject[];
  /** Documents of the repository that are not compared, and why (a manifest with generateName). */
  notCompared: SkippedDocument[];
  /** Every file the render read (and, once proposed, every existing file codify edited). */
  filesRead: string[];
  /** The whole diff (before the gate): health, conflicts and ignored counts come from it. */
  diff: DiffResult;
  /** Persistent drift a human has not declined. */
  drift: DiffResult;
  /** This snapshot's fingerprints, for the next run's gate. */
  fingerprints: string[];
  /** How many consecutive snapshots (this one included) showed each fingerprint. */
  seen: ReadonlyMap<string, number>;
  pending: number;
  declined: number;
  /** The namespaces compared (configured ∩ listed); undefined = every namespace. */
  namespaces: string[] | undefined;
  /**
   * Every source of this repository told to stop reconciling, in the whole snapshot (sources live
   * outside the scope); a source that applies another repository is that repository's.
   */
  suspensions: Suspension[];
  /** Drift made under a suspension, by suspension id: an emergency change, past the gate at once. */
  emergency: Map<string, { suspension: Suspension; changes: EmergencyChange[] }>;
  /** Drift per source (`flux-system/apps: 1 object, 4 live changes`), sources of other repositories listed. */
  sources: SourceReport[];
  /** The sources as the render followed them: which source each group's drift belongs to. */
  sourceResults: readonly SourceResult[];
  /** What could not be checked or is not supported (a Secret's substituted value, a jq ignore rule). */
  notes: SourceNote[];
  /** The config the diff ran with: the config's ignore rules and those the sources declare. */
  effectiveConfig: Config;
  /** namespace → the directory its source renders it from: where codify writes a new resource. */
  newResourceHomes: Record<string, string>;
  /** Workloads whose manifest declares replicas while an HPA (in Git or live) targets them: the two fight. */
  autoscaledReplicas: AutoscaledReplicas[];
}

export type DriftEvaluation =
  | { type: 'manifest-problems'; problems: SourceProblem[]; filesRead: string[] }
  | { type: 'out-of-scope'; message: string }
  | EvaluatedDrift;

export type Evaluation = Exclude<DriftEvaluation, EvaluatedDrift> | (EvaluatedDrift & { groups: DriftGroup[] });

export function branchFor(config: Config, cluster: string, namespace: string | undefined): string {
  const prefix = config.pullRequests.branchPrefix;
  return namespace === undefined ? `${prefix}${cluster}` : `${prefix}${cluster}/${namespace || 'cluster-scoped'}`;
}

/** Changes to fields image automation writes (Flux setter markers, Argo CD Image Updater), reported. */
function setAutomationsAside(
  diff: DiffResult,
  files: ReadonlyMap<string, string>,
  rendered: ClusterRender,
  snapshot: LiveState,
): DiffResult {
  const objects = [...rendered.objects.map((d) => d.object), ...snapshot.items];
  return setImageUpdaterAside(setImageAutomationAside(diff, files), imageUpdaterScopes(rendered.sources, objects));
}

/** Render, compare, gate: the drift of one cluster in one snapshot. */
export function evaluateDrift(input: DriftInput): DriftEvaluation {
  const { live: screened, skipped } = screenLive(input.snapshot);
  const scope = scopeOf(screened);
  const { namespaces } = coverageOf(scope, input.cluster.namespaces);
  if (namespaces?.length === 0) return outOfScope(input.cluster);
  const options = {
    unfollowed: input.unfollowed,
    budget: input.renderBudget,
    live: screened,
    ...(input.charts ? { charts: input.charts } : {}),
  };
  const rendered = renderCluster(input.files, input.cluster, options);
  // Values substituted from a Secret are masked on both sides before anything compares or shows them.
  const snapshot = { ...screened, items: maskSecretFields(rendered.objects, screened.items) };
  // A render out of its budget has no objects: everything would look hand-made. A source that fails to
  // render stops nothing: it is not rendered, and what it may have made is set aside (not-rendered.ts).
  if (rendered.stopped) return { type: 'manifest-problems', problems: rendered.errors, filesRead: rendered.filesRead };
  const compared = compareRendered(input, rendered, snapshot, scope);
  const gated = gateDrift(input, compared.diff, compared.suspensions, snapshot.items);
  return {
    type: 'evaluated',
    skipped,
    filesRead: rendered.filesRead,
    ...compared,
    ...gated,
    namespaces: input.cluster.namespaces?.length ? namespaces : compared.namespaces,
    sources: summarizeSourceDrift(rendered.sources, gated.drift),
    sourceResults: rendered.sources,
    notes: rendered.notes,
    // Under kubectl the cluster path is the one source: pullRequests.newResourcePath decides.
    newResourceHomes: rendered.controller === 'kubectl' ? {} : newResourceHomes(rendered.sources),
  };
}

function outOfScope(cluster: ClusterConfig): DriftEvaluation {
  const configured = cluster.namespaces?.join(', ');
  const message =
    `the snapshot holds none of the namespaces configured for ${cluster.name} (${configured}): ` +
    `check the agent's namespaces`;
  return { type: 'out-of-scope', message };
}

/**
 * The whole diff of the render against live, before the gate: what a part not rendered may have made
 * set aside, suspension switches and image automation apart, risk classified, controllers' next moves.
 */
function compareRendered(input: DriftInput, rendered: ClusterRender, snapshot: LiveState, scope: SnapshotScope) {
  const { config, cluster } = input;
  const effectiveConfig = configWithSourceRules(config, rendered);
  // With no namespaces configured, a snapshot's scope is what the cluster's sources (inventories included)
  // render into and name (DESIGN). Objects read from files (no snapshot scope) were picked by hand: all compared.
  const sources = rendered.sources.map((result) => result.source);
  const defaultScope = snapshot.scope ? sourceScope(rendered.objects, sources) : undefined;
  const scoped = cluster.namespaces?.length ? cluster.namespaces : defaultScope;
  const diffOptions = {
    config: effectiveConfig,
    namespaces: scoped,
    scope,
    sourceOf: inventoryClaims(sources),
    hooks: hooksById(rendered.hooks),
    unseenApplier: unseenApplier(rendered.sources, rendered.controller, readArgoSettings(snapshot.items)),
  };
  const { all: allSuspensions, own: suspensions } = suspensionsByRepository(snapshot.items, config, rendered.sources);
  // Live objects a part that was not rendered may have made are set aside, not reported as extra.
  const claims = claimsOf(sources, snapshot.items);
  // Live objects a generateName manifest made are matched back to it (generated-names.ts).
  const generateName = rendered.skipped.filter((document) => document.code === 'generate-name');
  const diffed = diffResources(rendered.objects, snapshot.items, diffOptions);
  const generated = matchGeneratedNames(diffed, generateName, snapshot.items);
  const whole = setAsideNotRendered(generated.diff, rendered.notRendered, claims);
  const risk = {
    config: effectiveConfig,
    desired: rendered.objects,
    live: snapshot.items,
    decisions: input.riskDecisions,
  };
  const moves = { config: effectiveConfig, sources, live: snapshot.items, capturedAt: snapshot.capturedAt };
  const switched = setSuspensionSwitchesAside(whole, allSuspensions);
  const automated = setSharedResourcesAside(
    setAutomationsAside(switched, input.files, rendered, snapshot),
    rendered.notes,
    effectiveConfig,
  );
  const kept = allowDecidedSwitches(automated, input.riskDecisions);
  const diff = withNextMoves(classifyRisk(kept, risk), moves);
  const namespaces = coverageOf(scope, scoped).namespaces;
  const autoscaled = autoscaledReplicas(desiredOf(diff), snapshot.items);
  return {
    diff,
    effectiveConfig,
    suspensions,
    namespaces,
    notCompared: [...generated.documents, ...rendered.skipped.filter((document) => document.code === 'declared-again')],
    autoscaledReplicas: autoscaled,
  };
}

/** The persistence gate, then what people declined: the drift that counts, and its fingerprints. */
function gateDrift(input: DriftInput, diff: DiffResult, suspensions: Suspension[], live: readonly KubeObject[]) {
  const index = indexSuspensions(suspensions, live);
  const minSnapshots = input.minSnapshots ?? input.config.drift.minSnapshots;
  // Drift under a suspension is meant; risky drift is shown at once (it is never codified unasked), and
  // so is a change its controller is about to undo (the remedy cannot wait for the next snapshot).
  const exempt = (key: ResourceKey, change: FieldChange, resource: ResourceDiff): boolean =>
    index.coveringKey(key) !== undefined ||
    isUndecided(change.path === '' ? resource.risk : change.risk) ||
    change.decision !== undefined ||
    isUndoneNext(change.next);
  const gated = applyPersistenceGate(diff, input.history, minSnapshots, exempt);
  const { result: drift, dropped } = dropDeclined(gated.result, input.declined);
  return {
    drift,
    fingerprints: gated.fingerprints,
    seen: gated.seen,
    pending: gated.pending.length,
    declined: dropped,
    emergency: emergencyChanges(drift, index),
  };
}

/** Fields of a controller object that codify writes live values into (a Flux patch, an Argo CD override, chart values). */
const TRANSFORM_FIELDS = [
  '/spec/patches',
  '/spec/images',
  '/spec/source/kustomize',
  '/spec/sources',
  // A chart's values: a HelmRelease's spec.values, an Argo CD Application's helm values and parameters.
  '/spec/values',
  '/spec/source/helm',
];

function isTransformField(path: string): boolean {
  return TRANSFORM_FIELDS.some((field) => path === field || path.startsWith(`${field}/`));
}

/**
 * Codify's self-check renders the edited files as the drift was rendered: through the cluster's
 * sources. A value written into a source's own patch or override changes that Kustomization or
 * Application as well, and a new file gains the source's stamps, until the controller applies them:
 * the check compares the rest.
 */
function clusterEngine(input: DriftInput): CodifyEngine {
  // A change live lacks that only a source writes at apply time (the stamps of a file codify just created).
  const bySource = (origin: string): boolean => origin === 'source-transform';
  return {
    render: (files) =>
      renderCluster(files, input.cluster, {
        unfollowed: input.unfollowed,
        budget: input.renderBudget,
        live: input.snapshot,
        ...(input.charts ? { charts: input.charts } : {}),
      }),
    diff: (desired, live, options) => {
      const result = diffResources(desired, live, options);
      const resources = result.resources.map((resource) => {
        const object = resource.desired;
        if (!object) return resource;
        const source = isSourceObject(object.object) || isFluxHelmRelease(object.object);
        const changes = resource.changes.filter(
          (change) => !(source && isTransformField(change.path)) && !addedByRender(object, change, bySource),
        );
        return changes.length === resource.changes.length ? resource : { ...resource, changes };
      });
      return { ...result, resources };
    },
  };
}

/** Drift to group: a change, an object made by hand, or an emergency switch waiting for a person's decision. */
function hasDrift(result: DiffResult): boolean {
  return result.resources.some(
    (resource) =>
      resource.status === 'extra' ||
      resource.changes.length > 0 ||
      (resource.reported ?? []).some((change) => change.reported?.code === 'emergency-switch'),
  );
}

function splitByNamespace(result: DiffResult): Map<string, DiffResult> {
  const groups = new Map<string, DiffResult>();
  for (const namespace of new Set(result.resources.map((resource) => resource.key.namespace))) {
    const resources = result.resources.filter((resource) => resource.key.namespace === namespace);
    const owned = result.owned?.filter((object) => object.key.namespace === namespace);
    groups.set(namespace, { ...result, resources, summary: summarize(resources), ...(owned ? { owned } : {}) });
  }
  return groups;
}

/**
 * What applies each directory of this repository to the cluster, and how it reads one: codify writes a
 * new manifest only where one of them reads it. CI's `kubectl apply -f` reads subdirectories only with
 * `-R`; the render shows it does when it made objects from a subdirectory of the path.
 */
function pathReaders(evaluated: EvaluatedDrift): PathReader[] {
  const renderedFiles = evaluated.diff.resources.flatMap((resource) =>
    resource.desired ? [resource.desired.source.file] : [],
  );
  return evaluated.sourceResults.flatMap(({ source, scope }): PathReader[] => {
    const { path, transforms } = source;
    if (scope !== 'rendered' || path === undefined) return [];
    const below = (file: string): boolean =>
      (path === '' || file.startsWith(`${path}/`)) && file.slice(path ? path.length + 1 : 0).includes('/');
    const reading: DirectoryReading =
      transforms.controller === 'flux'
        ? { type: 'flux' }
        : transforms.controller === 'argocd'
          ? { type: 'argocd', recurse: false, ...transforms.directory }
          : { type: 'kubectl', recursive: renderedFiles.some(below) };
    return [{ name: describeSource(source.id), path, reading }];
  });
}

function desiredOf(result: DiffResult): DesiredObject[] {
  return result.resources.flatMap((resource) => (resource.desired ? [resource.desired] : []));
}

/** Codifies drift (all of it, or one group's) into the repository's files. */
export function codifyEvaluated(
  input: DriftInput,
  evaluated: EvaluatedDrift,
  result: DiffResult = evaluated.drift,
): CodifyResult {
  const { cluster } = input;
  const snapshot = screenLive(input.snapshot).live;
  const { namespaces } = evaluated;
  return codifyWith(clusterEngine(input), {
    files: input.files,
    root: clusterRoot(cluster.path),
    result,
    live: maskSecretFields(desiredOf(evaluated.diff), snapshot.items),
    config: evaluated.effectiveConfig,
    newResourceHomes: evaluated.newResourceHomes,
    readers: pathReaders(evaluated),
    sourceRoots: evaluated.sources.flatMap((source) =>
      source.scope === 'rendered' && source.path !== undefined ? [source.path] : [],
    ),
    defaultNamespace: cluster.defaultNamespace,
    cluster: { name: cluster.name, ...(namespaces ? { namespaces } : {}) },
  });
}

/** The GitOps sources a group's drift comes from (rendered, with drift); a kubectl cluster has none. */
function groupSources(evaluated: EvaluatedDrift, result: DiffResult): SourceReport[] {
  const gitops = evaluated.sourceResults.filter((source) => source.source.id.controller !== 'kubectl');
  return summarizeSourceDrift(gitops, result).filter((report) => report.scope === 'rendered' && report.counts.drift);
}

/** The range of snapshot counts of the fingerprints a group codifies. */
function seenRange(fingerprints: readonly string[], seen: ReadonlyMap<string, number>, minSnapshots: number) {
  const cap = Math.max(2, minSnapshots);
  const counts = fingerprints.map((fingerprint) => Math.min(seen.get(fingerprint) ?? 1, cap));
  if (counts.length === 0) return {};
  return { seen: { fewest: Math.min(...counts), most: Math.max(...counts), cap } };
}

/** The drift split as `pullRequests.groupBy` says, each group codified on its own. */
export function proposeDrift(input: DriftInput, evaluated: EvaluatedDrift): DriftGroup[] {
  const { config, cluster } = input;
  const { drift } = evaluated;
  const byNamespace = config.pullRequests.groupBy === 'namespace';
  const parts = byNamespace ? [...splitByNamespace(drift)] : [[undefined, drift] as const];
  const groups: DriftGroup[] = [];
  for (const [namespace, result] of parts) {
    if (!hasDrift(result)) continue;
    const codify = codifyEvaluated(input, evaluated, result);
    const branch = branchFor(config, cluster.name, namespace);
    const fingerprints = codifiedFingerprints(result, codify.codified);
    const seen = seenRange(fingerprints, evaluated.seen, input.minSnapshots ?? config.drift.minSnapshots);
    groups.push({ namespace, branch, result, codify, fingerprints, sources: groupSources(evaluated, result), ...seen });
  }
  return groups;
}

/** Both steps: what the App does with every snapshot. */
export function reconcileDrift(job: DriftInput): Evaluation {
  const input = job.renderBudget ? job : { ...job, renderBudget: renderBudget() };
  const evaluated = evaluateDrift(input);
  if (evaluated.type !== 'evaluated') return evaluated;
  const groups = proposeDrift(input, evaluated);
  const edited = groups.flatMap((group) => [...group.codify.edits.keys()].filter((path) => input.files.has(path)));
  return { ...evaluated, filesRead: [...new Set([...evaluated.filesRead, ...edited])], groups };
}

// renderManifests: repository files → desired objects, each with its source map. A directory with a
// kustomization file is built like `kustomize build`; any other directory (or a single file) is plain
// manifests. Problems are collected per file and object; the rest still renders.
import { gvkSortString, kindRank, ORDER_FIRST, ORDER_LAST, type KindOrder } from './gvk-order.js';
import type { DesiredObject, FieldOrigin, KubeObject, RenderResult, SkippedDocument } from '../model/index.js';
import { newBuildContext, type BuildContext, type UnfollowedKind } from './build-context.js';
import { buildKustomization } from './build-kustomization.js';
import { isClusterScopedKind, kindScopesOf, type KindScopes } from '../k8s/index.js';
import { fixNameReferences } from './name-references.js';
import { lastDeclarationWins } from './declared-again.js';
import { resolveVars } from './vars.js';
import { kustomizeHash } from './name-hash.js';
import type { ParseCache } from './parse-cache.js';
import type { KustomizeHelm } from './helm-charts.js';
import { renderBudget, RenderBudgetExceeded, type RenderBudget } from './render-budget.js';
import {
  basename,
  dirname,
  findKustomizationFile,
  isDirectory,
  joinPath,
  KUSTOMIZATION_FILE_NAMES,
  manifestFilesUnder,
  relativePath,
} from './paths.js';
import { readResourceFile } from './read-resource-file.js';
import { TRANSFORMATIONS_ANNOTATION, transformationsValue } from './transformations.js';
import { writePairs } from './metadata-transformers.js';
import {
  apiVersionOf,
  groupOfResource,
  kindOf,
  nameOf,
  namespaceOf,
  storePreviousId,
  type BuildResource,
  type PluginConfiguration,
} from './resource.js';
import { ensureMap, flattenTracked, getString, setScalar } from './tracked.js';

export interface RenderOptions {
  /**
   * Namespace for namespaced objects that name none and get none from a kustomization. Default 'default';
   * null leaves them without one, as `kustomize build` prints them.
   */
  defaultNamespace?: string | null;
  /**
   * Tree entries the reader did not follow (git mode 120000 symbolic links, 160000 submodules),
   * path → kind: a kustomization naming one is told so instead of "does not exist". Default: none.
   */
  unfollowed?: ReadonlyMap<string, UnfollowedKind>;
  /**
   * Parses to share with other renders of nearly the same files (head, then base): unchanged files
   * are parsed once. Owned by the caller (`newParseCache()`); the result equals an uncached render.
   */
  cache?: ParseCache;
  /**
   * The job's budget (`renderBudget(limits)`), shared by every render of one job; over it, the render
   * returns one problem and no objects. Default: a budget of this render alone, with the default limits.
   */
  budget?: RenderBudget;
  /**
   * kustomize's load restriction: 'rootOnly' (the kustomize CLI's default) refuses files outside a
   * kustomization's directory; 'none' (Flux's, and the default here) reads them.
   */
  loadRestrictions?: 'rootOnly' | 'none';
  /** Object order when the root kustomization has no sortOptions: 'fifo' (default) or kustomize's 'legacy'. */
  order?: 'fifo' | 'legacy';
  /**
   * Which kinds are namespaced, as the cluster says (kindScopesOf): a cluster-scoped custom kind gets
   * no default namespace and is keyed without one. The CRDs this render holds are asked too. Default:
   * only Kubernetes' own kinds are known to be cluster-scoped.
   */
  kindScopes?: KindScopes;
  /**
   * kustomize's `--enable-helm` (and `--helm-kube-version`, `--helm-api-versions`), with the renderer
   * that runs Helm: helmCharts are inflated. `{ disabled: reason }`, or absent: they are not rendered.
   */
  helm?: KustomizeHelm;
  /**
   * kustomize's `--enable-managedby-label` (Argo CD passes it from argocd-cm `kustomize.buildOptions`):
   * the managed-by label on every object, as `buildMetadata: [managedByLabel]` writes it.
   */
  managedByLabel?: boolean;
}

export function renderManifests(
  files: ReadonlyMap<string, string>,
  root: string,
  options: RenderOptions = {},
): RenderResult {
  const context = buildContextFor(files, options);
  const inside = joinPath('', root);
  // normalizeDir would turn an escaping root into '' and render the whole repository instead.
  if (inside === undefined)
    return failedRender(root, 'the path leaves the repository: give a directory inside it (no ".." above the root)');
  let resources: BuildResource[];
  try {
    resources = collect(inside, context);
  } catch (error) {
    if (!(error instanceof RenderBudgetExceeded)) throw error;
    return { ...failedRender(inside || '.', error.message), filesRead: [...context.filesRead], stopped: true };
  }
  resources = finishBuild(resources, context, options.managedByLabel === true);
  const scopes = withRenderedCrds(options.kindScopes, resources);
  const namespace = options.defaultNamespace === null ? undefined : options.defaultNamespace || 'default';
  if (namespace !== undefined) applyDefaultNamespace(resources, namespace, scopes);
  const errors = unmatchedPatchesAsNotRendered(context);
  const all = resources.map((resource) => toDesiredObject(resource, scopes));
  // kustomize refuses an object declared twice (build-kustomization.ts); plain manifests keep the last.
  const { objects, skipped } = isKustomized(files, inside) ? { objects: all, skipped: [] } : lastDeclarationWins(all);
  return {
    objects,
    ...(context.notRendered.length > 0 ? { notRendered: context.notRendered } : {}),
    skipped: [
      ...(namespace === undefined ? context.skipped : generatedInNamespace(context.skipped, namespace, scopes)),
      ...skipped,
    ],
    errors,
    filesRead: [...context.filesRead],
  };
}

function buildContextFor(files: ReadonlyMap<string, string>, options: RenderOptions): BuildContext {
  const context = newBuildContext(files, options.unfollowed);
  context.cache = options.cache;
  context.meter = options.budget ?? renderBudget();
  context.rootOnly = options.loadRestrictions === 'rootOnly';
  context.order = options.order;
  if (options.helm) context.helm = options.helm;
  return context;
}

/** A render that produced nothing, with the one problem that stopped it. */
function failedRender(file: string, message: string): RenderResult {
  return { objects: [], skipped: [], errors: [{ file, message }], filesRead: [] };
}

/** What kustomize does once the whole build is done: hashes and name references, origins, local config dropped, order. */
function finishBuild(built: BuildResource[], context: BuildContext, managedByLabel: boolean): BuildResource[] {
  finishKustomize(built, context);
  if (context.root && (managedByLabel || context.root.buildMetadata.includes('managedByLabel')))
    labelManagedBy(built, context.root.file);
  if (context.root?.buildMetadata.includes('originAnnotations')) annotateOrigins(built, context.root.dir);
  if (context.root?.buildMetadata.includes('transformerAnnotations')) annotateTransformations(built, context.root.dir);
  // kustomize drops objects marked as local configuration once the build is done.
  const resources = built.filter((r) => getString(r.root, ['metadata', 'annotations', LOCAL_CONFIG]) !== 'true');
  for (const resource of resources) dropEmptyAnnotations(resource);
  if (context.order !== 'legacy') return resources;
  return legacyOrder(resources, context.legacyKinds ?? { first: ORDER_FIRST, last: ORDER_LAST });
}

/**
 * The build's problems. With parts of the tree not rendered, a patch whose target is missing may be
 * aimed at what they make: it moves to what was not rendered instead.
 */
function unmatchedPatchesAsNotRendered(context: BuildContext): BuildContext['problems'] {
  if (context.notRendered.length === 0) return context.problems;
  const unmatched = context.problems.filter((p) => p.message.startsWith('no resource matches'));
  for (const p of unmatched)
    context.notRendered.push({
      file: p.file,
      line: p.line,
      field: p.field,
      reason: `${p.message}: its target may be among what was not rendered`,
    });
  return context.problems.filter((p) => !unmatched.includes(p));
}

function collect(root: string, context: BuildContext): BuildResource[] {
  if (context.files.has(root) && (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(basename(root))) {
    return buildKustomization(dirname(root), root, context);
  }
  if (context.files.has(root)) return readResourceFile(root, context, []);
  const kustomization = findKustomizationFile(context.files, root);
  if (kustomization) return buildKustomization(root, kustomization, context);
  if (!isDirectory(context.files, root)) {
    context.problems.push({
      file: root || '.',
      message: 'no such file or directory in the repository: check the cluster path',
    });
    return [];
  }
  return manifestFilesUnder(context.files, root).flatMap((path) => readResourceFile(path, context, []));
}

/** kustomize's last steps: content-hash suffixes on generated objects, then references follow renames. */
function finishKustomize(resources: BuildResource[], context: BuildContext): void {
  for (const resource of resources) {
    if (!resource.needsHash) continue;
    const metadata = ensureMap(resource.root, ['metadata'], resource.root.source);
    if (!metadata) continue;
    const nameNode = metadata.entries.get('name');
    const generatorSource = { location: nameNode?.source.location, origin: resource.root.source.origin };
    const name = `${nameOf(resource)}-${kustomizeHash(resource.root)}`;
    storePreviousId(resource);
    setScalar(
      metadata,
      'name',
      name,
      nameNode?.source.origin.type === 'name-affix' ? nameNode.source : generatorSource,
    );
    resource.names.push(name);
    resource.renamedBy = generatorSource.origin;
  }
  context.problems.push(...fixNameReferences(resources, context.config));
  context.problems.push(...resolveVars(resources, context.vars, context.config));
}

const LOCAL_CONFIG = 'config.kubernetes.io/local-config';

/**
 * `annotations: {}` is left out, as kustomize leaves it out (removing its own build annotations from
 * every object clears an annotations map that ends up empty) and as the API server stores it; an
 * empty `labels: {}` is kept, as kustomize keeps it.
 */
function dropEmptyAnnotations(resource: BuildResource): void {
  const metadata = resource.root.entries.get('metadata');
  const annotations = metadata?.kind === 'map' ? metadata.entries.get('annotations') : undefined;
  if (metadata?.kind === 'map' && annotations?.kind === 'map' && annotations.entries.size === 0)
    metadata.entries.delete('annotations');
}

/** The kustomize release whose output driftback matches, as its managed-by label names it. */
const KUSTOMIZE_VERSION = 'v5.7.1';
const MANAGED_BY = 'app.kubernetes.io/managed-by';

/**
 * buildMetadata: [managedByLabel]: `app.kubernetes.io/managed-by: kustomize-<version>` on every
 * object's metadata.labels (only there, replacing any value), once the build is done (krusty
 * Kustomizer.Run). The version is that of the kustomize binary: kubectl kustomize and Argo CD's
 * kustomize 5.7.1 write `kustomize-v5.7.1`.
 */
function labelManagedBy(resources: BuildResource[], kustomization: string): void {
  const source = { origin: { type: 'labels' as const, kustomization } };
  const pairs = new Map([[MANAGED_BY, `kustomize-${KUSTOMIZE_VERSION}`]]);
  writePairs(resources, pairs, [{ path: 'metadata/labels', create: true }], source);
}

/** buildMetadata: [originAnnotations]: where each object came from, relative to the root kustomization. */
function annotateOrigins(resources: BuildResource[], rootDir: string): void {
  for (const resource of resources) {
    const origin = resource.root.source.origin;
    const value =
      origin.type === 'generator'
        ? generatorOrigin(rootDir, origin, resource.configuredBy)
        : `path: ${relativePath(rootDir, resource.file)}\n`;
    const source = { origin: { type: 'annotations' as const, kustomization: '' } };
    const annotations = ensureMap(resource.root, ['metadata', 'annotations'], source);
    if (annotations) setScalar(annotations, 'config.kubernetes.io/origin', value, source);
  }
}

/** buildMetadata: [transformerAnnotations]: the transformers each object went through. */
function annotateTransformations(resources: BuildResource[], rootDir: string): void {
  const source = { origin: { type: 'annotations' as const, kustomization: '' } };
  for (const resource of resources) {
    if (!resource.transformations?.length) continue;
    const annotations = ensureMap(resource.root, ['metadata', 'annotations'], source);
    const value = transformationsValue(rootDir, resource.transformations);
    if (annotations) setScalar(annotations, TRANSFORMATIONS_ANNOTATION, value, source);
  }
}

/** The origin of a generated object: the kustomization or `generators:` configuration that made it. */
function generatorOrigin(
  rootDir: string,
  origin: Extract<FieldOrigin, { type: 'generator' }>,
  configuredBy: PluginConfiguration | undefined,
): string {
  const kind = origin.generator === 'secretGenerator' ? 'SecretGenerator' : 'ConfigMapGenerator';
  const lines = [
    `configuredIn: ${relativePath(rootDir, configuredBy?.file || origin.kustomization)}`,
    'configuredBy:',
    '  apiVersion: builtin',
    `  kind: ${kind}`,
    ...(configuredBy?.name ? [`  name: ${configuredBy.name}`] : []),
    ...(configuredBy?.namespace ? [`  namespace: ${configuredBy.namespace}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** kustomize's legacy order: kinds in its fixed order (others between), then group/version, namespace, name. */
function legacyOrder(resources: BuildResource[], kinds: KindOrder): BuildResource[] {
  const rank = (kind: string): number => kindRank(kind, kinds);
  const gvk = (r: BuildResource): string => {
    const apiVersion = apiVersionOf(r);
    const slash = apiVersion.indexOf('/');
    return gvkSortString(slash < 0 ? '' : apiVersion.slice(0, slash), apiVersion.slice(slash + 1), kindOf(r));
  };
  const id = (r: BuildResource): string => `${namespaceOf(r) || '~X'}|${nameOf(r) || '~N'}`;
  return [...resources].sort((a, b) => {
    const byKind = rank(kindOf(a)) - rank(kindOf(b));
    if (byKind !== 0) return byKind;
    const [ga, gb] = [gvk(a), gvk(b)];
    if (ga !== gb) {
      const namespaces = kindOf(a) === 'Namespace' && kindOf(b) === 'Namespace';
      return ga < gb !== namespaces ? -1 : 1;
    }
    return id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0;
  });
}

/** The cluster's word on scopes, and the CRDs of this render for the kinds it said nothing of. */
function withRenderedCrds(known: KindScopes | undefined, resources: readonly BuildResource[]): KindScopes | undefined {
  const crds = resources.filter(
    (r) => kindOf(r) === 'CustomResourceDefinition' && groupOfResource(r) === 'apiextensions.k8s.io',
  );
  if (crds.length === 0) return known;
  return kindScopesOf({ desired: crds.map((r) => flattenTracked(r.root).value as KubeObject) }, known);
}

function applyDefaultNamespace(resources: BuildResource[], namespace: string, scopes: KindScopes | undefined): void {
  // kustomization '' marks the namespace as coming from the render options, not from a file.
  const source = { origin: { type: 'namespace' as const, kustomization: '' } };
  for (const resource of resources) {
    if (namespaceOf(resource) || isClusterScopedKind(scopes, groupOfResource(resource), kindOf(resource))) continue;
    const metadata = ensureMap(resource.root, ['metadata'], source);
    if (metadata) setScalar(metadata, 'namespace', namespace, source);
  }
}

/** Whether the root builds with kustomize: a kustomization file, or a directory holding one. */
function isKustomized(files: ReadonlyMap<string, string>, root: string): boolean {
  if (files.has(root)) return (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(basename(root));
  return findKustomizationFile(files, root) !== undefined;
}

/** A generateName manifest that names no namespace makes its objects in the default one, as the others. */
function generatedInNamespace(
  skipped: SkippedDocument[],
  namespace: string,
  scopes: KindScopes | undefined,
): SkippedDocument[] {
  return skipped.map((document) => {
    const made = document.generated;
    if (!made || made.namespace !== undefined || isClusterScopedKind(scopes, made.group, made.kind)) return document;
    return { ...document, generated: { ...made, namespace } };
  });
}

function toDesiredObject(resource: BuildResource, scopes: KindScopes | undefined): DesiredObject {
  const { value, fields } = flattenTracked(resource.root);
  const object = value as KubeObject;
  const clusterScoped = isClusterScopedKind(scopes, groupOfResource(resource), kindOf(resource));
  return {
    key: {
      group: groupOfResource(resource),
      kind: kindOf(resource),
      namespace: clusterScoped ? '' : namespaceOf(resource),
      name: nameOf(resource),
    },
    object,
    source: {
      file: resource.file,
      document: resource.document,
      location: resource.location,
      kustomizations: resource.kustomizations,
      sourceName: resource.sourceName,
      sourceNamespace: resource.sourceNamespace,
      fields,
    },
  };
}

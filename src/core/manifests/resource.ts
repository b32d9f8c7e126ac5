// A resource while a build is in progress: its tracked tree plus what the source map needs (where it
// was read, which kustomizations it passed through, the names it had before renames).
import type { FieldOrigin, SourceMap, SkippedDocument, SourceProblem } from '../model/index.js';
import { groupOf } from '../model/index.js';
import { isBuiltInClusterScoped } from '../k8s/index.js';
import type { LoadedDocument } from './read-yaml.js';
import { getIn, getString, toPlain, type TrackedMap, type TrackedNode } from './tracked.js';

/** Where it was read and the names it had: the source map's own fields, until `fields` is built. */
export interface BuildResource extends Omit<SourceMap, 'fields'> {
  root: TrackedMap;
  /** Every name it has had (the source name first): references and patches may use any of them. */
  names: string[];
  /** Every namespace it has had ('' for none). */
  namespaces: string[];
  /** Who last renamed it, for the origin of references that follow the rename. */
  renamedBy?: FieldOrigin;
  /** Set for generated ConfigMaps/Secrets that still need kustomize's content-hash suffix. */
  needsHash?: boolean;
  /** For generated objects: how they combine with an object of the same name from a base. */
  behavior?: 'create' | 'merge' | 'replace';
  /** The ids it had before each rename, oldest first (kustomize's previous ids); none while never renamed. */
  prevIds?: ResourceId[];
  /** For objects a `generators:` configuration made: that configuration, as its origin annotation names it. */
  configuredBy?: PluginConfiguration;
  /** The transformers run over it, in order, while the build tracks them (buildMetadata: [transformerAnnotations]). */
  transformations?: (PluginConfiguration & { kind: string })[];
  /** Name prefixes and suffixes applied to it, innermost first: references prefer objects affixed alike. */
  prefixes?: string[];
  suffixes?: string[];
}

export interface PluginConfiguration {
  file: string;
  name?: string;
  namespace?: string;
}

export interface ResourceId {
  group: string;
  version: string;
  kind: string;
  name: string;
  /** The effective namespace: 'default' for a namespaced object that names none, '' when cluster-scoped. */
  namespace: string;
}

export const kindOf = (r: BuildResource): string => getString(r.root, ['kind']) ?? '';
export const apiVersionOf = (r: BuildResource): string => getString(r.root, ['apiVersion']) ?? '';
export const groupOfResource = (r: BuildResource): string => groupOf(apiVersionOf(r));
export const nameOf = (r: BuildResource): string => getString(r.root, ['metadata', 'name']) ?? '';
export const namespaceOf = (r: BuildResource): string => getString(r.root, ['metadata', 'namespace']) ?? '';

export const versionOfResource = (r: BuildResource): string => {
  const apiVersion = apiVersionOf(r);
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
};

export function effectiveNamespace(r: BuildResource): string {
  if (isBuiltInClusterScoped(groupOfResource(r), kindOf(r))) return '';
  return namespaceOf(r) || 'default';
}

export function currentId(r: BuildResource): ResourceId {
  return {
    group: groupOfResource(r),
    version: versionOfResource(r),
    kind: kindOf(r),
    name: nameOf(r),
    namespace: effectiveNamespace(r),
  };
}

/** Records the current id before a rename (name, namespace or kind), as kustomize does. */
export function storePreviousId(r: BuildResource): void {
  (r.prevIds ??= []).push(currentId(r));
}

/** The ids a reference may name it by: every previous one (none when it was never renamed). */
export function originalId(r: BuildResource): ResourceId {
  return r.prevIds?.[0] ?? currentId(r);
}

/** `Deployment/checkout/api`, for messages. */
export function describeResource(r: BuildResource): string {
  const ns = namespaceOf(r);
  return ns ? `${kindOf(r)}/${ns}/${nameOf(r)}` : `${kindOf(r)}/${nameOf(r)}`;
}

/** Kinds that configure kustomize itself and never reach a cluster. */
const KUSTOMIZE_CONFIG = /^kustomize\.config\.k8s\.io\//;

export interface DocumentsAsResources {
  resources: BuildResource[];
  skipped: SkippedDocument[];
  errors: SourceProblem[];
}

/** Turns a file's documents into resources: List kinds expanded, non-objects skipped with a reason. */
export function documentsToResources(
  file: string,
  documents: LoadedDocument[],
  kustomizations: string[],
  text = '',
): DocumentsAsResources {
  const out: DocumentsAsResources = { resources: [], skipped: [], errors: [] };
  for (const doc of documents) {
    if (!doc.root) continue;
    const kustomize = kustomizations.length > 0;
    const candidates = expandList(doc.root, kustomize);
    for (const node of candidates) {
      const reason = notAnObject(node, kustomize);
      if (reason && kustomize) out.errors.push(refusedDocument(file, node, reason));
      else if (reason) out.skipped.push({ file, document: doc.index, reason });
      if (reason) continue;
      const root = node as TrackedMap;
      const name = getString(root, ['metadata', 'name']);
      if (!name) {
        const generated = kustomizations.length === 0 ? generatedName(root) : undefined;
        if (generated) out.skipped.push({ file, document: doc.index, reason: generated, ...generatedFrom(root) });
        else out.errors.push(nameless(file, root, kustomizations.length > 0));
        continue;
      }
      normalizeMetadata(root, text);
      const namespace = getString(root, ['metadata', 'namespace']);
      out.resources.push({
        root,
        file,
        document: doc.index,
        location: node.source.location ?? doc.location,
        kustomizations: [...kustomizations],
        sourceName: name,
        sourceNamespace: namespace,
        names: [name],
        namespaces: [namespace ?? ''],
      });
    }
  }
  return out;
}

/**
 * A plain manifest with `generateName` and no name (a Job, an Argo CD hook) is valid: each apply
 * creates a new object with a generated name (kubectl create, Argo CD). No live object can be matched
 * to it by name, so it is listed, not compared.
 */
function generatedName(root: TrackedMap): string | undefined {
  const prefix = getString(root, ['metadata', 'generateName']);
  if (!prefix) return undefined;
  const kind = getString(root, ['kind']);
  return `${kind} with generateName "${prefix}": each apply creates a new ${kind} with a generated name, so it is not compared`;
}

function generatedFrom(root: TrackedMap): Pick<SkippedDocument, 'code' | 'generated'> {
  const apiVersion = getString(root, ['apiVersion']) ?? '';
  const namespace = getString(root, ['metadata', 'namespace']);
  const given = getIn(root, ['metadata', 'annotations']);
  const annotations = given ? toPlain(given) : undefined;
  const generated = {
    group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '',
    kind: getString(root, ['kind']) ?? '',
    prefix: getString(root, ['metadata', 'generateName']) ?? '',
    ...(namespace ? { namespace } : {}),
    ...(isStringMap(annotations) ? { annotations } : {}),
  };
  return { code: 'generate-name', generated };
}

function isStringMap(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.keys(value).length > 0 && Object.values(value).every((entry) => typeof entry === 'string');
}

/** kustomize refuses an object without a name, generateName or not (api/resource: "missing metadata.name"). */
function nameless(file: string, root: TrackedMap, kustomize: boolean): SourceProblem {
  const where = root.source.location;
  const kind = getString(root, ['kind']);
  const generated = getString(root, ['metadata', 'generateName']);
  const message =
    kustomize && generated
      ? `${kind} has generateName "${generated}" and no metadata.name: kustomize refuses it (missing metadata.name); list it outside the kustomization or give it a name`
      : `${kind} has no metadata.name: give it a name`;
  return { file, line: where?.line, column: where?.column, field: 'metadata.name', message };
}

/**
 * Labels and annotations are string maps: kustomize writes `port: 8080` as "8080" (as written) and
 * drops `labels: null` and `annotations: null`, as the API server does.
 */
function normalizeMetadata(root: TrackedMap, text: string): void {
  const metadata = root.entries.get('metadata');
  if (metadata?.kind !== 'map') return;
  for (const key of ['labels', 'annotations']) {
    const pairs = metadata.entries.get(key);
    if (pairs?.kind === 'scalar' && pairs.value === null) metadata.entries.delete(key);
    if (pairs?.kind !== 'map') continue;
    for (const [name, value] of pairs.entries) {
      if (value.kind !== 'scalar' || typeof value.value === 'string' || value.value === null) continue;
      const range = value.source.location?.range;
      const written = range && text ? text.slice(range[0], range[1]).trim() : '';
      pairs.entries.set(name, { ...value, value: written || String(value.value) });
    }
  }
}

/** A `…List` with items is its items; kustomize expands one without apiVersion too (api/resource/factory.go). */
/** kustomize refuses a document of its resources that is no object: "missing Resource metadata", "missing kind". */
function refusedDocument(file: string, node: TrackedNode, reason: string): SourceProblem {
  const where = node.source.location;
  const kustomize = node.kind === 'map' && getIn(node, ['metadata']) ? 'missing kind' : 'missing Resource metadata';
  return {
    file,
    line: where?.line,
    column: where?.column,
    message: `${reason}: kustomize refuses it (${kustomize}); take it out of the kustomization's resources or make it an object`,
  };
}

function expandList(root: TrackedNode, kustomize: boolean): TrackedNode[] {
  if (root.kind !== 'map') return [root];
  const kind = getString(root, ['kind']);
  const items = root.entries.get('items');
  const typed = kustomize || typeof getString(root, ['apiVersion']) === 'string';
  if (kind && kind.endsWith('List') && typed && items?.kind === 'list') return items.items;
  return [root];
}

/**
 * Why a document is not an object to render. kustomize keeps an object without apiVersion, and one
 * that configures kustomize itself (a `kustomize.config.k8s.io` Kustomization or Component listed as
 * a file): its output is what the controller applies, and the apply then fails (`unapplicableObjects`
 * says so). Plain manifests skip both, as they skip any YAML that is not a Kubernetes object.
 */
function notAnObject(node: TrackedNode, kustomize: boolean): string | undefined {
  if (node.kind !== 'map')
    return `not a Kubernetes object: the document is a ${node.kind === 'list' ? 'list' : 'scalar'}, not a mapping`;
  const apiVersion = getString(node, ['apiVersion']);
  const kind = getString(node, ['kind']);
  if (!apiVersion && !kustomize) return 'not a Kubernetes object: no apiVersion';
  if (!kind) return 'not a Kubernetes object: no kind';
  if (apiVersion && KUSTOMIZE_CONFIG.test(apiVersion) && !kustomize)
    return `${kind} configures kustomize; it is not applied to a cluster`;
  return undefined;
}

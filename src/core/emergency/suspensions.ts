// Suspensions: sources told to stop reconciling, read from the live objects of a snapshot, with who
// suspended them and since when (from managedFields). A suspension is drift with the safety net off:
// what changes under it stays, and a merge deploys nothing until it is resumed.
import type { Config } from '../config/index.js';
import { field, stringAt } from '../health/read.js';
import { latestOwner, ownersOf, ownNodeAt } from '../k8s/index.js';
import { buildOwnership } from '../classify/index.js';
import { groupOf, type KubeObject, type ResourceKey, type SourceKind, type SuspensionMethod } from '../model/index.js';
import { readSource, sourceName, sourceRefOf, sourceRefText, type SourceRef } from '../sources/index.js';

export interface Suspension {
  /**
   * The source's name (`sourceName`: `<namespace>/<name>`), or `Kind/<namespace>/<name>` of an object
   * excluded on its own. Stored emergency records, alerts and their markers are keyed by it.
   */
  id: string;
  kind: SourceKind | 'object';
  /** The object's own kind, namespace and name. */
  object: { apiVersion: string; kind: string; namespace: string; name: string };
  method: SuspensionMethod;
  /** The manager that wrote the suspension (`flux`, `argocd-server`, `kubectl-edit`, …); absent when not recorded. */
  who?: string;
  /** When the suspension was written; absent when not recorded (Argo CD's removal of `automated`). */
  since?: string;
  /** The source path it applies (Flux spec.path, Argo CD spec.source.path). */
  path?: string;
  /** Revision the controller last applied (Flux status.lastAppliedRevision, Argo CD status.sync.revision). */
  appliedRevision?: string;
}

export const FLUX_RECONCILE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/reconcile';
export const ARGO_SKIP_RECONCILE_ANNOTATION = 'argocd.argoproj.io/skip-reconcile';

/** The key of the suspended object (the source, or the excluded object). */
export function suspendedObjectKey(suspension: Suspension): ResourceKey {
  const { apiVersion, kind, namespace, name } = suspension.object;
  return { group: groupOf(apiVersion), kind, namespace, name };
}

/** The suspended source (core/sources' identity); undefined for an object excluded on its own. */
export function suspendedSource(suspension: Suspension): SourceRef | undefined {
  if (suspension.kind === 'object') return undefined;
  const { apiVersion, kind, namespace, name } = suspension.object;
  return sourceRefOf({ apiVersion, kind, metadata: { namespace, name } });
}

/** Who last wrote the field at `segments`, and when. */
function writerOf(object: KubeObject, config: Config, segments: string[]): { who?: string; since?: string } {
  const node = ownNodeAt(buildOwnership(object, config), segments);
  const owner = latestOwner(ownersOf(node));
  return { ...(owner?.manager ? { who: owner.manager } : {}), ...(owner?.time ? { since: owner.time } : {}) };
}

function identity(object: KubeObject): Suspension['object'] {
  const { apiVersion = '', kind = '' } = object;
  return { apiVersion, kind, namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
}

function annotation(object: KubeObject, key: string): string | undefined {
  return stringAt(object, 'metadata', 'annotations', key);
}

/** How the source was stopped, and the field whose writer says who and when (none for a removed `automated`). */
function methodOf(object: KubeObject, controller: 'flux' | 'argocd'): { method: SuspensionMethod; field?: string[] } {
  if (controller === 'flux') return { method: 'suspend', field: ['spec', 'suspend'] };
  if (annotation(object, ARGO_SKIP_RECONCILE_ANNOTATION) === 'true') {
    return { method: 'skip-reconcile', field: ['metadata', 'annotations', ARGO_SKIP_RECONCILE_ANNOTATION] };
  }
  const automated = field(object, 'spec', 'syncPolicy', 'automated');
  if (field(automated, 'enabled') !== false) return { method: 'automated-sync-off' };
  return { method: 'automated-sync-off', field: ['spec', 'syncPolicy', 'automated', 'enabled'] };
}

/** A suspended Flux Kustomization or Argo CD Application, as the source model reads it. */
function sourceSuspension(object: KubeObject, config: Config): Suspension | undefined {
  const source = readSource(object, true);
  if (!source?.status?.suspended || source.id.controller === 'kubectl') return undefined;
  const { method, field: written } = methodOf(object, source.id.controller);
  return {
    id: sourceName(source.id),
    kind: source.id.controller === 'flux' ? 'flux-kustomization' : 'argocd-application',
    object: identity(object),
    method,
    ...(written ? writerOf(object, config, written) : {}),
    ...(source.path !== undefined ? { path: source.path } : {}),
    ...(source.status.appliedRevision ? { appliedRevision: source.status.appliedRevision } : {}),
  };
}

/** A suspended HelmRelease (the source model reads Kustomizations and Applications only). */
function helmReleaseSuspension(object: KubeObject, config: Config): Suspension | undefined {
  const ref = sourceRefOf(object);
  if (ref?.kind !== 'HelmRelease' || field(object, 'spec', 'suspend') !== true) return undefined;
  const writer = writerOf(object, config, ['spec', 'suspend']);
  const key = identity(object);
  return { id: sourceName(ref), kind: 'flux-helmrelease', object: key, method: 'suspend', ...writer };
}

/** Every suspension among the live objects: suspended sources first, then objects excluded one by one. */
export function suspensionsOf(items: readonly KubeObject[], config: Config): Suspension[] {
  const sources: Suspension[] = [];
  const objects: Suspension[] = [];
  for (const object of items) {
    const suspension = sourceSuspension(object, config) ?? helmReleaseSuspension(object, config);
    if (suspension) sources.push(suspension);
    else if (annotation(object, FLUX_RECONCILE_ANNOTATION) === 'disabled') {
      const writer = writerOf(object, config, ['metadata', 'annotations', FLUX_RECONCILE_ANNOTATION]);
      const key = identity(object);
      const id = [key.kind, key.namespace, key.name].filter(Boolean).join('/');
      objects.push({ id, kind: 'object', object: key, method: 'reconcile-disabled', ...writer });
    }
  }
  return [...sources, ...objects];
}

/**
 * The suspensions this repository answers for. A cluster often runs sources of several repositories:
 * the suspension of one that applies another repository (`elsewhere`: sourceRefText of the sources the
 * render found applying another repository, a GitRepository or repoURL pointing there) belongs to that
 * repository's dashboard and alerts. Its switch is still never codified here (switches.ts takes every
 * suspension); an object excluded on its own stays, whoever applies it.
 */
export function suspensionsOfThisRepository(
  suspensions: readonly Suspension[],
  elsewhere: ReadonlySet<string>,
): Suspension[] {
  return suspensions.filter((suspension) => {
    const source = suspendedSource(suspension);
    return !source || !elsewhere.has(sourceRefText(source));
  });
}

/** What the render says of a source: `out-of-scope` when it applies another repository. */
interface RenderedSource {
  source: { id: SourceRef };
  scope: string;
}

/**
 * The snapshot's suspensions: `all` (no switch is ever drift) and this repository's `own` (its
 * emergencies, alerts and notes), as the render's sources tell them apart.
 */
export function suspensionsByRepository(
  items: readonly KubeObject[],
  config: Config,
  sources: readonly RenderedSource[] = [],
): { all: Suspension[]; own: Suspension[] } {
  const all = suspensionsOf(items, config);
  const elsewhere = sources.filter((result) => result.scope === 'out-of-scope');
  const own = suspensionsOfThisRepository(all, new Set(elsewhere.map((result) => sourceRefText(result.source.id))));
  return { all, own };
}

// Suspensions: sources told to stop reconciling, read from the live objects of a snapshot, with who
// suspended them and since when (from managedFields). A suspension is drift with the safety net off:
// what changes under it stays, and a merge deploys nothing until it is resumed.
import type { Config } from '../config/index.js';
import { field, listAt, stringAt } from '../health/read.js';
import { buildOwnership, latestOwner, ownersOf, ownNodeAt } from '../k8s/index.js';
import { groupOf, type KubeObject } from '../model/index.js';

export type SourceKind = 'flux-kustomization' | 'flux-helmrelease' | 'argocd-application';

/** How a source was told to stop. */
export type SuspensionMethod =
  | 'suspend' // Flux spec.suspend: true
  | 'automated-sync-off' // Argo CD spec.syncPolicy.automated absent, or enabled: false
  | 'skip-reconcile' // Argo CD annotation argocd.argoproj.io/skip-reconcile: "true"
  | 'reconcile-disabled'; // Flux annotation kustomize.toolkit.fluxcd.io/reconcile: disabled on one object

export interface Suspension {
  /** `<namespace>/<name>` of the source, or `Kind/<namespace>/<name>` of an object excluded on its own. */
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

/** Who last wrote the field at `segments`, and when. */
function writerOf(object: KubeObject, config: Config, segments: string[]): { who?: string; since?: string } {
  const node = ownNodeAt(buildOwnership(object, config), segments);
  const owner = latestOwner(ownersOf(node));
  return { ...(owner?.manager ? { who: owner.manager } : {}), ...(owner?.time ? { since: owner.time } : {}) };
}

function sourceKindOf(object: KubeObject): SourceKind | undefined {
  const group = groupOf(object.apiVersion ?? '');
  if (group === 'kustomize.toolkit.fluxcd.io' && object.kind === 'Kustomization') return 'flux-kustomization';
  if (group === 'helm.toolkit.fluxcd.io' && object.kind === 'HelmRelease') return 'flux-helmrelease';
  if (group === 'argoproj.io' && object.kind === 'Application') return 'argocd-application';
  return undefined;
}

function identity(object: KubeObject): Suspension['object'] {
  return { apiVersion: object.apiVersion ?? '', kind: object.kind ?? '', namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
}

function annotation(object: KubeObject, key: string): string | undefined {
  return stringAt(object, 'metadata', 'annotations', key);
}

function sourceSuspension(object: KubeObject, kind: SourceKind, config: Config): Suspension | undefined {
  const base = { id: `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`, kind, object: identity(object) };
  if (kind === 'argocd-application') {
    const path = stringAt(object, 'spec', 'source', 'path') ?? stringAt(listAt(object, 'spec', 'sources')[0], 'path');
    const extra = { ...(path ? { path } : {}), ...optional('appliedRevision', stringAt(object, 'status', 'sync', 'revision')) };
    if (annotation(object, ARGO_SKIP_RECONCILE_ANNOTATION) === 'true') {
      const writer = writerOf(object, config, ['metadata', 'annotations', ARGO_SKIP_RECONCILE_ANNOTATION]);
      return { ...base, method: 'skip-reconcile', ...writer, ...extra };
    }
    const automated = field(object, 'spec', 'syncPolicy', 'automated');
    if (automated === undefined || automated === null) return { ...base, method: 'automated-sync-off', ...extra };
    if (field(automated, 'enabled') === false) {
      const writer = writerOf(object, config, ['spec', 'syncPolicy', 'automated', 'enabled']);
      return { ...base, method: 'automated-sync-off', ...writer, ...extra };
    }
    return undefined;
  }
  const path = stringAt(object, 'spec', 'path');
  const extra = { ...(path ? { path } : {}), ...optional('appliedRevision', stringAt(object, 'status', 'lastAppliedRevision')) };
  if (field(object, 'spec', 'suspend') === true) return { ...base, method: 'suspend', ...writerOf(object, config, ['spec', 'suspend']), ...extra };
  return undefined;
}

/** Every suspension among the live objects: suspended sources first, then objects excluded one by one. */
export function suspensionsOf(items: readonly KubeObject[], config: Config): Suspension[] {
  const sources: Suspension[] = [];
  const objects: Suspension[] = [];
  for (const object of items) {
    const kind = sourceKindOf(object);
    const suspension = kind ? sourceSuspension(object, kind, config) : undefined;
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

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

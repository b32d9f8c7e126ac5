// A Flux Kustomization (kustomize.toolkit.fluxcd.io/v1) read as a source: its path, the transforms
// kustomize-controller adds to the build (internal/generator, `apply`: targetNamespace, namePrefix/Suffix,
// patches, images, components, postBuild, commonMetadata) and, from a live object, its status.
import { fluxHealth } from '../health/gitops.js';
import { isPlainObject, type KubeObject } from '../model/index.js';
import { field, optionalString, repositoryPath, stringAt, stringList, stringMap } from './fields.js';
import { fluxInventory } from './inventory.js';
import { readImageObjects, readPatches } from './transform-entries.js';
import { fluxKustomizationRef, FLUX_KUSTOMIZE_GROUP } from './identity.js';
import type { FluxTransforms, Source, SourceOrigin, SourceStatus, SubstituteFrom } from './types.js';

export function isFluxKustomization(obj: KubeObject): boolean {
  return obj.kind === 'Kustomization' && (obj.apiVersion ?? '').startsWith(`${FLUX_KUSTOMIZE_GROUP}/`);
}

/** The Flux Kustomization as a source; `live` adds its status (a repository object has none). */
export function readFluxKustomization(obj: KubeObject, live: boolean): Source {
  const namespace = obj.metadata?.namespace ?? '';
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const path = typeof spec.path === 'string' ? repositoryPath(spec.path) : '';
  const source: Source = {
    id: fluxKustomizationRef(namespace, obj.metadata?.name ?? ''),
    // An empty spec.path is the artifact's root (kustomize-controller: `spec.path` defaults to `./`).
    path,
    origin: fluxOrigin(spec.sourceRef, namespace),
    transforms: fluxTransforms(spec),
  };
  if (live) source.status = fluxStatus(obj);
  return source;
}

function fluxOrigin(ref: unknown, namespace: string): SourceOrigin {
  return {
    type: 'flux-source',
    kind: stringAt(ref, 'kind') ?? 'GitRepository',
    namespace: stringAt(ref, 'namespace') ?? namespace,
    name: stringAt(ref, 'name') ?? '',
  };
}

function fluxTransforms(spec: Record<string, unknown>): FluxTransforms {
  const transforms: FluxTransforms = {
    controller: 'flux',
    commonMetadata: {
      labels: stringMap(field(spec, 'commonMetadata', 'labels')),
      annotations: stringMap(field(spec, 'commonMetadata', 'annotations')),
    },
    patches: readPatches(spec.patches),
    images: readImageObjects(spec.images),
    components: stringList(spec.components),
    prune: spec.prune === true,
    suspend: spec.suspend === true,
  };
  const targetNamespace = optionalString(spec.targetNamespace);
  const namePrefix = optionalString(spec.namePrefix);
  const nameSuffix = optionalString(spec.nameSuffix);
  if (targetNamespace !== undefined) transforms.targetNamespace = targetNamespace;
  if (namePrefix !== undefined) transforms.namePrefix = namePrefix;
  if (nameSuffix !== undefined) transforms.nameSuffix = nameSuffix;
  if (isPlainObject(spec.postBuild)) {
    transforms.postBuild = {
      substitute: stringMap(spec.postBuild.substitute),
      substituteFrom: substituteFrom(spec.postBuild.substituteFrom),
      always: spec.postBuild.substituteStrategy === 'Always',
    };
  }
  const decryption = optionalString(field(spec, 'decryption', 'provider'));
  if (decryption !== undefined) transforms.decryption = decryption;
  return transforms;
}

function substituteFrom(value: unknown): SubstituteFrom[] {
  if (!Array.isArray(value)) return [];
  const refs: SubstituteFrom[] = [];
  for (const item of value) {
    if (!isPlainObject(item) || typeof item.name !== 'string') continue;
    if (item.kind !== 'ConfigMap' && item.kind !== 'Secret') continue;
    refs.push({ kind: item.kind, name: item.name, optional: item.optional === true });
  }
  return refs;
}

function fluxStatus(obj: KubeObject): SourceStatus {
  const status: SourceStatus = { suspended: field(obj, 'spec', 'suspend') === true, health: fluxHealth(obj) };
  const applied = stringAt(obj, 'status', 'lastAppliedRevision');
  const attempted = stringAt(obj, 'status', 'lastAttemptedRevision');
  if (applied) status.appliedRevision = applied;
  if (attempted) status.attemptedRevision = attempted;
  const inventory = fluxInventory(obj.status);
  if (inventory) status.inventory = inventory;
  return status;
}

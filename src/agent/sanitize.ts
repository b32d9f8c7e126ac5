// What the agent keeps of a listed object. Dropped: objects a controller owns (they are derived,
// not declared), server bookkeeping (uid, resourceVersion, generation, selfLink) and the
// last-applied annotation, which repeats the manifest and, on a Secret, its values.
// Kept on purpose: `managedFields` (who changed a field: the cause of drift) and `status` (health).
import { isPlainObject, type KubeObject } from '../core/model/index.js';
import { redactSecret } from './redact-secret.js';
import type { ApiResource } from './types.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const SERVER_BOOKKEEPING = ['uid', 'resourceVersion', 'generation', 'selfLink'] as const;

export type Sanitized = { type: 'kept'; object: KubeObject } | { type: 'owned' } | { type: 'invalid'; reason: string };

/** True when an ownerReference says a controller manages the object (ReplicaSet of a Deployment, …). */
export function isControllerOwned(object: KubeObject): boolean {
  const refs = object.metadata?.ownerReferences;
  return Array.isArray(refs) && refs.some((ref) => isPlainObject(ref) && ref.controller === true);
}

/**
 * One listed item → what the snapshot holds. List items of built-in types come without
 * apiVersion and kind, so they are set from the type that was listed.
 * `hashKey` is required for Secrets; without it a Secret is never kept.
 */
export function sanitizeObject(item: unknown, resource: ApiResource, hashKey: Buffer | undefined): Sanitized {
  if (!isPlainObject(item) || !isPlainObject(item.metadata) || typeof item.metadata.name !== 'string') {
    return { type: 'invalid', reason: 'an item without metadata.name' };
  }
  // apiVersion and kind first, as kubectl prints them.
  const { apiVersion: _apiVersion, kind: _kind, metadata: itemMetadata, ...fields } = item;
  const ordered: KubeObject = { apiVersion: resource.groupVersion, kind: resource.kind, metadata: itemMetadata, ...fields };
  if (isControllerOwned(ordered)) return { type: 'owned' };

  const metadata = { ...ordered.metadata };
  for (const field of SERVER_BOOKKEEPING) delete metadata[field];
  if (isPlainObject(metadata.annotations) && LAST_APPLIED in metadata.annotations) {
    const { [LAST_APPLIED]: _dropped, ...rest } = metadata.annotations;
    if (Object.keys(rest).length > 0) metadata.annotations = rest;
    else delete metadata.annotations;
  }
  const cleaned: KubeObject = { ...ordered, metadata };

  if (resource.group === '' && resource.kind === 'Secret') {
    if (!hashKey) return { type: 'invalid', reason: 'a Secret with no hash key to redact it' };
    return { type: 'kept', object: redactSecret(cleaned, hashKey) };
  }
  return { type: 'kept', object: cleaned };
}

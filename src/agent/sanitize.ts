// What the agent keeps of a listed object. Dropped: objects a controller owns (they are derived,
// not declared) — except the Applications an ApplicationSet generates, which are sources —, server bookkeeping (uid, resourceVersion, selfLink) and, on a Secret, the
// last-applied annotation, which would repeat its values.
// Kept on purpose: `managedFields` (who changed a field: the cause of drift), `status` and `generation`
// (health: a controller whose `observedGeneration` is behind has not acted on the latest spec) and,
// on every other object, the last-applied annotation: a client-side applier's Update entry owns every
// default the server filled in, so only the annotation says what its manifest declared.
import { isPlainObject, type KubeObject } from '../core/model/index.js';
import { isControllerOwned, isSecret, withoutServerMetadata, type ServerSetField } from '../core/k8s/index.js';
import { isGeneratedApplication } from '../core/sources/index.js';
import { redactSecret } from './redact-secret.js';
import type { ApiResource } from './types.js';

/**
 * Server-set metadata the snapshot keeps: who changed a field and when (the cause of drift), when the
 * object was created (its creator's entry owns every default), whether it is being deleted, and the
 * spec's generation (health compares it with `status.observedGeneration`; the diff ignores it).
 */
const KEPT_SERVER_METADATA: readonly ServerSetField[] = [
  'managedFields',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
];

export type Sanitized = { type: 'kept'; object: KubeObject } | { type: 'owned' } | { type: 'invalid'; reason: string };

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
  const ordered: KubeObject = {
    apiVersion: resource.groupVersion,
    kind: resource.kind,
    metadata: itemMetadata,
    ...fields,
  };
  if (isControllerOwned(ordered) && !isGeneratedApplication(ordered)) return { type: 'owned' };

  const secret = isSecret(resource);
  const metadata = withoutServerMetadata(ordered.metadata, KEPT_SERVER_METADATA, !secret);
  const cleaned: KubeObject = { ...ordered, metadata };

  if (secret) {
    if (!hashKey) return { type: 'invalid', reason: 'a Secret with no hash key to redact it' };
    return { type: 'kept', object: redactSecret(cleaned, hashKey) };
  }
  return { type: 'kept', object: cleaned };
}

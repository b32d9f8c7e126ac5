// What is never drift, removed from both sides before comparing: status, server-set metadata, the
// last-applied annotation. Identity fields (apiVersion, name, namespace) are not compared either:
// objects are already paired by ResourceKey, and the version a manifest is written in is not drift.
import type { KubeObject } from '../model/index.js';

const SERVER_METADATA = [
  'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences', 'name', 'namespace', 'generateName',
] as const;

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** A shallow copy without the noise; nested objects are shared, never mutated. */
export function withoutNoise(obj: KubeObject): Record<string, unknown> {
  const { status: _status, apiVersion: _apiVersion, kind: _kind, metadata, ...rest } = obj;
  const meta: Record<string, unknown> = { ...(metadata ?? {}) };
  for (const field of SERVER_METADATA) delete meta[field];
  const annotations = meta.annotations as Record<string, string> | undefined;
  if (annotations && LAST_APPLIED in annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...others } = annotations;
    meta.annotations = others;
  }
  return { ...rest, metadata: meta };
}

/**
 * `null`, absent, `""`, `[]` and `{}` are the same thing to the API (omitempty), and so is a map
 * that holds only such values (`metadata: {annotations: {}}`).
 */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!isEmpty(record[key])) return false;
    return true;
  }
  return false;
}

// What is never drift, removed from both sides before comparing: status, server-set metadata, the
// last-applied annotation. Identity fields (apiVersion, name, namespace) are not compared either:
// objects are already paired by ResourceKey, and the version a manifest is written in is not drift.
// ownerReferences are set by the controllers that own an object, never by Git.
import type { KubeObject } from '../model/index.js';
import { withoutServerMetadata } from './metadata.js';

const IDENTITY_METADATA = ['name', 'namespace', 'generateName', 'ownerReferences'] as const;

/**
 * Helm's own stamps (helm/helm pkg/action: the release annotations `meta.helm.sh/release-name` and
 * `-namespace` it adds at install; the `helm.sh/chart: <name>-<version>` label charts write, which
 * changes with every chart version): never drift.
 */
const HELM_STAMP_LABEL = 'helm.sh/chart';
const HELM_STAMP_ANNOTATION = /^meta\.helm\.sh\//;

function withoutHelmStamps(meta: Record<string, unknown>): void {
  const labels = meta.labels as Record<string, unknown> | undefined;
  if (labels && typeof labels === 'object' && HELM_STAMP_LABEL in labels) {
    const { [HELM_STAMP_LABEL]: _chart, ...rest } = labels;
    meta.labels = rest;
  }
  const annotations = meta.annotations as Record<string, unknown> | undefined;
  if (
    annotations &&
    typeof annotations === 'object' &&
    Object.keys(annotations).some((k) => HELM_STAMP_ANNOTATION.test(k))
  ) {
    const kept = Object.entries(annotations).filter(([k]) => !HELM_STAMP_ANNOTATION.test(k));
    if (kept.length > 0) meta.annotations = Object.fromEntries(kept);
    else delete meta.annotations;
  }
}

/** A shallow copy without the noise; nested objects are shared, never mutated. */
export function withoutNoise(obj: KubeObject): Record<string, unknown> {
  const { status: _status, apiVersion: _apiVersion, kind: _kind, metadata, ...rest } = obj;
  const meta = withoutServerMetadata(metadata ?? {});
  for (const field of IDENTITY_METADATA) delete meta[field];
  withoutHelmStamps(meta);
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

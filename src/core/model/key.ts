// Resource identity. One identity everywhere: {group, kind, namespace, name}, no version
// (a Deployment read as apps/v1 or extensions/v1beta1 is the same object).
import type { KubeObject } from './object.js';

export interface ResourceKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The API group of an apiVersion: `apps/v1` → `apps`, `v1` → `` (core). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The version of an apiVersion: `apps/v1` → `v1`, `v1` → `v1`. */
export function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

export function keyOf(obj: KubeObject): ResourceKey {
  return {
    group: groupOf(obj.apiVersion ?? ''),
    kind: obj.kind ?? '',
    namespace: obj.metadata?.namespace ?? '',
    name: obj.metadata?.name ?? '',
  };
}

/** A stable string for maps: `apps/Deployment/checkout/api`. */
export function keyId(key: ResourceKey): string {
  return `${key.group}/${key.kind}/${key.namespace}/${key.name}`;
}

/** How people read a key: `Deployment/checkout/api` (cluster-scoped: `Namespace/checkout`). */
export function displayKey(key: ResourceKey): string {
  return key.namespace ? `${key.kind}/${key.namespace}/${key.name}` : `${key.kind}/${key.name}`;
}

export function compareKeys(a: ResourceKey, b: ResourceKey): number {
  return keyId(a) < keyId(b) ? -1 : keyId(a) > keyId(b) ? 1 : 0;
}

// What the cluster's sources say about ownership and scope: the objects their inventories name are
// theirs (Flux `status.inventory`, Argo CD `status.resources`), and, with no `namespaces` in the config,
// a cluster's scope is the namespaces its sources render into plus those their inventories name —
// not every namespace of the cluster (day one is quiet).
import type { DesiredObject, ResourceKey } from '../model/index.js';
import { keyId } from '../model/index.js';
import { isNamespace } from '../k8s/index.js';
import { sourceRefText, type Source } from '../sources/index.js';
import type { OwnershipContext } from './owner.js';

/** The source whose inventory names an object. A HelmRelease's inventory is the Helm release's, not a source's. */
export function inventoryClaims(sources: readonly Source[]): OwnershipContext['sourceOf'] {
  const claims = new Map<string, string>();
  for (const source of sources) {
    for (const entry of source.status?.inventory ?? []) {
      const id = keyId(entry.key);
      if (!claims.has(id)) claims.set(id, sourceRefText(source.id));
    }
  }
  return (key: ResourceKey) => claims.get(keyId(key));
}

/** The namespace a key lives in, or that it is (a Namespace object). */
function namespaceOf(key: ResourceKey): string {
  return isNamespace(key) ? key.name : key.namespace;
}

/**
 * The namespaces the sources render into (the rendered objects', each source's target or destination
 * namespace) and those their inventories name. Undefined when nothing is rendered and no source is known:
 * then nothing narrows the snapshot.
 */
export function sourceScope(desired: readonly DesiredObject[], sources: readonly Source[]): string[] | undefined {
  const namespaces = new Set<string>();
  for (const object of desired) namespaces.add(namespaceOf(object.key));
  for (const source of sources) {
    const { transforms } = source;
    if (transforms.controller === 'flux' && transforms.targetNamespace) namespaces.add(transforms.targetNamespace);
    if (transforms.controller === 'argocd' && transforms.destination.namespace) {
      namespaces.add(transforms.destination.namespace);
    }
    for (const entry of source.status?.inventory ?? []) namespaces.add(namespaceOf(entry.key));
  }
  namespaces.delete('');
  if (namespaces.size === 0 && desired.length === 0 && sources.length === 0) return undefined;
  return [...namespaces].sort();
}

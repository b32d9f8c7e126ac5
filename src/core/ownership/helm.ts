// Helm releases and what they manage, from what Helm and helm-controller stamp: the
// `app.kubernetes.io/managed-by: Helm` label with the `meta.helm.sh/release-name|namespace` annotations
// (helm/helm pkg/action/validate.go), helm-controller's stamps (core/sources' identity: HelmCharts and chart
// output), release Secrets (`sh.helm.release.v1.<name>.v<N>`, type
// `helm.sh/release.v1`, label `owner: helm`), and a HelmRelease's `status.inventory`.
import type { KubeObject } from '../model/index.js';
import { keyId, keyOf } from '../model/index.js';
import { fluxInventory, sourceName, sourceRefOf, stampedHelmRelease } from '../sources/index.js';
import { creationOf } from '../k8s/index.js';

export const HELM_RELEASE_NAME = 'meta.helm.sh/release-name';
export const HELM_RELEASE_NAMESPACE = 'meta.helm.sh/release-namespace';
/** Field managers that install charts: the Helm CLI and Flux's helm-controller. */
export const HELM_MANAGERS: ReadonlySet<string> = new Set(['helm', 'helm-controller']);

export interface HelmIndex {
  /** Objects a HelmRelease's inventory names → `namespace/name` of the release. */
  inventory: ReadonlyMap<string, string>;
  /** Namespaces that releases install into → their releases (`namespace/name`). */
  releasesByNamespace: ReadonlyMap<string, readonly string[]>;
}

/** Reads the Helm releases of a snapshot: HelmRelease inventories and the release stamps on objects. */
export function indexHelm(live: readonly KubeObject[]): HelmIndex {
  const inventory = new Map<string, string>();
  const byNamespace = new Map<string, Set<string>>();
  for (const object of live) {
    const release = stampedRelease(object);
    if (release) {
      const namespace = release.slice(0, release.indexOf('/'));
      if (!byNamespace.has(namespace)) byNamespace.set(namespace, new Set());
      byNamespace.get(namespace)!.add(release);
    }
    const ref = sourceRefOf(object);
    if (ref?.kind !== 'HelmRelease') continue;
    for (const entry of fluxInventory(object.status) ?? []) inventory.set(keyId(entry.key), sourceName(ref));
  }
  return {
    inventory,
    releasesByNamespace: new Map([...byNamespace].map(([ns, names]) => [ns, [...names].sort()])),
  };
}

/** The release an object's own stamps name (`namespace/name`). */
export function stampedRelease(object: KubeObject): string | undefined {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  const name = annotations[HELM_RELEASE_NAME];
  const helm = labels['app.kubernetes.io/managed-by'] === 'Helm' || annotations[HELM_RELEASE_NAMESPACE] !== undefined;
  if (typeof name === 'string' && helm) {
    return `${annotations[HELM_RELEASE_NAMESPACE] ?? object.metadata?.namespace ?? ''}/${name}`;
  }
  const controlled = stampedHelmRelease(object);
  if (controlled) return sourceName(controlled);
  if (object.kind === 'Secret' && (object.type === 'helm.sh/release.v1' || labels.owner === 'helm') && labels.name) {
    return `${object.metadata?.namespace ?? ''}/${labels.name}`;
  }
  return undefined;
}

export interface HelmOwnership {
  name: string;
  evidence: string;
}

/** The Helm release that manages an object, or undefined. */
export function helmReleaseOf(object: KubeObject, index: HelmIndex | undefined): HelmOwnership | undefined {
  const stamped = stampedRelease(object);
  if (stamped) return { name: stamped, evidence: 'Helm release labels and annotations' };
  const listed = index?.inventory.get(keyId(keyOf(object)));
  if (listed) return { name: listed, evidence: `in HelmRelease ${listed}'s inventory` };
  // `helm install --create-namespace` creates the namespace without stamping it.
  const created = creationOf(object);
  if (created && HELM_MANAGERS.has(created.manager)) {
    const namespace = object.kind === 'Namespace' ? (object.metadata?.name ?? '') : (object.metadata?.namespace ?? '');
    const releases = index?.releasesByNamespace.get(namespace) ?? [];
    const name = releases.length ? releases.join(', ') : `(${created.manager})`;
    return { name, evidence: `created by ${created.manager}` };
  }
  return undefined;
}

// Who applies a live object, as far as the snapshot tells: "the next apply removes it" holds for a field
// Git no longer declares only when the applier that removes it is known and reads this repository (a source
// rendered here, or kubectl applying the cluster path). Otherwise the reports say what is known instead:
// "applied by Flux Kustomization flux-system/apps, not in this snapshot".
import { keyId, keyOf, type KubeObject } from '../model/index.js';
import {
  describeSource,
  sourceRefKey,
  sourceRefText,
  stampedHelmRelease,
  stampedSource,
  type ArgoTracking,
  type ControllerName,
  type SourceRef,
} from '../sources/identity.js';
import type { SourceResult } from './source-worklist.js';

/** Why the applier of a live object is not known to read this repository, or undefined when it is. */
export type UnseenApplier = (live: KubeObject, manager?: string) => string | undefined;

export function unseenApplier(
  results: readonly SourceResult[],
  controller: ControllerName,
  tracking: ArgoTracking,
): UnseenApplier {
  const rendered = new Set<string>();
  const elsewhere = new Set<string>();
  const renderedKeys = new Set<string>();
  const claims = new Map<string, SourceRef>();
  for (const result of results) {
    const text = sourceRefText(result.source.id);
    (result.scope === 'rendered' ? rendered : elsewhere).add(text);
    for (const key of result.objects) renderedKeys.add(keyId(key));
    for (const entry of result.source.status?.inventory ?? []) claims.set(keyId(entry.key), result.source.id);
  }
  const about = (ref: SourceRef): string | undefined => {
    const text = sourceRefText(ref);
    if (rendered.has(text)) return undefined;
    const where = elsewhere.has(text) ? 'which applies another repository' : 'not in this snapshot';
    return `applied by ${describeSource(ref)}, ${where}`;
  };
  return (live, manager) => {
    const ref = stampedSource(live, tracking) ?? claims.get(keyId(keyOf(live)));
    if (ref) return about(ref);
    const release = stampedHelmRelease(live);
    if (release) {
      // Chart output: helm-controller applies what the HelmRelease renders, when that is in this render.
      if (renderedKeys.has(keyId(sourceRefKey(release)))) return undefined;
      return `applied by Flux HelmRelease ${release.namespace}/${release.name}, not in this snapshot`;
    }
    if (controller === 'kubectl') return undefined;
    return `applied by ${manager ?? 'a GitOps controller'}, whose source is not in this snapshot`;
  };
}

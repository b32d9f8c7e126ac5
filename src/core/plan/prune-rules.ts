// Which live objects the source manages (so a plan may prune them) and which are never pruned.
import type { KubeObject } from '../model/index.js';
import { sourceRefText, stampedSource, type ArgoTracking } from '../sources/index.js';

/**
 * The source whose stamps a live object carries (core/sources' identity), as its text: the applier's
 * tracking identity. Undefined when untracked.
 */
export function trackingOf(live: KubeObject, tracking?: ArgoTracking): string | undefined {
  const ref = stampedSource(live, tracking);
  return ref ? sourceRefText(ref) : undefined;
}

/** Why an object is never pruned (an annotation the controllers honour), or undefined. */
export function keepReason(live: KubeObject): string | undefined {
  const annotations = live.metadata.annotations ?? {};
  if (annotations['kustomize.toolkit.fluxcd.io/prune'] === 'disabled')
    return 'annotated kustomize.toolkit.fluxcd.io/prune: disabled';
  const syncOptions = annotations['argocd.argoproj.io/sync-options'] ?? '';
  if (syncOptions.split(',').some((option) => option.trim() === 'Prune=false'))
    return 'annotated argocd.argoproj.io/sync-options: Prune=false';
  if (annotations['helm.sh/resource-policy'] === 'keep') return 'annotated helm.sh/resource-policy: keep';
  return undefined;
}

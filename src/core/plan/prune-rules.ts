// Which live objects the source manages (so a plan may prune them) and which are never pruned.
import type { KubeObject } from '../model/index.js';

const FLUX_NAME = 'kustomize.toolkit.fluxcd.io/name';
const FLUX_NAMESPACE = 'kustomize.toolkit.fluxcd.io/namespace';
const ARGO_TRACKING_ID = 'argocd.argoproj.io/tracking-id';
const ARGO_INSTANCE = 'app.kubernetes.io/instance';

/**
 * The applier's tracking identity carried by a live object: Flux's name+namespace labels, Argo CD's
 * tracking-id annotation (its application part) or instance label. Undefined when untracked.
 */
export function trackingOf(live: KubeObject): string | undefined {
  const labels = live.metadata.labels ?? {};
  const annotations = live.metadata.annotations ?? {};
  if (labels[FLUX_NAME] && labels[FLUX_NAMESPACE]) return `flux:${labels[FLUX_NAMESPACE]}/${labels[FLUX_NAME]}`;
  const trackingId = annotations[ARGO_TRACKING_ID];
  if (trackingId) return `argocd:${trackingId.split(':')[0]}`;
  if (labels[ARGO_INSTANCE]) return `argocd:${labels[ARGO_INSTANCE]}`;
  return undefined;
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

// Stamps: metadata a controller writes on every object at apply time (DESIGN "stamp"), part of desired.
// Flux: labels kustomize.toolkit.fluxcd.io/name and /namespace (fluxcd/pkg ssa/manager.go SetOwnerLabels).
// Argo CD: the tracking label and/or annotation (argo-cd util/argo/resource_tracking.go).
import type { DesiredObject, FieldSource } from '../model/index.js';
import { ARGO_INSTALLATION_ANNOTATION, ARGO_TRACKING_ANNOTATION, type ArgoSettings } from './argocd-settings.js';
import { setMetadataKey } from './metadata.js';
import type { SourceId } from './types.js';

export const FLUX_NAME_LABEL = 'kustomize.toolkit.fluxcd.io/name';
export const FLUX_NAMESPACE_LABEL = 'kustomize.toolkit.fluxcd.io/namespace';

/** The stamps of every kind of source, as a table for the one place that needs to know them. */
export function stampSource(id: SourceId, file: string | undefined): FieldSource {
  const source = `${id.kind} ${id.namespace}/${id.name}`;
  return { origin: { type: 'source-transform', source, transform: 'stamp', ...(file ? { file } : {}) } };
}

export function stampFlux(desired: DesiredObject, id: SourceId, source: FieldSource): void {
  setMetadataKey(desired, 'labels', FLUX_NAME_LABEL, id.name, source);
  setMetadataKey(desired, 'labels', FLUX_NAMESPACE_LABEL, id.namespace, source);
}

/**
 * The name Argo CD tracks an Application by (`app.InstanceName`): its name, or `<namespace>_<name>` for
 * an Application outside the control-plane namespace.
 */
export function argoInstanceName(id: SourceId, controlPlaneNamespace = 'argocd'): string {
  return id.namespace && id.namespace !== controlPlaneNamespace ? `${id.namespace}_${id.name}` : id.name;
}

/**
 * A label value as annotation+label tracking writes it: at most 63 characters, trailing characters that
 * are not alphanumeric dropped (resource_tracking.go).
 */
function truncatedLabel(value: string): string {
  return value.length <= 63 ? value : value.slice(0, 63).replace(/[^A-Za-z0-9]+$/, '');
}

export function stampArgo(
  desired: DesiredObject,
  id: SourceId,
  settings: ArgoSettings,
  destinationNamespace: string | undefined,
  source: FieldSource,
): void {
  const app = argoInstanceName(id);
  const { key } = desired;
  if (settings.trackingMethod === 'label') setMetadataKey(desired, 'labels', settings.instanceLabelKey, app, source);
  if (settings.trackingMethod === 'annotation+label') {
    setMetadataKey(desired, 'labels', settings.instanceLabelKey, truncatedLabel(app), source);
  }
  if (settings.trackingMethod === 'label') return;
  // CRDs get no tracking annotation (reposerver/repository/repository.go: !kube.IsCRD(target)).
  if (key.group === 'apiextensions.k8s.io' && key.kind === 'CustomResourceDefinition') return;
  // A cluster-scoped object (keyed without a namespace) has its tracking id name the destination
  // namespace (UnstructuredToAppInstanceValue).
  const namespace = key.namespace === '' ? (destinationNamespace ?? '') : key.namespace;
  const trackingId = `${app}:${key.group}/${key.kind}:${namespace}/${key.name}`;
  setMetadataKey(desired, 'annotations', ARGO_TRACKING_ANNOTATION, trackingId, source);
  if (settings.installationID) {
    setMetadataKey(desired, 'annotations', ARGO_INSTALLATION_ANNOTATION, settings.installationID, source);
  }
}

// Argo CD's resource tracking settings from `argocd-cm` (util/settings/settings.go): the method
// (`application.resourceTrackingMethod`, empty = `annotation` since 3.0), the label key
// (`application.instanceLabelKey`, empty = `app.kubernetes.io/instance`) and the installation id.
import type { KubeObject } from '../model/index.js';
import { stringAt } from './fields.js';

export type TrackingMethod = 'label' | 'annotation' | 'annotation+label';

export interface ArgoSettings {
  trackingMethod: TrackingMethod;
  instanceLabelKey: string;
  installationID?: string;
  /** Whether the values were read from an `argocd-cm` in the snapshot, or are Argo CD 3.x's defaults. */
  from: 'argocd-cm' | 'defaults';
}

export const ARGO_INSTANCE_LABEL = 'app.kubernetes.io/instance';
export const ARGO_TRACKING_ANNOTATION = 'argocd.argoproj.io/tracking-id';
export const ARGO_INSTALLATION_ANNOTATION = 'argocd.argoproj.io/installation-id';

const METHODS: ReadonlySet<string> = new Set(['label', 'annotation', 'annotation+label']);

/** Reads `argocd-cm` (in `namespace`, default `argocd`) from the snapshot's objects. */
export function readArgoSettings(live: readonly KubeObject[], namespace = 'argocd'): ArgoSettings {
  const cm = live.find(
    (obj) =>
      obj.kind === 'ConfigMap' &&
      obj.apiVersion === 'v1' &&
      obj.metadata?.name === 'argocd-cm' &&
      obj.metadata?.namespace === namespace,
  );
  const method = stringAt(cm, 'data', 'application.resourceTrackingMethod');
  const settings: ArgoSettings = {
    trackingMethod: method && METHODS.has(method) ? (method as TrackingMethod) : 'annotation',
    instanceLabelKey: stringAt(cm, 'data', 'application.instanceLabelKey') || ARGO_INSTANCE_LABEL,
    from: cm ? 'argocd-cm' : 'defaults',
  };
  const installationID = stringAt(cm, 'data', 'installationID');
  if (installationID) settings.installationID = installationID;
  return settings;
}

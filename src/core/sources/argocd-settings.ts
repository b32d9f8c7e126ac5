// Argo CD's resource tracking settings from `argocd-cm` (util/settings/settings.go): the method
// (`application.resourceTrackingMethod`, empty = `annotation` since 3.0), the label key
// (`application.instanceLabelKey`, empty = the default instance label) and the installation id. The
// ConfigMap's namespace is the control plane's: Applications elsewhere are tracked as `<ns>_<name>`.
import type { KubeObject } from '../model/index.js';
import { stringAt } from './fields.js';
import { DEFAULT_ARGO_TRACKING, type ArgoTracking, type TrackingMethod } from './identity.js';

const METHODS: ReadonlySet<string> = new Set(['label', 'annotation', 'annotation+label']);

function isArgoCm(obj: KubeObject): boolean {
  return obj.kind === 'ConfigMap' && obj.apiVersion === 'v1' && obj.metadata?.name === 'argocd-cm';
}

/** Reads `argocd-cm` from the snapshot's objects (the one in `argocd` first); Argo CD 3's defaults without one. */
export function readArgoSettings(live: readonly KubeObject[]): ArgoTracking {
  const candidates = live.filter(isArgoCm);
  const cm = candidates.find((obj) => obj.metadata?.namespace === 'argocd') ?? candidates[0];
  if (!cm) return DEFAULT_ARGO_TRACKING;
  const method = stringAt(cm, 'data', 'application.resourceTrackingMethod');
  const settings: ArgoTracking = {
    trackingMethod: method && METHODS.has(method) ? (method as TrackingMethod) : 'annotation',
    instanceLabelKey: stringAt(cm, 'data', 'application.instanceLabelKey') || DEFAULT_ARGO_TRACKING.instanceLabelKey,
    controlPlaneNamespace: cm.metadata?.namespace || DEFAULT_ARGO_TRACKING.controlPlaneNamespace,
    from: 'argocd-cm',
  };
  const installationID = stringAt(cm, 'data', 'installationID');
  if (installationID) settings.installationID = installationID;
  const buildOptions = stringAt(cm, 'data', 'kustomize.buildOptions');
  if (buildOptions) settings.kustomizeBuildOptions = buildOptions;
  return settings;
}

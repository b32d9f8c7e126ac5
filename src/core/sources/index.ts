// Sources: the Flux Kustomizations and Argo CD Applications that apply this repository to a cluster,
// read from the rendered repository and the snapshot (DESIGN "Controllers, sources and owners").
export * from './types.js';
export { fluxInventory, fluxInventoryId, argoInventory, parseFluxInventoryId } from './inventory.js';
export { isFluxKustomization, readFluxKustomization } from './flux.js';
export { isArgoApplication, readArgoApplication } from './argocd.js';
export {
  applicationSetControllerNamespace,
  applicationsSyncPolicy,
  isApplicationSet,
  isGeneratedApplication,
  isGeneratedBy,
  type ApplicationsSyncPolicy,
} from './applicationset.js';
export { parseImageOverride } from './transform-entries.js';
export { isSourceObject, readSource, readSources, type SourceInputs } from './read-sources.js';
export { argoInstanceFor, readArgoInstances, readArgoSettings } from './argocd-settings.js';
export {
  argoInstanceName,
  describeSource,
  isStampedBy,
  isStampKey,
  liveStampKeys,
  sameSource,
  sourceName,
  sourceRefKey,
  sourceRefOf,
  sourceRefText,
  stampedHelmRelease,
  stampedRefs,
  stampedSource,
  stampsFor,
  ARGO_INSTANCE_LABEL,
  ARGO_RESOURCES_FINALIZER,
  DEFAULT_ARGO_TRACKING,
  FLUX_HELM_GROUP,
  FLUX_KUSTOMIZE_GROUP,
  type ArgoTracking,
  type ControllerName,
  type SourceRefKind,
  type SourceRef,
  type Stamp,
  type TrackingMethod,
} from './identity.js';
export { repositoryOfUrl } from './scope.js';
export { argoSyncTimes, type DuringSync } from './sync-times.js';
export {
  describeHook,
  hookRuns,
  deleteHookRuns,
  deleteHookOwners,
  hooksById,
  liveHookOf,
  setHooksAside,
  syncHookOf,
  type DesiredHook,
} from './sync-hooks.js';

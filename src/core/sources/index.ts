// Sources: the Flux Kustomizations and Argo CD Applications that apply this repository to a cluster,
// read from the rendered repository and the snapshot (DESIGN "Controllers, sources and owners").
export * from './types.js';
export { fluxInventory, fluxInventoryId, argoInventory, parseFluxInventoryId } from './inventory.js';
export { FLUX_KUSTOMIZE_GROUP, isFluxKustomization, readFluxKustomization } from './flux.js';
export { ARGO_APPLICATION_GROUP, isArgoApplication, readArgoApplication } from './argocd.js';
export { parseImageOverride } from './patches.js';
export { isSourceObject, readSource, readSources, type SourceInputs } from './read.js';
export {
  ARGO_INSTALLATION_ANNOTATION,
  ARGO_INSTANCE_LABEL,
  ARGO_TRACKING_ANNOTATION,
  readArgoSettings,
  type ArgoSettings,
  type TrackingMethod,
} from './argocd-settings.js';
export {
  detectController,
  renderClusterSources,
  type ClusterSourcesInput,
  type ClusterSourcesRender,
  type SourceResult,
  type SourceScope,
} from './render-cluster.js';
export type { SourceNote, SourceNoteCode } from './render-types.js';
export { FLUX_NAME_LABEL, FLUX_NAMESPACE_LABEL, argoInstanceName } from './stamps.js';
export { repositoryOfUrl } from './scope.js';
export { isWrapperPath } from './wrapper.js';
export { newResourceHomes, pruneInventories, summarizeSourceDrift, summarizeSourcePlan } from './summary.js';

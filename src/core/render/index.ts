// Rendering, one stage: every source of this repository rendered as its controller renders it (Flux
// Kustomizations, Argo CD Applications, the cluster path applied by kubectl), through the kustomize
// implementation in core/manifests; each field traced to where it is written. core/sources says what a
// source is; this folder says what it applies.
export {
  detectController,
  renderClusterSources,
  type ClusterSourcesInput,
  type ClusterSourcesRender,
  type SourceResult,
  type SourceScope,
} from './source-worklist.js';
export type { SourceNote, SourceNoteCode } from './types.js';
export { isWrapperPath } from './wrapper.js';
export { maskSecretFields } from './flux-substitute.js';
export { newResourceHomes, pruneInventories, summarizeSourceDrift, summarizeSourcePlan } from './per-source.js';
export {
  clusterRoot,
  configWithSourceRules,
  renderCluster,
  type ClusterRender,
  type ClusterTarget,
  type RenderClusterOptions,
} from './cluster-render.js';
export { unseenApplier, type UnseenApplier } from './unseen-appliers.js';

// One pipeline, two doors: the App and the CLI call these in the same order with the same inputs,
// so `driftback diff` and `driftback plan` on files say what the App says about the same cluster.
export {
  branchFor,
  codifyEvaluated,
  evaluateDrift,
  proposeDrift,
  reconcileDrift,
  type DriftEvaluation,
  type DriftGroup,
  type SeenRange,
  type DriftInput,
  type EvaluatedDrift,
  type Evaluation,
} from './drift-pipeline.js';
export { codifiedFingerprints, dropDeclined, resourceFingerprint } from './decisions.js';
export { scopeOf } from './live-state.js';
export { planCluster, type PlanClusterInput } from './plan-pipeline.js';
export {
  planClusters,
  type ClusterPlan,
  type PlanRequest,
  type PlanTarget,
  type PlannedClusters,
} from './plan-clusters.js';
export { touchedClusters, type ClusterFiles } from './touched-clusters.js';
export { renderedParts, type PartialParts } from './partial-parts.js';
export {
  describeNotRendered,
  keepNotRendered,
  mayComeFromNotRendered,
  notRenderedPlace,
  setAsideNotRendered,
} from './not-rendered.js';
// The render stage's entry points and the live state type, for callers that run the pipeline.
export {
  clusterRoot,
  configWithSourceRules,
  renderCluster,
  type ClusterRender,
  type ClusterTarget,
  type RenderClusterOptions,
} from '../render/index.js';
export type { LiveState } from '../model/index.js';
export { undoneSince, watchedChanges, type UndoneChange, type WatchedChange } from './undone.js';

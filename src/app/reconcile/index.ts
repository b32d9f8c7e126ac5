// The App's main loop: a stored snapshot reconciled into a drift pull request.
export { createReconcileHandler } from './job.js';
export { reconcileCluster, type ReconcileDeps, type ReconcileOutcome, type ReconcileTarget } from './run-reconcile.js';
export { recordDeclinedPullRequest, type DeclineResult } from './decline.js';
export { branchFor, type DriftGroup, type Evaluation } from './evaluate.js';
export {
  readClusterState,
  type BranchState,
  type ClusterState,
  type RepositoryState,
  type ReconcileOutcomeType,
} from './state.js';

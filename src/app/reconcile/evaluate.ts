// The reconcile's computation is the core drift pipeline (core/pipeline/drift.ts), the same one
// `driftback diff` and `driftback codify` run; the App's modules name its types from here.
export {
  branchFor,
  clusterRoot,
  type DriftGroup,
  type DriftInput as EvaluateInput,
  type Evaluation,
} from '../../core/pipeline/index.js';

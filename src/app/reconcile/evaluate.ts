// The reconcile's computation is the core drift pipeline (core/pipeline/drift-pipeline.ts), the same one
// `driftback diff` and `driftback codify` run; the App's modules name its types from here.
export {
  branchFor,
  type DriftGroup,
  type DriftInput as EvaluateInput,
  type Evaluation,
} from '../../core/pipeline/index.js';
export { clusterRoot } from '../../core/render/index.js';

// The reconcile's computation is the core drift pipeline (core/pipeline/drift-pipeline.ts), the same one
// `driftback diff` and `driftback codify` run; the App's modules name its types from here.
export { branchFor, type DriftGroup, type Evaluation } from '../../core/pipeline/index.js';

// Plan: head × base × live → create / update / prune / unchanged, with warnings.
export { planChanges, isEmptyPlan, type PlanInput } from './plan-changes.js';
export { keepReason, trackingOf } from './prune-rules.js';
export { immutableReason } from './immutable.js';
export { appliesPath, notReconcilingReason } from './reconcilers.js';
export { formatAge, secondsBetween } from './age.js';

// Plan: head × base × live → create / update / prune / unchanged, with warnings.
export { planChanges, isEmptyPlan, type PlanInput } from './plan-changes.js';
export type { PlannedSnapshot } from './cluster-warnings.js';
export { keepReason, trackingOf } from './prune-rules.js';
export { appliesPath, notReconcilingReason } from './reconcilers.js';
export { formatAge, secondsBetween } from './age.js';
export { locateProtectedPrunes } from './locate-prunes.js';
export { hooksOnDelete, hooksOnSync } from './sync-hooks-run.js';
export { unrenderedDeleteHooks, type UnrenderedDeletion } from './unrendered-delete-hooks.js';
export { uninstallHooks } from './release-uninstall-hooks.js';
export { planIgnoredFields } from './argo-ignored-fields.js';
export { refuseUnpermitted } from './argo-project.js';
export { imagePolicyWarnings } from './image-policy-warnings.js';
export { withArgoSyncOptions } from './argo-sync-options.js';
export { argoResyncWarnings, imageUpdaterWarnings, refreshPaths, touchesPaths } from './argo-resync.js';
export { argoCompareOptionWarnings } from './argo-compare-options.js';
export { setSharedResourcesAside } from './shared-resources.js';
export { autoscaledReplicas, hpaReplicasMessage, type AutoscaledReplicas } from './hpa-warnings.js';
export { argoBehind, controllerStopped, stoppedReason, type StoppedController } from './controller-stopped.js';

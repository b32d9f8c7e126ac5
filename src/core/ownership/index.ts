// Ownership of live objects, in one place: who created and manages each object, and what follows for
// drift (only a person's object is codifiable as a new file).
export { describeOwner, ownerOf, stampedSourceName, type OwnershipContext } from './owner.js';
export { clusterMadeBy, SYSTEM_NAMESPACES, type ClusterMaker } from './cluster.js';
export { HELM_MANAGERS, helmReleaseOf, indexHelm, stampedRelease, type HelmIndex, type HelmOwnership } from './helm.js';
export { judgeExtra, neverWritten, ownershipContextOf, type ExtraVerdict } from './extras.js';
export { handChangesOn, helmReason, helmRemedy, resolveSegments } from './hand-changes.js';
export { inventoryClaims, sourceScope } from './sources.js';
export {
  ARGO_GENERATE_PATHS,
  fluxTakesOver,
  goDurationSeconds,
  nextMoveOf,
  type ApplyingController,
  type MoveFacts,
} from './next-move.js';

// Classification of drift: who caused a change, which changes an ignore rule sets aside, and the
// persistence gate that keeps passing differences out of pull requests.
export {
  classifyManager,
  isGitOpsApplier,
  BUILTIN_APPLIERS,
  CLI_APPLIERS,
  HUMAN_MANAGERS,
  CONTROLLER_MANAGERS,
} from './managers.js';
export { compileIgnoreRules, ignoreRuleFor, pathMatches, type IgnoreMatcher } from './ignore.js';
export { applyPersistenceGate, fingerprintChange, stableJson, wholeResourceChange } from './gate.js';
export { liveStateDigest } from './live-digest.js';
export { driftTally, summarize } from './summary.js';
export { buildOwnership, creatorOf } from './field-owners.js';
export {
  imageAutomationReason,
  imagePolicyMarkerAt,
  setImageAutomationAside,
  type ImagePolicyMarker,
} from './image-automation.js';

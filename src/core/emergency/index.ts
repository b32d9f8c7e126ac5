// Emergency changes: suspensions (who, since), the drift made under them, and the procedure that
// brings Git and the cluster back together (resume, verify).
export {
  suspensionsOf,
  suspensionsByRepository,
  suspensionsOfThisRepository,
  suspendedObjectKey,
  FLUX_RECONCILE_ANNOTATION,
  ARGO_SKIP_RECONCILE_ANNOTATION,
  type Suspension,
} from './suspensions.js';
export { indexSuspensions, objectsOfSource, objectsOfSuspended, type SuspensionIndex } from './covered.js';
export {
  emergencyChanges,
  resumeDeadline,
  resumeStep,
  revisionCommit,
  stillHolds,
  suspensionLabel,
  NOTHING_DONE,
  type Checklist,
  type EmergencyChange,
} from './procedure.js';
export { suspendedSourceWarnings } from './plan-note.js';
export { suspensionNotices } from './notice.js';
export { isSuspensionSwitch, setSuspensionSwitchesAside } from './switches.js';
export { renderChecklist, withChecklist } from './checklist.js';
export { appliedCommitOf } from './applied.js';
export {
  followEmergency,
  commitToCheck,
  type EmergencyAction,
  type EmergencyEvent,
  type EmergencyObservation,
  type EmergencyRecord,
  type EmergencyStep,
  type PullRequestSeen,
} from './follow.js';
export { followVerified, type MovedField, type VerifiedObservation } from './after-verify.js';

// Every decision the App makes, as data: state × observation → the actions it executes, in order.
export {
  driftLabels,
  emergencyByBranch,
  driftTitle,
  isRisky,
  pullRequestFace,
  pullRequestTitle,
  EMERGENCY_LABEL,
  SECURITY_LABEL,
  type EmergencyChanges,
} from './pull-request-face.js';
export {
  decideReconcile,
  decideSecurityCheck,
  type ActionOf,
  type Because,
  type PriorBranch,
  type ReconcileAction,
  type ReconcileRule,
  type ReconcileView,
  type SecurityCheckRecord,
} from './reconcile.js';
export { actionLine, actionsText, writesToGitHub, type ActionLine } from './explain.js';
export {
  decideFixesUndone,
  decideSuspended,
  fixUndoneKey,
  suspendedKey,
  withIssue,
  type AlertAction,
  type AlertDecision,
  type OpenAlerts,
  type SuspensionSeen,
} from './alert-issues.js';

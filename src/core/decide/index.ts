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
export { decideNotReporting, isStale, notReportingKey, type NotReportingRecord } from './stale-alert.js';
export {
  commitsToCompare,
  decideNotReconciling,
  notReconcilingKey,
  withReconcilerIssues,
  NOT_RECONCILING_FOR_SECONDS,
  type Comparison,
  type NotReconcilingEntry,
  type NotReconcilingInput,
  type PendingCommit,
  type ReconcilerRef,
} from './reconciler-alerts.js';
export {
  dashboardCluster,
  dashboardFingerprint,
  dashboardOf,
  decideDashboard,
  DASHBOARD_KEY,
  DASHBOARD_LABELS,
  type ClusterFigures,
  type DashboardRecord,
  type DashboardWrite,
  type GatheredCluster,
} from './dashboard-view.js';
export {
  decideSwitchIssue,
  switchesSeen,
  switchIssueKey,
  type SwitchIssueAction,
  type SwitchIssueRecord,
  type SwitchSeen,
} from './switch-issue-actions.js';

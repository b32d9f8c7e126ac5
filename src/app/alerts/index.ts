// Alert issues for persistent conditions (a cluster not reporting, a GitOps controller not
// reconciling) and the scheduled watch that also keeps the dashboard and plans current.
export { createAlertsHandler, runAlerts, ALERTS_EVERY_SECONDS } from './run-alerts.js';
export { watchRepository, type WatchDeps, type WatchOutcome } from './watch-repository.js';
export { checkNotReporting } from './not-reporting.js';
export { checkNotReconciling } from './not-reconciling.js';
export { ALERT_LABELS } from './execute-alerts.js';
export { readWatchState, writeWatchState, type WatchState } from './alert-state.js';
export { checkSuspended, type SuspendedAlertChange } from './suspended.js';
export { checkFixesUndone } from './fix-undone.js';

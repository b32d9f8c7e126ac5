// The dashboard issue and the per-cluster gauges.
export { executeDashboard, gatherDashboard, type DashboardDeps } from './update-dashboard.js';
export { snapshotAgeRefresher } from './gauges.js';

// The dashboard issue and the per-cluster gauges.
export {
  updateDashboard,
  dashboardView,
  dashboardFingerprint,
  DASHBOARD_KEY,
  DASHBOARD_LABELS,
  SECURITY_LABEL,
  type DashboardDeps,
} from './update-dashboard.js';
export { dashboardCluster } from './cluster-view.js';
export { snapshotAgeRefresher } from './gauges.js';

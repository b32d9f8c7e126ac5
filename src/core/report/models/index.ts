// One model type per template: what a repository's `.github/driftback/templates/<name>.hbs` can use.
// docs/templates.md documents them field by field.
import type { StaleAlertModel, NotReconcilingAlertModel, SuspendedAlertModel, FixUndoneAlertModel } from './alerts.js';
import type { DashboardModel } from './dashboard.js';
import type { DriftPullRequestModel } from './drift-pull-request.js';
import type { DriftReportModel } from './drift-report.js';
import type { PlanCommentModel } from './plan-comment.js';
import type { SwitchIssueModel } from './switch-issue.js';

export interface TemplateModels {
  'plan-comment': PlanCommentModel;
  'drift-pull-request': DriftPullRequestModel;
  'drift-markdown': DriftReportModel;
  dashboard: DashboardModel;
  'stale-alert': StaleAlertModel;
  'not-reconciling-alert': NotReconcilingAlertModel;
  'suspended-alert': SuspendedAlertModel;
  'fix-undone-alert': FixUndoneAlertModel;
  'switch-issue': SwitchIssueModel;
}

export type * from './alerts.js';
export type * from './changes.js';
export type * from './dashboard.js';
export type * from './drift-pull-request.js';
export type * from './drift-report.js';
export type * from './plan-comment.js';
export type * from './risk.js';
export type * from './switch-issue.js';
export type * from './undo.js';

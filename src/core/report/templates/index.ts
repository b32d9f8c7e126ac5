// The built-in templates (Handlebars over Markdown). Kept as modules rather than .hbs files because
// the core reads no files; a repository overrides one with `.github/driftback/<name>.hbs`.
import { PLAN_COMMENT } from './plan-comment.js';
import { DRIFT_PULL_REQUEST } from './drift-pull-request.js';
import { DRIFT_MARKDOWN } from './drift-markdown.js';
import { DASHBOARD } from './dashboard.js';
import { STALE_ALERT, NOT_RECONCILING_ALERT, SUSPENDED_ALERT, FIX_UNDONE_ALERT } from './alerts.js';
import { SWITCH_ISSUE } from './switch-issue.js';

export const TEMPLATES = {
  'plan-comment': PLAN_COMMENT,
  'drift-pull-request': DRIFT_PULL_REQUEST,
  'drift-markdown': DRIFT_MARKDOWN,
  dashboard: DASHBOARD,
  'stale-alert': STALE_ALERT,
  'not-reconciling-alert': NOT_RECONCILING_ALERT,
  'suspended-alert': SUSPENDED_ALERT,
  'fix-undone-alert': FIX_UNDONE_ALERT,
  'switch-issue': SWITCH_ISSUE,
} as const;

export type TemplateName = keyof typeof TEMPLATES;

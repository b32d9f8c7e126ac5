// Reports: every output format of a drift or a plan — view models → Markdown (handlebars), text and
// JSON for the command line, check-run output — with markers, size budget and escaping.
export { renderPlanComment, planCommentView, type ConfigChangeNote, type PlanCommentMeta } from './plan-comment.js';
export { planSummary, planHeadline, WARNING_TITLES } from './plan-view.js';
export {
  renderCheckRun,
  configChangeText,
  givenUpCheckRun,
  type CheckRunOptions,
  chunkAnnotations,
  ANNOTATIONS_PER_REQUEST,
  type CheckRunOutput,
  type CheckAnnotation,
  type CheckConclusion,
} from './check-run.js';
export { renderDriftPullRequest, type DriftPullRequestView } from './drift-pull-request.js';
export { renderDriftMarkdown } from './drift-markdown.js';
export { undoGroups, undoLines } from './undo-rows.js';
export {
  renderDashboard,
  dashboardModel,
  dashboardDigest,
  DASHBOARD_TITLE,
  type DashboardView,
  type DashboardCluster,
  type DashboardDecision,
  DECISIONS_SHOWN,
} from './dashboard.js';
export {
  renderStaleAlert,
  renderNotReconcilingAlert,
  staleAlertTitle,
  notReconcilingAlertTitle,
  type StaleAlertView,
  type NotReconcilingAlertView,
  type RenderedIssue,
} from './alerts.js';
export {
  withMarker,
  markerOf,
  markerKey,
  markerComment,
  contentHash,
  bodyWithoutMarker,
  isUnchanged,
  type Marker,
} from './document-marker.js';
export { splitComment, fitBudget, isBalanced, GITHUB_BODY_LIMIT, MARKER_RESERVE } from './budget.js';
export {
  escapeText,
  escapeHtml,
  escapeProse,
  escapeProseHtml,
  inlineCode,
  codeBlock,
  neutralizeMentions,
} from './escape.js';
export { renderDocument, renderTemplate } from './template-engine.js';
export {
  templateOverrides,
  overridesOf,
  overridePath,
  NO_OVERRIDES,
  TEMPLATES_DIR,
  type TemplateOverrides,
} from './overrides.js';
export type * from './models/index.js';
export { TEMPLATES, type TemplateName } from './templates/index.js';
export { renderPlanText, planToJson } from './plan-text.js';
export { renderDiffText, diffSummaryLine, type TextExtras } from './diff-text.js';
export {
  renderDiffJson,
  diffToJson,
  type DiffExtras,
  type JsonDiffDocument,
  type JsonResource,
  type JsonChange,
} from './diff-json.js';
export { paletteFor, plainPalette, type Palette } from './palette.js';
export { isPartial, notesBesideNotRendered, partialJson, partialLines } from './partial-result.js';
export { renderCodifyText, renderCodifyPatch } from './codify-text.js';
export { renderAccount, renderDesiredObjects } from './rendered-objects.js';
export { foreignCommitsComment, driftGoneComment } from './drift-branch-notes.js';
export {
  renderEmergencySection,
  emergencyTitle,
  renderSuspendedAlert,
  suspendedAlertTitle,
  renderFixUndoneAlert,
  fixUndoneAlertTitle,
  type SuspensionView,
  type SuspendedAlertView,
  type FixUndoneView,
} from './emergency.js';
export { renderSecurityCheck, securityCheckName } from './security-check.js';
export {
  renderSwitchIssue,
  switchIssueTitle,
  type SwitchIssueEntry,
  type SwitchIssueView,
} from './switch-issue-body.js';

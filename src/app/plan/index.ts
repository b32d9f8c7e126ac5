// Plans on pull requests: webhooks enqueue, the plan job builds and publishes, a new snapshot
// refreshes the plans of open pull requests.
export {
  PLAN_CHECK_NAME,
  PLAN_COMMENT_KEY,
  PLAN_QUEUE,
  planJobKey,
  isPlanJob,
  type PlanJob,
  type ReviewDeps,
} from './deps.js';
export { createPlanHandler, runPlanJob, type PlanOutcome } from './plan-job.js';
export { planPullRequest, planRequestOf, type BuiltPlans, type PlanInputs, type PlanWork } from './build-plans.js';
export { publishPlan, type Published, type PublishTarget } from './publish-plan.js';
export { refreshOpenPlans, REFRESH_LIMIT } from './refresh-open-plans.js';
export { onPlanRequested, onPlanRerun, pullRequestsWithHead, PLAN_PULL_REQUEST_ACTIONS } from './webhooks.js';

// The budget every render the App runs gets: the core's node budget, and a time budget measured on
// the App's clock. A render over it becomes a problem on the dashboard or the check run; the job
// completes, so it is not retried, and the process stays up for every other repository.
import type { RenderBudget } from '../core/manifests/index.js';

/** How long one render (one cluster at one commit) may take. Default 60 s. */
export const RENDER_TIME_BUDGET_MS = 60_000;

export function appRenderBudget(now: () => Date): RenderBudget {
  return { time: { budgetMs: RENDER_TIME_BUDGET_MS, now: () => now().getTime() } };
}

// The sticky plan comment on a pull request: per cluster a one-line summary, warnings, then each
// resource in <details> with a unified YAML diff. Degrades to fit GitHub's size limit and a reader's
// patience (LINE_BUDGET): the diffs go first, and the objects are condensed into lines.
import { formatProblem, type Plan, type SourceProblem } from '../model/index.js';
import { GITHUB_BODY_LIMIT, LINE_BUDGET, MARKER_RESERVE, visibleLines } from './budget.js';
import { renderDocument, type TemplateOverrides } from './template-engine.js';
import type { PlanCommentModel } from './models/index.js';
import { clusterView, diffsFit, type DetailLevel, type DiffCache } from './plan-view.js';

export interface ConfigChangeNote {
  file: string;
  /** describeConfigChange(base, proposed); undefined when the proposed config has errors. */
  changes?: string[];
  /** Why nothing was planned (the base branch has no valid config), when so. */
  unplanned?: string;
}

export interface PlanCommentMeta {
  /** The PR head commit the plan is for. */
  headSha?: string;
  /** Per cluster, when its snapshot was taken (shown next to the summary). */
  snapshots?: Record<string, string>;
  /** Config or render errors (shown first, with file and line). */
  errors?: SourceProblem[];
  /** The pull request changes the config: what its version would change (it is not what was planned). */
  configChange?: ConfigChangeNote;
  templates?: TemplateOverrides;
  /** Size limit; default GitHub's 65,536 characters less room for the marker. */
  limit?: number;
}

const CONDENSED =
  'objects of one kind, operation and file share a line, and every object is counted. `driftback plan` (text or JSON) lists every object and field.';

const NOTES: Record<DetailLevel, string | undefined> = {
  0: undefined,
  1: `The diffs were left out to keep this comment short and within GitHub’s size limit: ${CONDENSED}`,
  2: 'Diffs and fields were left out to keep this comment short and within GitHub’s size limit: objects of one kind and operation share a line, and every object is counted. `driftback plan` (text or JSON) lists every object and field.',
  3: 'Only counts are shown: the full plan does not fit in a comment. Run `driftback plan` locally for every change.',
};

/**
 * Short enough to read: with its diffs, at most `LINE_BUDGET` lines outside folds (the diffs are folded);
 * without them, at most `LINE_BUDGET` lines in all.
 */
function readable(levels: DetailLevel[]) {
  return (body: string, index: number): boolean =>
    (levels[index] === 0 ? visibleLines(body) : body.split('\n').length) <= LINE_BUDGET;
}

export function planCommentView(
  plans: Array<{ cluster: string; plan: Plan }>,
  meta: PlanCommentMeta,
  level: DetailLevel,
  cache: DiffCache = new Map(),
): PlanCommentModel {
  return {
    ...(meta.headSha ? { headSha: meta.headSha.slice(0, 7) } : {}),
    errors: (meta.errors ?? []).map(formatProblem),
    clusters: plans.map(({ cluster, plan }) => clusterView(cluster, plan, level, meta.snapshots?.[cluster], cache)),
    ...(meta.configChange
      ? { configChange: { ...meta.configChange, invalid: meta.configChange.changes === undefined } }
      : {}),
    ...(NOTES[level] ? { note: NOTES[level] } : {}),
  };
}

export function renderPlanComment(plans: Array<{ cluster: string; plan: Plan }>, meta: PlanCommentMeta = {}): string {
  const limit = meta.limit ?? GITHUB_BODY_LIMIT - MARKER_RESERVE;
  const cache: DiffCache = new Map();
  // Computing 2,000 diffs to learn they cannot fit is the slow path: stop at the first that overflows.
  const levels: DetailLevel[] = diffsFit(
    plans.map((p) => p.plan),
    limit,
    cache,
  )
    ? [0, 1, 2, 3]
    : [1, 2, 3];
  const models = levels.map((level) => () => planCommentView(plans, meta, level, cache));
  return renderDocument('plan-comment', models, limit, meta.templates, readable(levels));
}

// Writes a built plan to the pull request: one sticky comment (edited in place, numbered parts only
// when one comment cannot hold it) and one `driftback / plan` check run on the head commit. Every
// write goes to the base repository, so a fork is never written to.
import {
  GITHUB_BODY_LIMIT,
  MARKER_RESERVE,
  renderCheckRun,
  splitComment,
  type TemplateOverrides,
} from '../../core/report/index.js';
import {
  createOrUpdateCheckRun,
  upsertStickyComment,
  type AppIdentity,
  type CheckRunResult,
  type GitHubClient,
  type StickyCommentResult,
} from '../../github/index.js';
import type { BuiltPlans } from './build-plans.js';
import { PLAN_CHECK_NAME, PLAN_COMMENT_KEY } from './deps.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';

export interface PublishTarget {
  owner: string;
  repo: string;
  number: number;
  headSha: string;
}

export interface Published {
  comment: StickyCommentResult;
  checkRun: CheckRunResult;
  conclusion: string;
}

export async function publishPlan(
  octokit: GitHubClient,
  target: PublishTarget,
  built: BuiltPlans,
  author: AppIdentity,
  templates?: TemplateOverrides,
  documents: Documents = renderInPlace,
): Promise<Published> {
  const { owner, repo } = target;
  const { plans, snapshots, errors, configChange } = built;
  const body = await documents('renderPlanComment', plans, {
    headSha: target.headSha,
    snapshots,
    errors,
    templates,
    ...(configChange ? { configChange } : {}),
  });
  // renderPlanComment already degrades detail to fit; parts are the last resort (hundreds of clusters).
  const parts = splitComment(body, GITHUB_BODY_LIMIT - MARKER_RESERVE);
  const comment = await upsertStickyComment(octokit, {
    owner,
    repo,
    issueNumber: target.number,
    key: PLAN_COMMENT_KEY,
    parts,
    author,
  });
  const output = renderCheckRun(built.plans, {
    errors: built.errors,
    ...(built.dataLossConclusion ? { dataLoss: built.dataLossConclusion } : {}),
    ...(built.configChange ? { configChange: built.configChange } : {}),
  });
  const checkRun = await createOrUpdateCheckRun(octokit, {
    owner,
    repo,
    name: PLAN_CHECK_NAME,
    headSha: target.headSha,
    conclusion: output.conclusion,
    title: output.title,
    summary: output.summary,
    ...(output.text ? { text: output.text } : {}),
    annotations: output.annotations,
  });
  return { comment, checkRun, conclusion: output.conclusion };
}

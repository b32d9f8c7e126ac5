// Check runs of the stand-in: create, update (annotations accumulate, at most 50 per request),
// list for a ref, list annotations.
import { notFound, paginate, requireString, unprocessable, type Router, type RouteContext } from './http-kit.js';
import { APP_SLUG, type CheckRunRecord, type RepoState, type StandInState } from './state.js';

type Context = RouteContext<StandInState>;

const STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'];
const CONCLUSIONS = ['action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'stale', 'timed_out'];
const LEVELS = ['notice', 'warning', 'failure'];

const repoOf = (context: Context): RepoState => context.state.repo(context.params.owner, context.params.repo);

function validateOutput(output: any): void {
  if (output === undefined) return;
  if (typeof output?.title !== 'string' || typeof output?.summary !== 'string')
    throw unprocessable('Invalid request.\n\n"title" and "summary" are required in "output".');
  if (output.summary.length > 65535)
    throw unprocessable('Invalid request.\n\nOnly 65535 characters are allowed; 65536 were supplied.');
  const annotations: unknown = output.annotations ?? [];
  if (!Array.isArray(annotations)) throw unprocessable('Invalid request.\n\n"annotations" is not an array.');
  if (annotations.length > 50) throw unprocessable('Invalid request.\n\nOnly 50 annotations are allowed per request.');
  for (const annotation of annotations) {
    const valid =
      typeof annotation?.path === 'string' &&
      Number.isInteger(annotation.start_line) &&
      Number.isInteger(annotation.end_line) &&
      LEVELS.includes(annotation.annotation_level) &&
      typeof annotation.message === 'string';
    if (!valid)
      throw unprocessable(
        'Invalid request.\n\nAn annotation needs path, start_line, end_line, annotation_level (notice, warning, failure) and message.',
      );
  }
}

function applyUpdate(context: Context, run: CheckRunRecord, body: any): void {
  if (body.status !== undefined && !STATUSES.includes(body.status))
    throw unprocessable(`Invalid request.\n\n${JSON.stringify(body.status)} is not a valid status.`);
  if (body.conclusion !== undefined && body.conclusion !== null && !CONCLUSIONS.includes(body.conclusion))
    throw unprocessable(`Invalid request.\n\n${JSON.stringify(body.conclusion)} is not a valid conclusion.`);
  if (body.status === 'completed' && !body.conclusion && !run.conclusion)
    throw unprocessable('Invalid request.\n\nNo conclusion given for a completed check run.');
  validateOutput(body.output);
  if (body.name !== undefined) run.name = body.name;
  if (body.status !== undefined) run.status = body.status;
  if (body.conclusion) {
    // Providing a conclusion completes the run, as on GitHub.
    run.conclusion = body.conclusion;
    run.status = 'completed';
    run.completedAt = body.completed_at ?? context.state.timestamp();
  }
  if (body.details_url !== undefined) run.detailsUrl = body.details_url;
  if (body.external_id !== undefined) run.externalId = body.external_id;
  if (body.output) {
    run.output = { title: body.output.title, summary: body.output.summary, text: body.output.text ?? null };
    run.annotations.push(...(body.output.annotations ?? []));
  }
}

function checkRunBody(context: Context, repo: RepoState, run: CheckRunRecord): unknown {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.headSha,
    status: run.status,
    conclusion: run.conclusion,
    details_url: run.detailsUrl,
    external_id: run.externalId,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      ...run.output,
      annotations_count: run.annotations.length,
      annotations_url: `${context.state.repoUrl(repo)}/check-runs/${run.id}/annotations`,
    },
    app: { slug: run.app },
    url: `${context.state.repoUrl(repo)}/check-runs/${run.id}`,
  };
}

export function registerCheckRoutes(router: Router<StandInState>): void {
  router.add('POST', '/repos/{owner}/{repo}/check-runs', (context) => {
    const repo = repoOf(context);
    const name = requireString(context.body, 'name');
    const headSha = requireString(context.body, 'head_sha');
    if (!context.state.git.commit(headSha)) throw unprocessable('No commit found for SHA: ' + headSha);
    const run: CheckRunRecord = {
      id: context.state.id(),
      name,
      headSha,
      status: 'queued',
      conclusion: null,
      output: { title: null, summary: null, text: null },
      annotations: [],
      detailsUrl: null,
      externalId: null,
      startedAt: context.body.started_at ?? context.state.timestamp(),
      completedAt: null,
      app: APP_SLUG,
    };
    applyUpdate(context, run, context.body);
    repo.checkRuns.set(run.id, run);
    return { status: 201, body: checkRunBody(context, repo, run) };
  });
  router.add('PATCH', '/repos/{owner}/{repo}/check-runs/{check_run_id}', (context) => {
    const repo = repoOf(context);
    const run = repo.checkRuns.get(Number(context.params.check_run_id));
    if (!run) throw notFound();
    applyUpdate(context, run, context.body ?? {});
    return { status: 200, body: checkRunBody(context, repo, run) };
  });
  router.add('GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', (context) => {
    const repo = repoOf(context);
    const run = repo.checkRuns.get(Number(context.params.check_run_id));
    if (!run) throw notFound();
    return paginate(context, run.annotations);
  });
  router.add('GET', '/repos/{owner}/{repo}/commits/{ref}/check-runs', (context) => {
    const repo = repoOf(context);
    const sha = context.state.resolve(repo, context.params.ref);
    if (!sha) throw unprocessable(`No commit found for SHA: ${context.params.ref}`);
    const name = context.query.get('check_name');
    const runs = [...repo.checkRuns.values()]
      .filter((run) => run.headSha === sha && (!name || run.name === name))
      .sort((a, b) => b.id - a.id);
    return paginate(
      context,
      runs.map((run) => checkRunBody(context, repo, run)),
      (page) => ({ total_count: runs.length, check_runs: page }),
    );
  });
}

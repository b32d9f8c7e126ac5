// Issues, labels and issue comments of the stand-in (pull requests share the number sequence).
import {
  checkBodyLength,
  notFound,
  optionalString,
  paginate,
  requireString,
  unprocessable,
  type Router,
  type RouteContext,
} from './http-kit.js';
import type { IssueRecord, RepoState, StandInState } from './state.js';

type Context = RouteContext<StandInState>;

const repoOf = (context: Context): RepoState => context.state.repo(context.params.owner, context.params.repo);

export function issueOf(repo: RepoState, number: string | number): IssueRecord {
  const issue = repo.issues.get(Number(number));
  if (!issue) throw notFound();
  return issue;
}

export function labelsBody(state: StandInState, repo: RepoState, names: string[]): unknown[] {
  return names.map((name) => state.label(repo, name));
}

export function issueBody(state: StandInState, repo: RepoState, issue: IssueRecord): Record<string, unknown> {
  const base = state.repoUrl(repo);
  const comments = [...repo.comments.values()].filter((comment) => comment.issueNumber === issue.number).length;
  return {
    id: issue.number + repo.id * 100000,
    node_id: `I_${issue.number}`,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    state_reason: issue.stateReason,
    locked: false,
    labels: labelsBody(state, repo, issue.labels),
    user: state.userBody(issue.user),
    performed_via_github_app: state.performedVia(issue.user),
    comments,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    url: `${base}/issues/${issue.number}`,
    html_url: `https://github.com/${repo.owner}/${repo.name}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`,
    ...(issue.pull
      ? {
          pull_request: {
            url: `${base}/pulls/${issue.number}`,
            html_url: `https://github.com/${repo.owner}/${repo.name}/pull/${issue.number}`,
          },
        }
      : {}),
  };
}

export function labelNames(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw unprocessable("Invalid request.\n\nFor 'labels', value is not an array.");
  return value.map((label) => {
    const name = typeof label === 'string' ? label : label?.name;
    if (typeof name !== 'string' || name === '')
      throw unprocessable('Validation Failed', [{ resource: 'Label', field: 'name', code: 'invalid' }]);
    return name;
  });
}

export function commentBody(
  state: StandInState,
  repo: RepoState,
  comment: { id: number; issueNumber: number; body: string; user: string; createdAt: string; updatedAt: string },
): unknown {
  const base = state.repoUrl(repo);
  return {
    id: comment.id,
    node_id: `IC_${comment.id}`,
    body: comment.body,
    user: state.userBody(comment.user),
    performed_via_github_app: state.performedVia(comment.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    url: `${base}/issues/comments/${comment.id}`,
    issue_url: `${base}/issues/${comment.issueNumber}`,
    html_url: `https://github.com/${repo.owner}/${repo.name}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
  };
}

function setState(state: StandInState, issue: IssueRecord, next: unknown, reason: unknown): void {
  if (next === undefined) return;
  if (next !== 'open' && next !== 'closed')
    throw unprocessable('Validation Failed', [{ resource: 'Issue', field: 'state', code: 'invalid' }]);
  if (next === issue.state) return;
  issue.state = next;
  issue.closedAt = next === 'closed' ? state.timestamp() : null;
  issue.stateReason = next === 'closed' ? (typeof reason === 'string' ? reason : 'completed') : 'reopened';
  if (issue.pull && next === 'closed') issue.pull.closedHeadSha = undefined;
}

export function registerIssueRoutes(router: Router<StandInState>): void {
  router.add('POST', '/repos/{owner}/{repo}/issues', (context) => {
    const repo = repoOf(context);
    const title = requireString(context.body, 'title');
    const body = optionalString(context.body, 'body');
    checkBodyLength(body);
    const now = context.state.timestamp();
    const issue: IssueRecord = {
      number: repo.nextNumber++,
      title,
      body: body ?? null,
      state: 'open',
      stateReason: null,
      labels: [...new Set(labelNames(context.body.labels))],
      user: context.actor,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
    };
    repo.issues.set(issue.number, issue);
    return { status: 201, body: issueBody(context.state, repo, issue) };
  });
  router.add('GET', '/repos/{owner}/{repo}/issues', (context) => {
    const repo = repoOf(context);
    const state = context.query.get('state') ?? 'open';
    const labels = (context.query.get('labels') ?? '')
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean);
    const creator = context.query.get('creator');
    const direction = context.query.get('direction') ?? 'desc';
    const issues = [...repo.issues.values()]
      .filter((issue) => state === 'all' || issue.state === state)
      .filter((issue) => labels.every((label) => issue.labels.includes(label)))
      .filter((issue) => !creator || issue.user === creator)
      .sort((a, b) => (direction === 'asc' ? a.number - b.number : b.number - a.number));
    return paginate(
      context,
      issues.map((issue) => issueBody(context.state, repo, issue)),
    );
  });
  router.add('GET', '/repos/{owner}/{repo}/issues/{issue_number}', (context) => {
    const repo = repoOf(context);
    return { status: 200, body: issueBody(context.state, repo, issueOf(repo, context.params.issue_number)) };
  });
  router.add('PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', (context) => {
    const repo = repoOf(context);
    const issue = issueOf(repo, context.params.issue_number);
    const title = optionalString(context.body, 'title');
    const body = optionalString(context.body, 'body');
    checkBodyLength(body);
    if (title !== undefined) issue.title = title;
    if (body !== undefined) issue.body = body;
    if (context.body?.labels !== undefined) issue.labels = [...new Set(labelNames(context.body.labels))];
    setState(context.state, issue, context.body?.state, context.body?.state_reason);
    issue.updatedAt = context.state.timestamp();
    return { status: 200, body: issueBody(context.state, repo, issue) };
  });
  router.add('POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', (context) => {
    const repo = repoOf(context);
    const issue = issueOf(repo, context.params.issue_number);
    const names = labelNames(Array.isArray(context.body) ? context.body : context.body?.labels);
    if (names.length === 0) throw unprocessable('Invalid request.\n\nNo labels were supplied.');
    issue.labels = [...new Set([...issue.labels, ...names])];
    return { status: 200, body: labelsBody(context.state, repo, issue.labels) };
  });
  router.add('DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', (context) => {
    const repo = repoOf(context);
    const issue = issueOf(repo, context.params.issue_number);
    const name = context.params.name;
    // As GitHub: removing a label the issue does not have is a 404.
    if (!issue.labels.includes(name)) throw notFound();
    issue.labels = issue.labels.filter((label) => label !== name);
    return { status: 200, body: labelsBody(context.state, repo, issue.labels) };
  });
  router.add('GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', (context) => {
    const repo = repoOf(context);
    const issue = issueOf(repo, context.params.issue_number);
    const comments = [...repo.comments.values()]
      .filter((comment) => comment.issueNumber === issue.number)
      .sort((a, b) => a.id - b.id);
    return paginate(
      context,
      comments.map((comment) => commentBody(context.state, repo, comment)),
    );
  });
  router.add('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', (context) => {
    const repo = repoOf(context);
    const issue = issueOf(repo, context.params.issue_number);
    const body = requireString(context.body, 'body');
    checkBodyLength(body);
    const now = context.state.timestamp();
    const comment = {
      id: context.state.id(),
      issueNumber: issue.number,
      body,
      user: context.actor,
      createdAt: now,
      updatedAt: now,
    };
    repo.comments.set(comment.id, comment);
    return { status: 201, body: commentBody(context.state, repo, comment) };
  });
  router.add('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', (context) => {
    const repo = repoOf(context);
    const comment = repo.comments.get(Number(context.params.comment_id));
    if (!comment) throw notFound();
    const body = requireString(context.body, 'body');
    checkBodyLength(body);
    comment.body = body;
    comment.updatedAt = context.state.timestamp();
    return { status: 200, body: commentBody(context.state, repo, comment) };
  });
}

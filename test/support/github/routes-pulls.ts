// Pull requests of the stand-in: list by head/state/base, create (with GitHub's 422s), update,
// close, commits and files.
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
import { labelsBody } from './routes-issues.js';
import { changedFiles, listedCommit, repoBody } from './routes-repo.js';
import type { IssueRecord, RepoState, StandInState } from './state.js';

type Context = RouteContext<StandInState>;

const repoOf = (context: Context): RepoState => context.state.repo(context.params.owner, context.params.repo);

function pullOf(repo: RepoState, number: string): IssueRecord & { pull: NonNullable<IssueRecord['pull']> } {
  const issue = repo.issues.get(Number(number));
  if (!issue?.pull) throw notFound();
  return issue as IssueRecord & { pull: NonNullable<IssueRecord['pull']> };
}

function headSha(state: StandInState, repo: RepoState, issue: IssueRecord): string | undefined {
  return issue.pull?.closedHeadSha ?? repo.refs.get(`refs/heads/${issue.pull!.head}`);
}

function pullBody(state: StandInState, repo: RepoState, issue: IssueRecord): Record<string, unknown> {
  const pull = issue.pull!;
  const base = state.repoUrl(repo);
  const branch = (ref: string, sha: string | undefined): unknown => ({
    label: `${repo.owner}:${ref}`,
    ref,
    sha: sha ?? null,
    user: { login: repo.owner },
    repo: repoBody(state, repo),
  });
  return {
    id: issue.number + repo.id * 100000,
    node_id: `PR_${issue.number}`,
    number: issue.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    body: issue.body,
    user: state.userBody(issue.user),
    labels: labelsBody(state, repo, issue.labels),
    draft: pull.draft,
    merged: pull.merged,
    merged_at: pull.merged ? issue.closedAt : null,
    merge_commit_sha: pull.mergeCommitSha ?? null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    head: pull.forkOwner
      ? {
          label: `${pull.forkOwner}:${pull.head}`,
          ref: pull.head,
          sha: headSha(state, repo, issue) ?? null,
          user: { login: pull.forkOwner },
          repo: { ...repoBody(state, repo), full_name: `${pull.forkOwner}/${repo.name}`, fork: true },
        }
      : branch(pull.head, headSha(state, repo, issue)),
    base: branch(pull.base, repo.refs.get(`refs/heads/${pull.base}`)),
    url: `${base}/pulls/${issue.number}`,
    html_url: `https://github.com/${repo.owner}/${repo.name}/pull/${issue.number}`,
  };
}

function branchName(value: string, repo: RepoState): string {
  const colon = value.indexOf(':');
  return colon === -1
    ? value
    : value.slice(0, colon).toLowerCase() === repo.owner.toLowerCase()
      ? value.slice(colon + 1)
      : `\0${value}`;
}

export function registerPullRoutes(router: Router<StandInState>): void {
  router.add('GET', '/repos/{owner}/{repo}/pulls', (context) => {
    const repo = repoOf(context);
    const state = context.query.get('state') ?? 'open';
    const head = context.query.get('head');
    const baseFilter = context.query.get('base');
    const pulls = [...repo.issues.values()]
      .filter((issue) => issue.pull && (state === 'all' || issue.state === state))
      // GitHub matches `head` only in the `owner:branch` form.
      .filter((issue) => !head || (head.includes(':') && branchName(head, repo) === issue.pull!.head))
      .filter((issue) => !baseFilter || issue.pull!.base === baseFilter)
      .sort((a, b) => b.number - a.number);
    return paginate(
      context,
      pulls.map((issue) => pullBody(context.state, repo, issue)),
    );
  });
  router.add('POST', '/repos/{owner}/{repo}/pulls', (context) => {
    const repo = repoOf(context);
    const title = requireString(context.body, 'title');
    const head = branchName(requireString(context.body, 'head'), repo);
    const base = requireString(context.body, 'base');
    const body = optionalString(context.body, 'body');
    checkBodyLength(body);
    const invalid = (field: string): Error =>
      unprocessable('Validation Failed', [{ resource: 'PullRequest', field, code: 'invalid' }]);
    const headCommit = repo.refs.get(`refs/heads/${head}`);
    const baseCommit = repo.refs.get(`refs/heads/${base}`);
    if (!headCommit) throw invalid('head');
    if (!baseCommit) throw invalid('base');
    const existing = [...repo.issues.values()].find(
      (issue) => issue.pull && issue.state === 'open' && issue.pull.head === head && issue.pull.base === base,
    );
    if (existing)
      throw unprocessable('Validation Failed', [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${repo.owner}:${head}.`,
        },
      ]);
    if (context.state.git.commitsBetween(baseCommit, headCommit).length === 0)
      throw unprocessable('Validation Failed', [
        { resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${head}` },
      ]);
    const now = context.state.timestamp();
    const issue: IssueRecord = {
      number: repo.nextNumber++,
      title,
      body: body ?? null,
      state: 'open',
      stateReason: null,
      labels: [],
      user: context.actor,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      pull: { head, base, draft: context.body.draft === true, merged: false },
    };
    repo.issues.set(issue.number, issue);
    return { status: 201, body: pullBody(context.state, repo, issue) };
  });
  router.add('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', (context) => {
    const repo = repoOf(context);
    return { status: 200, body: pullBody(context.state, repo, pullOf(repo, context.params.pull_number)) };
  });
  router.add('PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', (context) => {
    const repo = repoOf(context);
    const issue = pullOf(repo, context.params.pull_number);
    const title = optionalString(context.body, 'title');
    const body = optionalString(context.body, 'body');
    checkBodyLength(body);
    const state = context.body?.state;
    if (state !== undefined && state !== 'open' && state !== 'closed')
      throw unprocessable('Validation Failed', [{ resource: 'PullRequest', field: 'state', code: 'invalid' }]);
    if (
      state === 'open' &&
      issue.state === 'closed' &&
      (issue.pull.merged || !repo.refs.has(`refs/heads/${issue.pull.head}`))
    ) {
      throw unprocessable('Validation Failed', [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: 'state cannot be changed. The head branch was deleted or the pull request is merged.',
        },
      ]);
    }
    if (title !== undefined) issue.title = title;
    if (body !== undefined) issue.body = body;
    if (typeof context.body?.base === 'string') issue.pull.base = context.body.base;
    if (state !== undefined && state !== issue.state) {
      issue.state = state;
      issue.closedAt = state === 'closed' ? context.state.timestamp() : null;
      issue.pull.closedHeadSha = state === 'closed' ? repo.refs.get(`refs/heads/${issue.pull.head}`) : undefined;
    }
    issue.updatedAt = context.state.timestamp();
    return { status: 200, body: pullBody(context.state, repo, issue) };
  });
  router.add('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/commits', (context) => {
    const repo = repoOf(context);
    const issue = pullOf(repo, context.params.pull_number);
    const head = headSha(context.state, repo, issue);
    const base = repo.refs.get(`refs/heads/${issue.pull.base}`);
    const shas = head && base ? context.state.git.commitsBetween(base, head) : [];
    return paginate(
      context,
      shas.map((sha) => listedCommit(context, repo, sha)),
    );
  });
  router.add('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/files', (context) => {
    const repo = repoOf(context);
    const issue = pullOf(repo, context.params.pull_number);
    const head = headSha(context.state, repo, issue);
    const base = repo.refs.get(`refs/heads/${issue.pull.base}`);
    if (!head || !base) return paginate(context, []);
    const { git } = context.state;
    const mergeBase = git.mergeBase(base, head);
    return paginate(
      context,
      changedFiles(context.state, mergeBase ? git.commit(mergeBase)!.tree : undefined, git.commit(head)!.tree).slice(
        0,
        3000,
      ),
    );
  });
}

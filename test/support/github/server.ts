// A stateful GitHub REST stand-in on 127.0.0.1: real git objects behind the git data API, pulls,
// issues, comments, labels and check runs; it counts calls per route and injects faults.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CommitData } from './git-objects.js';
import type { FlatEntry } from './git-store.js';
import { ApiError, Router, type Reply } from './http-kit.js';
import { registerCheckRoutes } from './routes-checks.js';
import { registerGitRoutes, userSignature } from './routes-git.js';
import { commentBody, registerIssueRoutes } from './routes-issues.js';
import { registerPullRoutes } from './routes-pulls.js';
import { registerGraphqlRoutes } from './routes-graphql.js';
import { registerReactionRoutes } from './routes-reactions.js';
import { CODELOAD, registerRepoRoutes } from './routes-repo.js';
import { APP_LOGIN, StandInState, type CollaboratorRole, type ReactionRecord } from './state.js';

export type FaultKind =
  'server-error' | 'bad-gateway' | 'rate-limit' | 'secondary-rate-limit' | 'secondary-rate-limit-429';

export interface Fault {
  /** `METHOD /route/{template}` as Octokit names it; omitted = any route. */
  route?: string;
  kind: FaultKind;
  /** How many responses to spoil (default 1). */
  times?: number;
}

export interface CallCounts {
  total: number;
  reads: number;
  writes: number;
  faults: number;
  byRoute: Record<string, number>;
}

export interface StandInOptions {
  now?: () => Date;
}

const RATE_LIMIT = 5000;

export class GitHubStandIn {
  readonly state: StandInState;
  private readonly router = new Router<StandInState>();
  private server: Server | undefined;
  private port = 0;
  private faults: Array<{ route: string | undefined; kind: FaultKind; times: number }> = [];
  private counts: CallCounts = emptyCounts();
  private remaining = RATE_LIMIT;

  constructor(options: StandInOptions = {}) {
    this.state = new StandInState(options.now ?? (() => new Date()), () => this.baseUrl);
    registerRepoRoutes(this.router);
    registerGitRoutes(this.router);
    registerPullRoutes(this.router);
    registerIssueRoutes(this.router);
    registerCheckRoutes(this.router);
    registerReactionRoutes(this.router);
    registerGraphqlRoutes(this.router);
  }

  static async start(options: StandInOptions = {}): Promise<GitHubStandIn> {
    const standIn = new GitHubStandIn(options);
    await standIn.listen();
    return standIn;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  injectFault(fault: Fault): void {
    this.faults.push({ route: fault.route, kind: fault.kind, times: fault.times ?? 1 });
  }

  /** Drops every fault not served yet (GitHub recovered). */
  clearFaults(): void {
    this.faults = [];
  }

  pendingFaults(): number {
    return this.faults.reduce((sum, fault) => sum + fault.times, 0);
  }

  calls(): CallCounts {
    return { ...this.counts, byRoute: { ...this.counts.byRoute } };
  }

  /** Calls of one route (`GET /repos/{owner}/{repo}/git/blobs/{file_sha}`) since the last reset. */
  callsTo(route: string): number {
    return this.counts.byRoute[route] ?? 0;
  }

  resetCalls(): void {
    this.counts = emptyCounts();
  }

  /** Callers presenting `token` act as the human `login`; every other token acts as the App. */
  addUser(token: string, login: string): void {
    this.state.users.set(token, login);
  }

  /** Gives `login` a role on a repository (the collaborator permission API answers with it). */
  setRole(owner: string, repo: string, login: string, role: CollaboratorRole): void {
    this.state.repo(owner, repo).collaborators.set(login, role);
  }

  /**
   * Writes a comment on an issue or pull request as `login` (a person, or the App as APP_LOGIN);
   * returns it as GitHub's REST API (and the issue_comment webhook's `comment`) shows it.
   */
  postComment(input: {
    owner: string;
    repo: string;
    number: number;
    body: string;
    login: string;
  }): Record<string, any> {
    const repo = this.state.repo(input.owner, input.repo);
    if (!repo.issues.has(input.number))
      throw new Error(`postComment: ${input.owner}/${input.repo} has no #${input.number}`);
    const now = this.state.timestamp();
    const comment = {
      id: this.state.id(),
      issueNumber: input.number,
      body: input.body,
      user: input.login,
      createdAt: now,
      updatedAt: now,
    };
    repo.comments.set(comment.id, comment);
    return commentBody(this.state, repo, comment) as Record<string, any>;
  }

  /** Reactions left on a comment, oldest first. */
  reactionsOn(owner: string, repo: string, commentId: number): ReactionRecord[] {
    return this.state.repo(owner, repo).reactions.filter((reaction) => reaction.commentId === commentId);
  }

  /** Comments of an issue or pull request, oldest first: who wrote each and its body. */
  commentsOn(owner: string, repo: string, number: number): Array<{ id: number; user: string; body: string }> {
    return [...this.state.repo(owner, repo).comments.values()]
      .filter((comment) => comment.issueNumber === number)
      .sort((a, b) => a.id - b.id)
      .map(({ id, user, body }) => ({ id, user, body }));
  }

  /** Forces `truncated: true` on recursive tree listings longer than `limit` entries. */
  truncateTreesAbove(limit: number): void {
    this.state.treeEntryLimit = limit;
  }

  /** Creates a repository whose default branch holds `files` in one commit; returns its sha. */
  seedRepository(input: {
    owner: string;
    repo: string;
    defaultBranch?: string;
    /** path → text, or bytes for a file that is not text. */
    files: Map<string, string | Uint8Array> | Record<string, string | Uint8Array>;
    message?: string;
    login?: string;
  }): string {
    const defaultBranch = input.defaultBranch ?? 'main';
    const repo = this.state.addRepo(input.owner, input.repo, defaultBranch);
    const entries = new Map<string, FlatEntry>();
    for (const [path, content] of toMap(input.files))
      entries.set(path, { mode: '100644', sha: this.state.git.putBlob(Buffer.from(content)) });
    const sha = this.commitAs(input.login ?? 'octocat', {
      tree: this.state.git.buildTree(entries),
      parents: [],
      message: input.message ?? 'Initial commit\n',
    });
    repo.refs.set(`refs/heads/${defaultBranch}`, sha);
    return sha;
  }

  /**
   * Pushes a commit as a person: `files` edits the branch's tree (null deletes). A new branch
   * starts from `from` (default: the default branch).
   */
  pushCommit(input: {
    owner: string;
    repo: string;
    branch: string;
    /** path → text, or bytes for a file that is not text; null deletes. */
    files: Map<string, string | Uint8Array | null> | Record<string, string | Uint8Array | null>;
    message?: string;
    login?: string;
    from?: string;
    mode?: '100644' | '100755' | '120000';
  }): string {
    const repo = this.state.repo(input.owner, input.repo);
    const ref = `refs/heads/${input.branch}`;
    const parent = repo.refs.get(ref) ?? this.state.resolve(repo, input.from ?? repo.defaultBranch);
    if (!parent) throw new Error(`pushCommit: ${input.owner}/${input.repo} has no ${input.from ?? repo.defaultBranch}`);
    const entries = this.state.git.flatten(this.state.git.commit(parent)!.tree);
    for (const [path, text] of toMap(input.files)) {
      if (text === null) entries.delete(path);
      else entries.set(path, { mode: input.mode ?? '100644', sha: this.state.git.putBlob(Buffer.from(text)) });
    }
    const sha = this.commitAs(input.login ?? 'octocat', {
      tree: this.state.git.buildTree(entries),
      parents: [parent],
      message: input.message ?? 'Edit by hand\n',
    });
    repo.refs.set(ref, sha);
    return sha;
  }

  /**
   * Opens a pull request from `branch` into the default branch as a person does on github.com (no API
   * call); returns its number. `forkOwner`: the owner of the fork it comes from, when it does.
   */
  openPullRequest(input: {
    owner: string;
    repo: string;
    branch: string;
    title: string;
    login?: string;
    forkOwner?: string;
  }): number {
    const repo = this.state.repo(input.owner, input.repo);
    const number = repo.nextNumber++;
    const at = this.state.timestamp();
    const fork = input.forkOwner ? { forkOwner: input.forkOwner } : {};
    repo.issues.set(number, {
      ...{ number, title: input.title, body: null, state: 'open', stateReason: null, labels: [] },
      ...{ user: input.login ?? 'octocat', createdAt: at, updatedAt: at, closedAt: null },
      pull: { head: input.branch, base: repo.defaultBranch, draft: false, merged: false, ...fork },
    });
    return number;
  }

  /** Merges an open pull request with a merge commit (head's changes over the base branch). */
  mergePullRequest(input: { owner: string; repo: string; number: number; login?: string }): string {
    const repo = this.state.repo(input.owner, input.repo);
    const issue = repo.issues.get(input.number);
    if (!issue?.pull || issue.state !== 'open')
      throw new Error(`mergePullRequest: #${input.number} is not an open pull request`);
    const { git } = this.state;
    const baseSha = repo.refs.get(`refs/heads/${issue.pull.base}`)!;
    const headSha = repo.refs.get(`refs/heads/${issue.pull.head}`)!;
    const mergeBase = git.mergeBase(baseSha, headSha);
    const ancestor = mergeBase ? git.flatten(git.commit(mergeBase)!.tree) : new Map<string, FlatEntry>();
    const head = git.flatten(git.commit(headSha)!.tree);
    const merged = git.flatten(git.commit(baseSha)!.tree);
    for (const path of new Set([...ancestor.keys(), ...head.keys()])) {
      const before = ancestor.get(path)?.sha;
      const after = head.get(path);
      if (before === after?.sha) continue;
      if (after) merged.set(path, after);
      else merged.delete(path);
    }
    const sha = this.commitAs(input.login ?? 'octocat', {
      tree: git.buildTree(merged),
      parents: [baseSha, headSha],
      message: `Merge pull request #${input.number}\n`,
    });
    repo.refs.set(`refs/heads/${issue.pull.base}`, sha);
    issue.state = 'closed';
    issue.closedAt = this.state.timestamp();
    issue.pull.merged = true;
    issue.pull.closedHeadSha = headSha;
    issue.pull.mergeCommitSha = sha;
    return sha;
  }

  /** Text of a file at a branch, tag or sha; undefined when absent. */
  readFile(owner: string, repo: string, ref: string, path: string): string | undefined {
    const files = this.readFiles(owner, repo, ref);
    return files.get(path);
  }

  /** Every file at a ref, path → text. */
  readFiles(owner: string, repo: string, ref: string): Map<string, string> {
    const state = this.state.repo(owner, repo);
    const sha = this.state.resolve(state, ref);
    if (!sha) throw new Error(`readFiles: ${owner}/${repo} has no ref ${ref}`);
    const files = new Map<string, string>();
    for (const [path, entry] of this.state.git.flatten(this.state.git.commit(sha)!.tree)) {
      const blob = this.state.git.blob(entry.sha);
      if (blob) files.set(path, blob.toString('utf8'));
    }
    return files;
  }

  headOf(owner: string, repo: string, branch: string): string | undefined {
    return this.state.repo(owner, repo).refs.get(`refs/heads/${branch}`);
  }

  private commitAs(login: string, commit: Omit<CommitData, 'author' | 'committer'>): string {
    const signature = userSignature(this.state, login);
    const sha = this.state.git.putCommit({ ...commit, author: signature, committer: signature });
    this.state.commitActors.set(sha, login);
    return sha;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.baseUrl);
    const method = (request.method ?? 'GET').toUpperCase();
    const matched = this.router.match(method, url.pathname);
    const routeName = matched ? `${method} ${matched.route.template}` : `${method} (unknown)`;
    // codeload serves archives outside the REST API (and its rate limit): seen per route, not counted as a call.
    if (url.pathname.startsWith(CODELOAD)) this.counts.byRoute[routeName] = (this.counts.byRoute[routeName] ?? 0) + 1;
    else this.count(routeName);
    const raw = await readBody(request);
    let reply: Reply;
    const fault = matched ? this.takeFault(routeName) : undefined;
    if (fault) {
      this.counts.faults += 1;
      reply = this.faultReply(fault);
    } else if (!matched) {
      reply = new ApiError(404, 'Not Found').toReply();
    } else {
      reply = this.dispatch(matched, method, url, raw, request.headers.authorization);
    }
    this.send(response, reply);
  }

  private dispatch(
    matched: NonNullable<ReturnType<Router<StandInState>['match']>>,
    method: string,
    url: URL,
    raw: string,
    authorization: string | undefined,
  ): Reply {
    try {
      let body: unknown;
      if (raw.trim() !== '') {
        try {
          body = JSON.parse(raw);
        } catch {
          return new ApiError(400, 'Problems parsing JSON').toReply();
        }
      }
      const token = authorization?.replace(/^(token|bearer)\s+/i, '') ?? '';
      const actor = this.state.users.get(token) ?? APP_LOGIN;
      return matched.route.handler({
        params: matched.params,
        query: url.searchParams,
        body: body ?? (method === 'GET' ? undefined : {}),
        actor,
        url,
        state: this.state,
      });
    } catch (error) {
      if (error instanceof ApiError) return error.toReply();
      return { status: 500, body: { message: `stand-in error: ${(error as Error).message}` } };
    }
  }

  private count(route: string): void {
    this.counts.total += 1;
    if (isReadRoute(route)) this.counts.reads += 1;
    else this.counts.writes += 1;
    this.counts.byRoute[route] = (this.counts.byRoute[route] ?? 0) + 1;
  }

  private takeFault(route: string): FaultKind | undefined {
    const fault = this.faults.find(
      (candidate) => candidate.times > 0 && (candidate.route === undefined || candidate.route === route),
    );
    if (!fault) return undefined;
    fault.times -= 1;
    this.faults = this.faults.filter((candidate) => candidate.times > 0);
    return fault.kind;
  }

  private faultReply(kind: FaultKind): Reply {
    const nowSeconds = Math.floor(this.state.now().getTime() / 1000);
    switch (kind) {
      case 'server-error':
        return { status: 500, body: { message: 'Server Error' } };
      case 'bad-gateway':
        return { status: 502, body: { message: 'Bad Gateway' } };
      case 'rate-limit':
        return {
          status: 403,
          body: {
            message: 'API rate limit exceeded for installation ID 1.',
            documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          },
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowSeconds) },
        };
      case 'secondary-rate-limit':
      case 'secondary-rate-limit-429':
        return {
          status: kind === 'secondary-rate-limit' ? 403 : 429,
          body: {
            message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
            documentation_url:
              'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          },
          headers: { 'retry-after': '1' },
        };
    }
  }

  private send(response: ServerResponse, reply: Reply): void {
    this.remaining = Math.max(this.remaining - 1, 1);
    const resetAt = Math.floor(this.state.now().getTime() / 1000) + 3600;
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(this.remaining),
      'x-ratelimit-used': String(RATE_LIMIT - this.remaining),
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-resource': 'core',
      'x-github-api-version-selected': '2022-11-28',
      ...reply.headers,
    };
    if (reply.bytes) {
      response
        .writeHead(reply.status, {
          ...headers,
          'content-type': reply.bytes.contentType,
          'content-length': String(reply.bytes.data.length),
        })
        .end(reply.bytes.data);
      return;
    }
    if (reply.body === undefined) {
      response.writeHead(reply.status, headers).end();
      return;
    }
    const text = JSON.stringify(reply.body);
    response
      .writeHead(reply.status, {
        ...headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(text)),
      })
      .end(text);
  }
}

function emptyCounts(): CallCounts {
  return { total: 0, reads: 0, writes: 0, faults: 0, byRoute: {} };
}

function toMap<T>(files: Map<string, T> | Record<string, T>): Map<string, T> {
  return files instanceof Map ? files : new Map(Object.entries(files));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A route that reads: GET and HEAD, and GraphQL, where the stand-in answers queries only. */
export function isReadRoute(route: string): boolean {
  return route.startsWith('GET ') || route.startsWith('HEAD ') || route === 'POST /graphql';
}

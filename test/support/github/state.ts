// The stand-in's world: repositories (refs over a shared git object store), issues and pull
// requests (one number sequence per repository, as on GitHub), comments and check runs.
import { GitStore } from './git-store.js';
import { notFound } from './http-kit.js';

export const APP_LOGIN = 'driftback[bot]';
export const APP_SLUG = 'driftback';

export interface Label {
  id: number;
  name: string;
  color: string;
}

export interface IssueRecord {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  stateReason: string | null;
  labels: string[];
  user: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Set for pull requests. */
  pull?: {
    head: string;
    base: string;
    /** Set for a pull request from a fork: the fork's owner (its commits are served by this repository). */
    forkOwner?: string;
    /** Head sha frozen when the PR closes (an open PR follows its branch). */
    closedHeadSha?: string;
    draft: boolean;
    merged: boolean;
    /** The merge commit of a merged PR. */
    mergeCommitSha?: string;
  };
}

export interface CommentRecord {
  id: number;
  issueNumber: number;
  body: string;
  user: string;
  createdAt: string;
  updatedAt: string;
}

/** A reaction on an issue comment (GitHub's reactions API). */
export interface ReactionRecord {
  id: number;
  commentId: number;
  content: string;
  user: string;
  createdAt: string;
}

/** A collaborator's role on a repository, as GitHub names roles (`role_name`). */
export type CollaboratorRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

export interface CheckRunRecord {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: unknown[];
  detailsUrl: string | null;
  externalId: string | null;
  startedAt: string;
  completedAt: string | null;
  app: string;
}

export interface RepoState {
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  installationId: number;
  private: boolean;
  /** 'refs/heads/main' → commit sha */
  refs: Map<string, string>;
  issues: Map<number, IssueRecord>;
  nextNumber: number;
  comments: Map<number, CommentRecord>;
  checkRuns: Map<number, CheckRunRecord>;
  labels: Map<string, Label>;
  reactions: ReactionRecord[];
  /** login → role; the owner is an admin, other people have no role. */
  collaborators: Map<string, CollaboratorRole>;
}

export class StandInState {
  readonly git = new GitStore();
  readonly repos = new Map<string, RepoState>();
  /** token → login for human callers; any other token acts as the App. */
  readonly users = new Map<string, string>();
  /** commit sha → login of whoever created or pushed it (GitHub's `author.login`). */
  readonly commitActors = new Map<string, string>();
  readonly appId = 1;
  private nextId = 1000;
  private readonly userIds = new Map<string, number>();
  /** When set, recursive tree listings longer than this are cut and flagged `truncated`. */
  treeEntryLimit = Number.POSITIVE_INFINITY;

  constructor(
    readonly now: () => Date,
    readonly baseUrl: () => string,
  ) {}

  id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  timestamp(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }

  repo(owner: string, name: string): RepoState {
    const repo = this.repos.get(`${owner}/${name}`.toLowerCase());
    if (!repo) throw notFound();
    return repo;
  }

  addRepo(owner: string, name: string, defaultBranch: string): RepoState {
    const repo: RepoState = {
      id: this.id(),
      owner,
      name,
      defaultBranch,
      installationId: 1,
      private: true,
      refs: new Map(),
      issues: new Map(),
      nextNumber: 1,
      comments: new Map(),
      checkRuns: new Map(),
      labels: new Map(),
      reactions: [],
      collaborators: new Map([[owner, 'admin']]),
    };
    this.repos.set(`${owner}/${name}`.toLowerCase(), repo);
    return repo;
  }

  /** Resolves a branch name, full ref, or commit sha to a commit sha. */
  resolve(repo: RepoState, ref: string): string | undefined {
    const candidates = [ref, `refs/heads/${ref}`, `refs/tags/${ref}`, `refs/${ref}`];
    for (const candidate of candidates) {
      const sha = repo.refs.get(candidate);
      if (sha) return sha;
    }
    return /^[0-9a-f]{40}$/.test(ref) && this.git.commit(ref) ? ref : undefined;
  }

  label(repo: RepoState, name: string): Label {
    let label = repo.labels.get(name);
    if (!label) repo.labels.set(name, (label = { id: this.id(), name, color: 'ededed' }));
    return label;
  }

  /**
   * A user object as GitHub's REST API returns it: the App acts as `<slug>[bot]` of type Bot, as does
   * every other `…[bot]` login (another App); every other login is a User; ids are stable per login.
   */
  userBody(login: string): { login: string; id: number; node_id: string; type: 'Bot' | 'User'; site_admin: false } {
    let id = this.userIds.get(login);
    if (id === undefined)
      this.userIds.set(login, (id = login === APP_LOGIN ? 41898282 + this.appId : 1000 + this.userIds.size));
    return { login, id, node_id: `U_${id}`, type: login.endsWith('[bot]') ? 'Bot' : 'User', site_admin: false };
  }

  /**
   * `performed_via_github_app` of an issue or comment: the App when it wrote it with its
   * installation token, null when a person did (GitHub's issue and issue comment objects).
   */
  performedVia(login: string): Record<string, unknown> | null {
    if (login !== APP_LOGIN) return null;
    return {
      id: this.appId,
      slug: APP_SLUG,
      node_id: `A_${this.appId}`,
      name: 'driftback',
      owner: { login: 'driftback', id: 1, type: 'Organization' },
    };
  }

  repoUrl(repo: RepoState): string {
    return `${this.baseUrl()}/repos/${repo.owner}/${repo.name}`;
  }
}

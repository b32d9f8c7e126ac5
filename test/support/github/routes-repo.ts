// Repository, App and installation routes of the stand-in, plus contents and compare.
import { notFound, type Router, type RouteContext } from './http-kit.js';
import { tarball } from './archive.js';
import { commitBody } from './routes-git.js';
import { APP_SLUG, type RepoState, type StandInState } from './state.js';

type Context = RouteContext<StandInState>;

export function repoBody(state: StandInState, repo: RepoState): Record<string, unknown> {
  return {
    id: repo.id,
    node_id: `R_${repo.id}`,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner, id: 1, type: 'Organization' },
    private: repo.private,
    fork: false,
    html_url: `https://github.com/${repo.owner}/${repo.name}`,
    url: state.repoUrl(repo),
    default_branch: repo.defaultBranch,
  };
}

/** A commit as compare and pulls list it: the git commit nested, GitHub users beside it. */
export function listedCommit(context: Context, repo: RepoState, sha: string): unknown {
  const data = context.state.git.commit(sha)!;
  const login = context.state.commitActors.get(sha);
  const user = login ? { login, id: 1, type: login.endsWith('[bot]') ? 'Bot' : 'User' } : null;
  const { sha: _sha, ...commit } = commitBody(context, repo, sha, data);
  return { sha, node_id: `C_${sha.slice(0, 8)}`, commit, author: user, committer: user, parents: commit.parents };
}

/** Where the stand-in's archives are served, as GitHub's codeload host serves them. */
export const CODELOAD = '/_codeload/';

function registerArchiveRoutes(router: Router<StandInState>): void {
  // GitHub answers 302 to a codeload URL; clients follow it.
  router.add('GET', '/repos/{owner}/{repo}/tarball/{ref+}', (context) => {
    const repo = context.state.repo(context.params.owner, context.params.repo);
    const sha = context.state.resolve(repo, context.params.ref);
    if (!sha) throw notFound();
    const location = `${context.state.baseUrl()}${CODELOAD}${repo.owner}/${repo.name}/legacy.tar.gz/${sha}`;
    return { status: 302, headers: { location } };
  });
  router.add('GET', `${CODELOAD}{owner}/{repo}/legacy.tar.gz/{sha}`, (context) => {
    const repo = context.state.repo(context.params.owner, context.params.repo);
    if (!context.state.git.commit(context.params.sha)) throw notFound();
    const data = tarball(context.state.git, repo.owner, repo.name, context.params.sha);
    return { status: 200, bytes: { data, contentType: 'application/x-gzip' } };
  });
}

export function registerRepoRoutes(router: Router<StandInState>): void {
  registerArchiveRoutes(router);
  router.add('GET', '/app', (context) => ({
    status: 200,
    body: {
      id: context.state.appId,
      slug: APP_SLUG,
      name: 'driftback',
      owner: { login: 'driftback', id: 1 },
      permissions: { contents: 'write', pull_requests: 'write', issues: 'write', checks: 'write', metadata: 'read' },
      events: ['pull_request', 'push', 'installation', 'installation_repositories', 'check_run'],
    },
  }));
  router.add('GET', '/repos/{owner}/{repo}', (context) => ({
    status: 200,
    body: repoBody(context.state, context.state.repo(context.params.owner, context.params.repo)),
  }));
  router.add('GET', '/repos/{owner}/{repo}/installation', (context) => {
    const repo = context.state.repo(context.params.owner, context.params.repo);
    return {
      status: 200,
      body: {
        id: repo.installationId,
        app_id: context.state.appId,
        app_slug: APP_SLUG,
        account: { login: repo.owner, id: 1, type: 'Organization' },
        target_type: 'Organization',
        repository_selection: 'selected',
        permissions: {},
        events: [],
      },
    };
  });
  router.add('POST', '/app/installations/{installation_id}/access_tokens', (context) => {
    const id = Number(context.params.installation_id);
    if (![...context.state.repos.values()].some((repo) => repo.installationId === id)) throw notFound();
    const expires = new Date(context.state.now().getTime() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      status: 201,
      body: {
        token: `ghs_standin${id}`,
        expires_at: expires,
        permissions: { contents: 'write', pull_requests: 'write', issues: 'write', checks: 'write', metadata: 'read' },
        repository_selection: 'selected',
      },
    };
  });
  router.add('GET', '/repos/{owner}/{repo}/contents/{path+}', (context) => {
    const repo = context.state.repo(context.params.owner, context.params.repo);
    const ref = context.query.get('ref') ?? repo.defaultBranch;
    const commit = context.state.resolve(repo, ref);
    if (!commit) throw notFound();
    const { git } = context.state;
    const path = context.params.path.replace(/\/+$/, '');
    const entry = git.entryAt(git.commit(commit)!.tree, path);
    if (!entry) throw notFound();
    const base = context.state.repoUrl(repo);
    if (entry.mode === '040000') {
      return {
        status: 200,
        body: git.tree(entry.sha)!.map((child) => ({
          name: child.name,
          path: `${path}/${child.name}`,
          sha: child.sha,
          size: git.blob(child.sha)?.length ?? 0,
          type:
            child.mode === '040000'
              ? 'dir'
              : child.mode === '160000'
                ? 'submodule'
                : child.mode === '120000'
                  ? 'symlink'
                  : 'file',
          url: `${base}/contents/${path}/${child.name}?ref=${ref}`,
        })),
      };
    }
    const content = git.blob(entry.sha) ?? Buffer.alloc(0);
    const type = entry.mode === '120000' ? 'symlink' : entry.mode === '160000' ? 'submodule' : 'file';
    const name = path.split('/').pop()!;
    return {
      status: 200,
      body: {
        type,
        encoding: 'base64',
        size: content.length,
        name,
        path,
        content: content.toString('base64').replace(/.{60}/g, '$&\n'),
        sha: entry.sha,
        url: `${base}/contents/${path}?ref=${ref}`,
      },
    };
  });
  router.add('GET', '/repos/{owner}/{repo}/compare/{basehead+}', (context) => {
    const repo = context.state.repo(context.params.owner, context.params.repo);
    const match = /^(.+?)\.\.\.(.+)$/.exec(context.params.basehead);
    if (!match) throw notFound();
    const base = context.state.resolve(repo, match[1]);
    const head = context.state.resolve(repo, match[2]);
    if (!base || !head) throw notFound();
    const { git } = context.state;
    const ahead = git.commitsBetween(base, head);
    const behind = git.commitsBetween(head, base);
    const status =
      ahead.length === 0 && behind.length === 0
        ? 'identical'
        : behind.length === 0
          ? 'ahead'
          : ahead.length === 0
            ? 'behind'
            : 'diverged';
    const mergeBase = git.mergeBase(base, head);
    return {
      status: 200,
      body: {
        url: `${context.state.repoUrl(repo)}/compare/${context.params.basehead}`,
        status,
        ahead_by: ahead.length,
        behind_by: behind.length,
        total_commits: ahead.length,
        base_commit: listedCommit(context, repo, base),
        merge_base_commit: mergeBase ? listedCommit(context, repo, mergeBase) : null,
        commits: ahead.slice(0, 250).map((sha) => listedCommit(context, repo, sha)),
        files: changedFiles(context.state, mergeBase ? git.commit(mergeBase)!.tree : undefined, git.commit(head)!.tree),
      },
    };
  });
}

/** Files that differ between two trees, as compare and pulls list them. */
export function changedFiles(
  state: StandInState,
  baseTree: string | undefined,
  headTree: string,
): Array<Record<string, unknown>> {
  const before = baseTree ? state.git.flatten(baseTree) : new Map();
  const after = state.git.flatten(headTree);
  const lines = (sha: string | undefined): number =>
    sha ? (state.git.blob(sha)?.toString('utf8').split('\n').length ?? 0) : 0;
  const files: Array<Record<string, unknown>> = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const old = before.get(path)?.sha;
    const next = after.get(path)?.sha;
    if (old === next) continue;
    const status = !old ? 'added' : !next ? 'removed' : 'modified';
    // Counting whole files keeps the stand-in simple; the App does not read these numbers.
    const additions = status === 'removed' ? 0 : lines(next);
    const deletions = status === 'added' ? 0 : lines(old);
    files.push({ sha: next ?? old, filename: path, status, additions, deletions, changes: additions + deletions });
  }
  return files;
}

// Git data API of the stand-in: refs, trees, blobs, commits, with GitHub's shapes and 422s.
import { TREE_MODES, type CommitData, type Signature, type TreeMode } from './git-objects.js';
import { entryType, type FlatEntry } from './git-store.js';
import { notFound, requireString, unprocessable, type Router, type RouteContext } from './http-kit.js';
import { APP_LOGIN, type RepoState, type StandInState } from './state.js';

type Context = RouteContext<StandInState>;

const repoOf = (context: Context): RepoState => context.state.repo(context.params.owner, context.params.repo);

function refBody(context: Context, repo: RepoState, ref: string, sha: string): unknown {
  const base = context.state.repoUrl(repo);
  return {
    ref,
    node_id: `REF_${sha.slice(0, 8)}`,
    url: `${base}/git/${ref}`,
    object: { sha, type: 'commit', url: `${base}/git/commits/${sha}` },
  };
}

function commitBody(context: Context, repo: RepoState, sha: string, data: CommitData): Record<string, unknown> {
  const base = context.state.repoUrl(repo);
  return {
    sha,
    node_id: `C_${sha.slice(0, 8)}`,
    url: `${base}/git/commits/${sha}`,
    html_url: `https://github.com/${repo.owner}/${repo.name}/commit/${sha}`,
    author: data.author,
    committer: data.committer,
    message: data.message,
    tree: { sha: data.tree, url: `${base}/git/trees/${data.tree}` },
    parents: data.parents.map((parent) => ({ sha: parent, url: `${base}/git/commits/${parent}` })),
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
  };
}

export { commitBody };

function signature(value: any, field: string, fallback: Signature): Signature {
  if (value === undefined) return fallback;
  if (typeof value?.name !== 'string' || typeof value?.email !== 'string') {
    throw unprocessable(`Invalid request.\n\n"name" and "email" weren't supplied for "${field}".`);
  }
  return { name: value.name, email: value.email, date: typeof value.date === 'string' ? value.date : fallback.date };
}

export function appSignature(state: StandInState): Signature {
  return { name: APP_LOGIN, email: `${state.appId}+${APP_LOGIN}@users.noreply.github.com`, date: state.timestamp() };
}

function createTree(context: Context): unknown {
  const repo = repoOf(context);
  const { git } = context.state;
  const body = context.body;
  if (!Array.isArray(body?.tree)) throw unprocessable('Invalid request.\n\n"tree" wasn\'t supplied.');
  let files = new Map<string, FlatEntry>();
  if (body.base_tree !== undefined && body.base_tree !== null) {
    if (!git.tree(body.base_tree))
      throw unprocessable('Invalid tree info', [{ resource: 'Tree', field: 'base_tree', code: 'invalid' }]);
    files = git.flatten(body.base_tree);
  }
  for (const item of body.tree) applyTreeItem(context, files, item);
  const sha = git.buildTree(files);
  return treeBody(context, repo, sha, false);
}

function applyTreeItem(context: Context, files: Map<string, FlatEntry>, item: any): void {
  const { git } = context.state;
  const path = item?.path;
  if (
    typeof path !== 'string' ||
    path === '' ||
    path.startsWith('/') ||
    path.endsWith('/') ||
    path.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw unprocessable('Invalid tree info', [
      { resource: 'Tree', field: 'path', code: 'invalid', message: `tree.path ${JSON.stringify(path)} is not valid` },
    ]);
  }
  if (!TREE_MODES.includes(item.mode))
    throw unprocessable(
      `Invalid request.\n\n${JSON.stringify(item.mode)} is not a member of ["100644", "100755", "040000", "160000", "120000"].`,
    );
  const mode = item.mode as TreeMode;
  if (item.type !== undefined && item.type !== entryType(mode))
    throw unprocessable('Invalid tree info', [{ resource: 'Tree', field: 'type', code: 'invalid' }]);
  if ('content' in item && 'sha' in item)
    throw unprocessable('Invalid tree info: only one of "content" or "sha" may be given');
  const removeUnder = (prefix: string): void => {
    for (const existing of [...files.keys()])
      if (existing === prefix || existing.startsWith(`${prefix}/`)) files.delete(existing);
  };
  // A file replacing a directory (or the reverse) drops what was there, as git would.
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) files.delete(path.slice(0, cut));
  if ('sha' in item && item.sha === null) {
    removeUnder(path);
    return;
  }
  if (typeof item.content === 'string') {
    if (mode === '040000' || mode === '160000')
      throw unprocessable('Invalid tree info: content is only allowed for blobs');
    removeUnder(path);
    files.set(path, { mode, sha: git.putBlob(Buffer.from(item.content, 'utf8')) });
    return;
  }
  if (typeof item.sha !== 'string') throw unprocessable('Invalid tree info: either "content" or "sha" must be given');
  removeUnder(path);
  if (mode === '040000') {
    if (!git.tree(item.sha))
      throw unprocessable('Invalid tree info', [
        { resource: 'Tree', field: 'sha', code: 'invalid', message: `tree.sha ${item.sha} is not a valid tree` },
      ]);
    for (const [sub, entry] of git.flatten(item.sha)) files.set(`${path}/${sub}`, entry);
  } else if (mode === '160000') {
    files.set(path, { mode, sha: item.sha });
  } else {
    if (!git.blob(item.sha))
      throw unprocessable('Invalid tree info', [
        { resource: 'Tree', field: 'sha', code: 'invalid', message: `tree.sha ${item.sha} is not a valid blob` },
      ]);
    files.set(path, { mode, sha: item.sha });
  }
}

function treeBody(context: Context, repo: RepoState, sha: string, recursive: boolean): unknown {
  const { git } = context.state;
  const base = context.state.repoUrl(repo);
  let entries = recursive
    ? git.listRecursive(sha)
    : (git.tree(sha) ?? []).map((entry) => git.listed(entry.name, entry));
  let truncated = false;
  if (recursive && entries.length > context.state.treeEntryLimit) {
    entries = entries.slice(0, context.state.treeEntryLimit);
    truncated = true;
  }
  const tree = entries.map((entry) => ({
    ...entry,
    url: `${base}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}`,
  }));
  return { sha, url: `${base}/git/trees/${sha}`, tree, truncated };
}

function getTree(context: Context): unknown {
  const repo = repoOf(context);
  const requested = context.params.tree_sha;
  const commit = context.state.git.commit(requested);
  const resolved = commit
    ? commit.tree
    : context.state.git.tree(requested)
      ? requested
      : context.state.resolve(repo, requested);
  const sha = resolved && context.state.git.commit(resolved) ? context.state.git.commit(resolved)!.tree : resolved;
  if (!sha || !context.state.git.tree(sha)) throw notFound();
  const recursive = context.query.has('recursive') && !['0', 'false', ''].includes(context.query.get('recursive')!);
  return treeBody(context, repo, sha, recursive);
}

function validRefName(ref: unknown): ref is string {
  return (
    typeof ref === 'string' &&
    ref.startsWith('refs/') &&
    ref.split('/').length >= 3 &&
    !ref.split('/').some((part) => part === '' || part.endsWith('.lock') || part.startsWith('.')) &&
    !/[\s~^:?*[\\]|\.\.|@\{/.test(ref)
  );
}

export function registerGitRoutes(router: Router<StandInState>): void {
  router.add('GET', '/repos/{owner}/{repo}/git/ref/{ref+}', (context) => {
    const repo = repoOf(context);
    const ref = `refs/${context.params.ref}`;
    const sha = repo.refs.get(ref);
    if (!sha) throw notFound();
    return { status: 200, body: refBody(context, repo, ref, sha) };
  });
  router.add('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref+}', (context) => {
    const repo = repoOf(context);
    const prefix = `refs/${context.params.ref}`;
    const refs = [...repo.refs].filter(([ref]) => ref.startsWith(prefix)).sort(([a], [b]) => a.localeCompare(b));
    return { status: 200, body: refs.map(([ref, sha]) => refBody(context, repo, ref, sha)) };
  });
  router.add('POST', '/repos/{owner}/{repo}/git/refs', (context) => {
    const repo = repoOf(context);
    const ref = requireString(context.body, 'ref');
    const sha = requireString(context.body, 'sha');
    if (!validRefName(ref))
      throw unprocessable("Reference name must start with 'refs/' and have at least two slashes.");
    if (!context.state.git.commit(sha)) throw unprocessable('Object does not exist');
    if (repo.refs.has(ref)) throw unprocessable('Reference already exists');
    repo.refs.set(ref, sha);
    return { status: 201, body: refBody(context, repo, ref, sha) };
  });
  router.add('PATCH', '/repos/{owner}/{repo}/git/refs/{ref+}', (context) => {
    const repo = repoOf(context);
    const ref = `refs/${context.params.ref}`;
    const sha = requireString(context.body, 'sha');
    const current = repo.refs.get(ref);
    if (!current) throw unprocessable('Reference does not exist');
    if (!context.state.git.commit(sha)) throw unprocessable('Object does not exist');
    if (context.body.force !== true && !context.state.git.isAncestor(current, sha))
      throw unprocessable('Update is not a fast forward');
    repo.refs.set(ref, sha);
    return { status: 200, body: refBody(context, repo, ref, sha) };
  });
  router.add('DELETE', '/repos/{owner}/{repo}/git/refs/{ref+}', (context) => {
    const repo = repoOf(context);
    const ref = `refs/${context.params.ref}`;
    const sha = repo.refs.get(ref);
    if (!sha) throw unprocessable('Reference does not exist');
    closePullsOnDeletedBranch(context.state, repo, ref, sha);
    repo.refs.delete(ref);
    return { status: 204 };
  });
  router.add('GET', '/repos/{owner}/{repo}/git/trees/{tree_sha}', (context) => ({
    status: 200,
    body: getTree(context),
  }));
  router.add('POST', '/repos/{owner}/{repo}/git/trees', (context) => ({ status: 201, body: createTree(context) }));
  router.add('GET', '/repos/{owner}/{repo}/git/blobs/{file_sha}', (context) => {
    const repo = repoOf(context);
    const content = context.state.git.blob(context.params.file_sha);
    if (!content) throw notFound();
    // GitHub wraps base64 at 60 columns; clients must tolerate the newlines.
    const base64 = content.toString('base64').replace(/.{60}/g, '$&\n');
    return {
      status: 200,
      body: {
        sha: context.params.file_sha,
        node_id: `B_${context.params.file_sha.slice(0, 8)}`,
        size: content.length,
        url: `${context.state.repoUrl(repo)}/git/blobs/${context.params.file_sha}`,
        content: base64,
        encoding: 'base64',
      },
    };
  });
  router.add('POST', '/repos/{owner}/{repo}/git/blobs', (context) => {
    const repo = repoOf(context);
    if (typeof context.body?.content !== 'string')
      throw unprocessable('Invalid request.\n\n"content" wasn\'t supplied.');
    const encoding = context.body.encoding ?? 'utf-8';
    if (!['utf-8', 'utf8', 'base64'].includes(encoding)) throw unprocessable(`encoding must be "utf-8" or "base64"`);
    const sha = context.state.git.putBlob(Buffer.from(context.body.content, encoding === 'base64' ? 'base64' : 'utf8'));
    return { status: 201, body: { sha, url: `${context.state.repoUrl(repo)}/git/blobs/${sha}` } };
  });
  router.add('GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}', (context) => {
    const repo = repoOf(context);
    const data = context.state.git.commit(context.params.commit_sha);
    if (!data) throw notFound();
    return { status: 200, body: commitBody(context, repo, context.params.commit_sha, data) };
  });
  router.add('POST', '/repos/{owner}/{repo}/git/commits', (context) => {
    const repo = repoOf(context);
    const { git } = context.state;
    const message = requireString(context.body, 'message');
    const tree = requireString(context.body, 'tree');
    const parents: unknown = context.body.parents ?? [];
    if (!git.tree(tree)) throw unprocessable('Tree SHA does not exist');
    if (!Array.isArray(parents) || parents.some((parent) => typeof parent !== 'string' || !git.commit(parent)))
      throw unprocessable('Parent SHA does not exist or is not a commit object');
    const actorSignature =
      context.actor === APP_LOGIN ? appSignature(context.state) : userSignature(context.state, context.actor);
    const author = signature(context.body.author, 'author', actorSignature);
    const committer = signature(context.body.committer, 'committer', context.body.author ? author : actorSignature);
    const data: CommitData = { tree, parents: parents as string[], author, committer, message };
    const sha = git.putCommit(data);
    context.state.commitActors.set(sha, context.actor);
    return { status: 201, body: commitBody(context, repo, sha, data) };
  });
}

export function userSignature(state: StandInState, login: string): Signature {
  return { name: login, email: `${login}@users.noreply.github.com`, date: state.timestamp() };
}

// GitHub closes an open pull request whose head branch is deleted.
function closePullsOnDeletedBranch(state: StandInState, repo: RepoState, ref: string, sha: string): void {
  for (const issue of repo.issues.values()) {
    if (issue.pull && issue.state === 'open' && `refs/heads/${issue.pull.head}` === ref) {
      issue.state = 'closed';
      issue.pull.closedHeadSha = sha;
      issue.closedAt = state.timestamp();
    }
  }
}

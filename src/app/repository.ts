// Reads a repository at one commit for the App: `.github/driftback.yml` and the manifest files from
// one recursive tree listing, blobs through the store's cache (blobs are immutable, so a second read
// at the same HEAD fetches none). A caller that remembers the default branch's name and its last
// HEAD (commit and root tree) saves the repository and ref reads: the tree is listed by branch name,
// and when its root tree is the remembered one, the content is the remembered commit's. A caller
// that trusts a HEAD (known from a push webhook) reads nothing: the listing comes from the cache.
// Blobs fetched here reach the store only when the caller `keep`s what its renders read. Files no
// manifest is (images, archives, keystores) are listed but fetched only when a render reads one (a
// generator's `files:`), within the job's byte budget, so the App renders what the command line does.
import { CONFIG_PATH, parseConfig, type ConfigResult } from '../core/config/index.js';
import { DEFAULT_MAX_RENDER_BYTES } from '../core/manifests/index.js';
import { MAX_MANIFEST_FILE_BYTES } from '../core/manifests/read-yaml.js';
import { notReadFile, notReadReason } from '../core/model/index.js';
import { NO_OVERRIDES, TEMPLATES_DIR, templateOverrides, type TemplateOverrides } from '../core/report/index.js';
import {
  fetchBlobTexts,
  hasStatus,
  readFileAt,
  readTreeFiles,
  type BaseTreeListing,
  type GitHubClient,
  type RepoTreeEntry,
  type TreeRead,
} from '../github/index.js';
import { blobSession, cachedListing, keepListing, type BlobSession } from './blob-cache.js';
import type { Store } from '../store/types.js';

/** A commit of the default branch and its root tree, as read before. */
export interface KnownHead {
  commitSha: string;
  treeSha: string;
}

export interface RepositoryAt {
  owner: string;
  repo: string;
  /** A branch name; default: the repository's default branch. Ignored when `sha` is given. */
  ref?: string;
  /** A commit sha. */
  sha?: string;
  /**
   * Directories to read (relative to the repository root). Default: the whole repository, because
   * a kustomization under a cluster path may use bases anywhere in it.
   */
  paths?: string[];
  /** The default branch's name when already known: saves the repository read (re-read on a 404/409). */
  defaultBranch?: string;
  /** The default branch's HEAD as last read: when its tree is still HEAD's, no ref is read. */
  knownHead?: KnownHead;
  /** A HEAD the caller trusts as current (known from webhooks): no ref or tree is read for it. */
  trustedHead?: KnownHead;
  /** Which manifest files to fetch now (default: all); the others wait in `unread` until fetched. */
  fetch?: (path: string) => boolean;
  /** Milliseconds since the epoch: when cached blobs and listings are used. Default: now. */
  now?: number;
  /** Bytes the files fetched as renders ask for may come to, in all: the job's render budget. */
  maxBytes?: number;
}

export interface LoadedRepository {
  owner: string;
  repo: string;
  defaultBranch: string;
  /** True when the default branch's name was read from GitHub in this load (not taken from the caller). */
  defaultBranchRead: boolean;
  /**
   * The commit that was read. With `knownHead` and an unchanged tree it is the remembered commit:
   * a later commit with the very same tree (an empty commit) is not told apart, the content is equal.
   */
  headSha: string;
  treeSha: string;
  config: ConfigResult;
  /** path → text of every manifest-like file under the paths read. */
  files: Map<string, string>;
  entries: Map<string, RepoTreeEntry>;
  /** The uncut recursive listing of the commit's tree (writeBranch reuses it), when GitHub sent one. */
  listing: BaseTreeListing | undefined;
  blobsFetched: number;
  /** Files listed but not fetched yet (the `fetch` option, files no manifest is), path → blob sha. */
  unread: Map<string, string>;
  /** Bytes the files fetched later (`readMore`) may come to in all, and still. */
  budget: { maxBytes: number; left: number };
  /** This read's blob cache: `keep` what the renders read. */
  blobs: BlobSession;
  /** True when the listing came from GitHub (not the cache): `keep` caches it. */
  listingRead: boolean;
}

// Files no manifest is: listed, and fetched only when a render reads one (a generator's source).
const BINARY = /\.(png|jpe?g|gif|ico|webp|svg|pdf|zip|gz|tgz|tar|jar|woff2?|ttf|eot|mp4|mov|bin|exe|so|dylib)$/i;

type RepositoryStore = Pick<Store, 'getBlobs' | 'putBlobs' | 'touchBlobs'>;

function missingConfig(): ConfigResult {
  return {
    ok: false,
    problems: [
      {
        file: CONFIG_PATH,
        message: `no ${CONFIG_PATH} on the default branch: add one that lists the clusters (name and path)`,
      },
    ],
  };
}

/** The config at a commit (contents API); a missing file is a problem that says what to add. */
export async function readConfigAt(
  octokit: GitHubClient,
  at: { owner: string; repo: string; sha: string },
): Promise<ConfigResult> {
  const text = await readFileAt(octokit, { owner: at.owner, repo: at.repo, ref: at.sha, path: CONFIG_PATH });
  return text === undefined ? missingConfig() : parseConfig(text, CONFIG_PATH);
}

/**
 * The config at a tree whose listing the cache holds, with its blob: what a job that trusts a HEAD
 * (known from webhooks) reads instead of GitHub. Undefined when the cache lacks either.
 */
export async function cachedConfigAt(
  store: RepositoryStore,
  treeSha: string,
  now: number,
): Promise<ConfigResult | undefined> {
  const listing = await cachedListing(store, treeSha, now);
  if (!listing) return undefined;
  const entry = listing.tree.find((item) => item.path === CONFIG_PATH);
  if (!entry?.sha) return listing.tree.length > 0 ? missingConfig() : undefined;
  if (entry.type !== 'blob' || entry.mode === '120000') return undefined;
  const text = (await store.getBlobs([entry.sha])).get(entry.sha);
  return text === undefined ? undefined : parseConfig(text, CONFIG_PATH);
}

/**
 * The config from the tree already read. Only a config the listing cannot settle costs a contents
 * read: a symbolic link (the contents API follows it) or a listing GitHub cut and the walk missed.
 */
async function configFromTree(
  octokit: GitHubClient,
  at: { owner: string; repo: string; sha: string },
  tree: TreeRead,
): Promise<ConfigResult> {
  const text = tree.files.get(CONFIG_PATH);
  if (text !== undefined) return parseConfig(text, CONFIG_PATH);
  if (!tree.entries.has(CONFIG_PATH) && !tree.walked) return missingConfig();
  return readConfigAt(octokit, at);
}

const DEFAULT_HEAD_QUERY = `query($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) { defaultBranchRef { name target { oid } } }
}`;

/**
 * The default branch's name and HEAD commit from one GraphQL query, where REST takes two calls (the
 * repository, then the ref). Undefined when GraphQL cannot answer (an empty repository, a server
 * without it, an error): the REST reads then run and fail, if they fail, with REST's statuses.
 */
async function defaultHead(
  octokit: GitHubClient,
  at: RepositoryAt,
): Promise<{ name: string; commitSha: string } | undefined> {
  type Answer = { repository: { defaultBranchRef: { name: string; target: { oid: string } } | null } | null };
  try {
    const answer = await octokit.graphql<Answer>(DEFAULT_HEAD_QUERY, { owner: at.owner, name: at.repo });
    const ref = answer.repository?.defaultBranchRef;
    return ref ? { name: ref.name, commitSha: ref.target.oid } : undefined;
  } catch {
    return undefined;
  }
}

async function refHead(octokit: GitHubClient, at: RepositoryAt, branch: string): Promise<string> {
  const { data } = await octokit.rest.git.getRef({ owner: at.owner, repo: at.repo, ref: `heads/${branch}` });
  return data.object.sha;
}

/** Lists and reads a tree-ish; with the root tree sha known, its listing may come from the cache. */
type TreeReader = (treeish: string, treeSha?: string) => Promise<TreeRead>;

/**
 * The default branch's HEAD. With a remembered HEAD the tree is listed by branch name (one call);
 * only when its root tree differs is the new commit looked up, and its tree checked against the
 * listing, so a push between the two reads cannot pair one commit with another commit's files.
 */
async function readDefaultHead(
  octokit: GitHubClient,
  at: RepositoryAt,
  branch: string,
  read: TreeReader,
): Promise<{ commitSha: string; tree: TreeRead }> {
  // A name with a slash would have to travel as one escaped path segment; the ref read is the safe way.
  if (!at.knownHead || branch.includes('/')) {
    const commitSha = await refHead(octokit, at, branch);
    return { commitSha, tree: await read(commitSha) };
  }
  const tree = await read(branch);
  if (tree.treeSha === at.knownHead.treeSha) return { commitSha: at.knownHead.commitSha, tree };
  const commitSha = await refHead(octokit, at, branch);
  const { data: commit } = await octokit.rest.git.getCommit({ owner: at.owner, repo: at.repo, commit_sha: commitSha });
  if (commit.tree.sha === tree.treeSha) return { commitSha, tree };
  return { commitSha, tree: await read(commitSha) };
}

/**
 * The template overrides at a ref, for documents written without reading the whole tree (the
 * dashboard and alert issues): one listing of the templates directory, blobs through the cache.
 */
export async function readTemplatesAt(
  octokit: GitHubClient,
  at: { owner: string; repo: string; ref: string },
  store: RepositoryStore,
  now: number,
): Promise<TemplateOverrides> {
  let listing: unknown;
  try {
    const path = TEMPLATES_DIR.slice(0, -1);
    ({ data: listing } = await octokit.rest.repos.getContent({ owner: at.owner, repo: at.repo, path, ref: at.ref }));
  } catch (error) {
    if (hasStatus(error, 404)) return NO_OVERRIDES;
    throw error;
  }
  if (!Array.isArray(listing)) return NO_OVERRIDES;
  const files = (listing as Array<{ type: string; path: string; sha: string }>).filter(
    (entry) => entry.type === 'file',
  );
  const session = blobSession(store);
  const shas = files.map((file) => file.sha);
  const { blobs } = await fetchBlobTexts(octokit, { owner: at.owner, repo: at.repo, blobCache: session }, shas);
  await session.keep(blobs.keys(), now);
  return templateOverrides(new Map(files.map((file) => [file.path, blobs.get(file.sha) ?? ''])));
}

/** Files every render of the repository may read besides its own: the config, kustomizations and template overrides. */
export function alwaysRead(path: string): boolean {
  return (
    path === CONFIG_PATH ||
    path.startsWith(TEMPLATES_DIR) ||
    KUSTOMIZATION_NAMES.has(path.slice(path.lastIndexOf('/') + 1))
  );
}

const KUSTOMIZATION_NAMES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

export async function loadRepositoryAt(
  octokit: GitHubClient,
  at: RepositoryAt,
  store: RepositoryStore,
): Promise<LoadedRepository> {
  const { owner, repo } = at;
  const blobs = blobSession(store);
  const reader = treeReader(octokit, at, store, blobs);
  const { head, defaultBranch, defaultBranchRead } = await resolveHead(octokit, at, reader.read);
  const { commitSha: headSha, tree } = head;
  const config = await configFromTree(octokit, { owner, repo, sha: headSha }, tree);
  return {
    owner,
    repo,
    defaultBranch,
    defaultBranchRead,
    headSha,
    treeSha: tree.treeSha,
    config,
    files: tree.files,
    entries: tree.entries,
    listing: tree.listing,
    blobsFetched: tree.blobsFetched,
    unread: tree.unread,
    budget: { maxBytes: at.maxBytes ?? DEFAULT_MAX_RENDER_BYTES, left: at.maxBytes ?? DEFAULT_MAX_RENDER_BYTES },
    blobs,
    listingRead: reader.listingRead(),
  };
}

/** Reads a tree-ish's files (the config always among them); its listing from the cache when it has it. */
function treeReader(
  octokit: GitHubClient,
  at: RepositoryAt,
  store: RepositoryStore,
  blobs: ReturnType<typeof blobSession>,
): { read: TreeReader; listingRead: () => boolean } {
  const paths = at.paths ?? [''];
  const now = at.now ?? Date.now();
  let listingRead = true;
  const read: TreeReader = async (treeish, treeSha) => {
    const listing = treeSha ? await cachedListing(store, treeSha, now) : undefined;
    if (treeSha && !listing) listingRead = true;
    else if (listing) listingRead = false;
    return readTreeFiles(octokit, {
      owner: at.owner,
      repo: at.repo,
      commitSha: treeSha && !listing ? treeSha : treeish,
      paths: paths.includes('') ? paths : [...paths, CONFIG_PATH, TEMPLATES_DIR.slice(0, -1)],
      blobCache: blobs,
      fetch: (path: string) => alwaysRead(path) || (at.fetch ? at.fetch(path) : !BINARY.test(path)),
      ...(listing ? { listing } : {}),
      archiveRef: treeish,
    });
  };
  return { read, listingRead: () => listingRead };
}

interface ResolvedHead {
  head: { commitSha: string; tree: TreeRead };
  defaultBranch: string;
  defaultBranchRead: boolean;
}

/** The commit to read (a sha, a ref, a trusted HEAD or the default branch's HEAD), read. */
async function resolveHead(octokit: GitHubClient, at: RepositoryAt, read: TreeReader): Promise<ResolvedHead> {
  const readDefaultBranch = async () =>
    (await octokit.rest.repos.get({ owner: at.owner, repo: at.repo })).data.default_branch;
  const defaultBranchRead = at.defaultBranch === undefined;
  // The first read of a repository at HEAD learns its default branch and HEAD commit in one call.
  const firstHead =
    defaultBranchRead && !at.trustedHead && !at.sha && !at.ref ? await defaultHead(octokit, at) : undefined;
  const defaultBranch = at.defaultBranch ?? firstHead?.name ?? (await readDefaultBranch());
  const resolved = (commitSha: string, tree: TreeRead) => ({
    head: { commitSha, tree },
    defaultBranch,
    defaultBranchRead,
  });
  if (firstHead) return resolved(firstHead.commitSha, await read(firstHead.commitSha));
  if (at.trustedHead && !at.sha && !at.ref)
    return resolved(at.trustedHead.commitSha, await read(at.trustedHead.commitSha, at.trustedHead.treeSha));
  if (at.sha) return resolved(at.sha, await read(at.sha));
  if (at.ref) {
    const commitSha = await refHead(octokit, at, at.ref);
    return resolved(commitSha, await read(commitSha));
  }
  try {
    return { head: await readDefaultHead(octokit, at, defaultBranch, read), defaultBranch, defaultBranchRead };
  } catch (error) {
    // A remembered name that no longer resolves: the default branch was renamed or replaced.
    if (defaultBranchRead || !hasStatus(error, 404, 409)) throw error;
    const renamed = await readDefaultBranch();
    const head = await readDefaultHead(octokit, { ...at, defaultBranch: renamed }, renamed, read);
    return { head, defaultBranch: renamed, defaultBranchRead: true };
  }
}

/**
 * Fetches the listed files among `paths` not read yet into `loaded.files`; returns how many. A file
 * larger than one file may be, or than the bytes the job has left, is not fetched: the file map holds
 * why (notReadFile), and a render that reads it says so.
 */
export async function readMore(
  octokit: GitHubClient,
  loaded: LoadedRepository,
  paths: Iterable<string>,
): Promise<number> {
  const wanted = [...new Set(paths)].filter((path) => loaded.unread.has(path));
  if (wanted.length === 0) return 0;
  const fetched = wanted.filter((path) => withinBudget(loaded, path));
  const texts = await fetchBlobTexts(octokit, { owner: loaded.owner, repo: loaded.repo, blobCache: loaded.blobs }, [
    ...new Set(fetched.map((path) => loaded.unread.get(path)!)),
  ]);
  for (const path of fetched) {
    const text = texts.blobs.get(loaded.unread.get(path)!)!;
    const size = Buffer.byteLength(text, 'utf8');
    const listed = loaded.entries.get(path)?.size;
    // A listing without a size (GitHub left it out): what was fetched counts, and the file limit still holds.
    if (listed === undefined) loaded.budget.left -= size;
    const tooLarge = listed === undefined && size > MAX_MANIFEST_FILE_BYTES;
    loaded.files.set(path, tooLarge ? notReadFile(notReadReason(size, { file: MAX_MANIFEST_FILE_BYTES })) : text);
    loaded.unread.delete(path);
  }
  loaded.blobsFetched += texts.fetched;
  return wanted.length;
}

/** Whether `path` may be fetched: its listed size within one file's limit and the bytes left (then charged). */
function withinBudget(loaded: LoadedRepository, path: string): boolean {
  const size = loaded.entries.get(path)?.size;
  if (size === undefined) return true;
  const reason =
    size > MAX_MANIFEST_FILE_BYTES
      ? notReadReason(size, { file: MAX_MANIFEST_FILE_BYTES })
      : size > loaded.budget.left
        ? notReadReason(size, { job: loaded.budget.maxBytes })
        : undefined;
  if (reason === undefined) {
    loaded.budget.left -= size;
    return true;
  }
  loaded.files.set(path, notReadFile(reason));
  loaded.unread.delete(path);
  return false;
}

/**
 * The files as a render sees them: every listed manifest file, with '' standing in for one not read
 * yet. The caller renders, then reads what the render read (`readMore`) and renders again until
 * nothing it read was a stand-in (`standInsAmong`): a path's presence is always true to the tree.
 */
export function filesWithStandIns(loaded: LoadedRepository): Map<string, string> {
  const files = new Map(loaded.files);
  for (const path of loaded.unread.keys()) files.set(path, '');
  return files;
}

/** The paths among `read` whose text the render did not have (stand-ins). */
export function standInsAmong(loaded: LoadedRepository, read: Iterable<string>): string[] {
  return [...new Set(read)].filter((path) => loaded.unread.has(path));
}

/** Caches what the renders read (and the config and kustomizations), and the listing when it was read. */
export async function keepRead(
  store: RepositoryStore,
  loaded: LoadedRepository,
  read: Iterable<string>,
  now: number,
): Promise<void> {
  const paths = new Set(read);
  for (const path of loaded.files.keys()) if (alwaysRead(path)) paths.add(path);
  const shas = [...paths].flatMap((path) => (loaded.entries.get(path)?.sha ? [loaded.entries.get(path)!.sha] : []));
  await loaded.blobs.keep(shas, now);
  if (loaded.listingRead && loaded.listing) await keepListing(store, loaded.listing, now);
}

// Reads the manifests under some directories at one commit with the git data API: one recursive
// tree call, then only the blobs the cache does not hold (blobs are immutable, keyed by sha) — many
// of them through the commit's archive in one call.
import { fileText } from '../core/model/index.js';
import { mapWithConcurrency } from './concurrency.js';
import { readArchiveBlobs } from './read-archive.js';
import type { BlobCache, GitHubClient, RepoRef } from './types.js';

export type TreeEntryKind = 'file' | 'executable' | 'symlink' | 'submodule' | 'tree';

export interface RepoTreeEntry {
  path: string;
  sha: string;
  mode: string;
  kind: TreeEntryKind;
  /** A blob's size in bytes, as the listing gives it. */
  size?: number;
}

export interface ReadTreeOptions extends RepoRef {
  /** A commit sha, or a branch name: GitHub lists the tree of any tree-ish. */
  commitSha: string;
  /** Directories to read, relative to the repository root; '' or '.' is the whole repository. */
  paths: string[];
  blobCache: BlobCache;
  /** Which files to list as files (default: every regular file under `paths`). */
  filter?: (path: string) => boolean;
  /**
   * Which of those files to fetch now (default: all). The others are listed in `unread` with their
   * blob sha, for the caller to fetch with fetchBlobTexts once it knows it needs them.
   */
  fetch?: (path: string) => boolean;
  /** The commit's recursive listing when already known (cached by tree sha): no tree call is made. */
  listing?: BaseTreeListing;
  /** Blob fetches in flight at once (default 8). */
  concurrency?: number;
  /**
   * The commit (sha or branch name) whose archive may serve many blobs in one call; without it,
   * every blob the cache lacks is one call.
   */
  archiveRef?: string;
}

export interface TreeRead {
  /** The commit's root tree sha. */
  treeSha: string;
  /** Regular files under the requested paths, path → text (fileText: a file that is not UTF-8 held as its bytes). */
  files: Map<string, string>;
  /** Every entry under the requested paths (directories too), path → entry. */
  entries: Map<string, RepoTreeEntry>;
  /** Symlinks and submodules under the requested paths: reported, never followed. */
  unfollowed: RepoTreeEntry[];
  /** True when GitHub truncated the recursive listing and the paths were walked instead. */
  walked: boolean;
  blobsFetched: number;
  /** The whole recursive listing when GitHub sent it uncut; writeBranch reuses it as `baseTree`. */
  listing: BaseTreeListing | undefined;
  /** Files listed but not fetched (the `fetch` option), path → blob sha. */
  unread: Map<string, string>;
}

export interface BaseTreeListing {
  sha: string;
  tree: Array<{ path?: string; mode?: string; type?: string; sha?: string; size?: number }>;
}

interface RawEntry {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string;
  size?: number;
}

function kindOf(mode: string): TreeEntryKind {
  if (mode === '040000') return 'tree';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  return mode === '100755' ? 'executable' : 'file';
}

function normaliseDir(path: string): string {
  return path.replace(/^\.\/?/, '').replace(/^\/+|\/+$/g, '');
}

function isUnder(path: string, dirs: string[]): boolean {
  return dirs.some((dir) => dir === '' || path === dir || path.startsWith(`${dir}/`));
}

export async function readTreeFiles(octokit: GitHubClient, options: ReadTreeOptions): Promise<TreeRead> {
  const { owner, repo } = options;
  const dirs = options.paths.map(normaliseDir);
  const data = options.listing
    ? { sha: options.listing.sha, tree: options.listing.tree, truncated: false }
    : (await octokit.rest.git.getTree({ owner, repo, tree_sha: options.commitSha, recursive: 'true' })).data;
  let raw: RawEntry[] = data.tree;
  if (data.truncated) raw = await walkPaths(octokit, options, data.sha, data.tree, dirs);
  const entries = new Map<string, RepoTreeEntry>();
  for (const entry of raw) {
    if (!entry.path || !entry.sha || !entry.mode || !isUnder(entry.path, dirs)) continue;
    const size = typeof entry.size === 'number' ? { size: entry.size } : {};
    entries.set(entry.path, { path: entry.path, sha: entry.sha, mode: entry.mode, kind: kindOf(entry.mode), ...size });
  }
  const listed = [...entries.values()].filter(
    (entry) => (entry.kind === 'file' || entry.kind === 'executable') && (options.filter?.(entry.path) ?? true),
  );
  const wanted = listed.filter((entry) => options.fetch?.(entry.path) ?? true);
  const archive = options.archiveRef
    ? { ref: options.archiveRef, paths: new Map(wanted.map((entry) => [entry.path, entry.sha])) }
    : undefined;
  const texts = await fetchBlobTexts(octokit, { ...options, ...(archive ? { archive } : {}) }, [
    ...new Set(wanted.map((entry) => entry.sha)),
  ]);
  const files = new Map(wanted.map((entry) => [entry.path, texts.blobs.get(entry.sha)!] as const));
  // Files not asked for are still served when the cache holds them; only the rest stay unread.
  const others = listed.filter((entry) => !files.has(entry.path));
  const cached =
    others.length > 0
      ? await options.blobCache.get([...new Set(others.map((entry) => entry.sha))])
      : new Map<string, string>();
  const unread = new Map<string, string>();
  for (const entry of others) {
    const text = cached.get(entry.sha);
    if (text === undefined) unread.set(entry.path, entry.sha);
    else files.set(entry.path, text);
  }
  const unfollowed = [...entries.values()].filter((entry) => entry.kind === 'symlink' || entry.kind === 'submodule');
  const listing = data.truncated ? undefined : { sha: data.sha, tree: data.tree };
  return {
    treeSha: data.sha,
    files,
    entries,
    unfollowed,
    walked: data.truncated,
    blobsFetched: texts.fetched,
    listing,
    unread,
  };
}

/** From this many blobs missing from the cache on, the commit's archive is read first (one call). */
export const ARCHIVE_FROM_BLOBS = 10;

/**
 * Blob texts by sha: from the cache, the rest from GitHub (then offered to the cache's `put`). With
 * an archive (a commit and the paths of the blobs), many missing blobs come from it in one call;
 * whatever it does not serve is fetched blob by blob.
 */
export async function fetchBlobTexts(
  octokit: GitHubClient,
  options: RepoRef & {
    blobCache: BlobCache;
    concurrency?: number;
    archive?: { ref: string; paths: Map<string, string> };
  },
  shas: string[],
): Promise<{ blobs: Map<string, string>; fetched: number }> {
  const blobs = await options.blobCache.get(shas);
  let missing = shas.filter((sha) => !blobs.has(sha));
  const fetched = new Map<string, string>();
  if (options.archive && missing.length >= ARCHIVE_FROM_BLOBS) {
    const lacking = new Set(missing);
    const paths = new Map([...options.archive.paths].filter(([, sha]) => lacking.has(sha)));
    const archived = await readArchiveBlobs(octokit, { ...options, ref: options.archive.ref }, paths);
    for (const [sha, text] of archived.blobs) {
      fetched.set(sha, text);
      blobs.set(sha, text);
    }
    missing = missing.filter((sha) => !blobs.has(sha));
  }
  await mapWithConcurrency(missing, options.concurrency ?? 8, async (sha) => {
    const { data } = await octokit.rest.git.getBlob({ owner: options.owner, repo: options.repo, file_sha: sha });
    const text = fileText(Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8'));
    fetched.set(sha, text);
    blobs.set(sha, text);
  });
  if (fetched.size > 0) await options.blobCache.put(fetched);
  return { blobs, fetched: fetched.size };
}

/**
 * GitHub cuts recursive listings of very large trees. Then each requested directory is found
 * from the root and listed on its own, recursively, and level by level if that is cut too.
 */
async function walkPaths(
  octokit: GitHubClient,
  options: ReadTreeOptions,
  rootSha: string,
  rootEntries: RawEntry[],
  dirs: string[],
): Promise<RawEntry[]> {
  const listTree = async (sha: string, recursive: boolean): Promise<{ tree: RawEntry[]; truncated: boolean }> => {
    const { data } = await octokit.rest.git.getTree({
      owner: options.owner,
      repo: options.repo,
      tree_sha: sha,
      ...(recursive ? { recursive: 'true' } : {}),
    });
    return { tree: data.tree, truncated: data.truncated };
  };
  const prefixed = (prefix: string, tree: RawEntry[]): RawEntry[] =>
    tree.map((entry) => ({ ...entry, path: prefix ? `${prefix}/${entry.path}` : entry.path }));
  const listAll = async (sha: string, prefix: string): Promise<RawEntry[]> => {
    const recursive = await listTree(sha, true);
    if (!recursive.truncated) return prefixed(prefix, recursive.tree);
    const level = prefixed(prefix, (await listTree(sha, false)).tree);
    const nested = await Promise.all(
      level.filter((entry) => entry.type === 'tree').map((entry) => listAll(entry.sha!, entry.path!)),
    );
    return [...level, ...nested.flat()];
  };
  const result: RawEntry[] = [];
  for (const dir of new Set(dirs)) {
    if (dir === '') {
      result.push(...(await listAll(rootSha, '')));
      continue;
    }
    // The cut listing may already name the directory; otherwise descend one level at a time.
    let sha = rootEntries.find((entry) => entry.path === dir && entry.type === 'tree')?.sha;
    if (!sha) sha = await findSubtree(listTree, rootSha, dir);
    if (sha) result.push({ path: dir, mode: '040000', type: 'tree', sha }, ...(await listAll(sha, dir)));
  }
  return result;
}

async function findSubtree(
  listTree: (sha: string, recursive: boolean) => Promise<{ tree: RawEntry[] }>,
  rootSha: string,
  dir: string,
): Promise<string | undefined> {
  let sha: string | undefined = rootSha;
  for (const segment of dir.split('/')) {
    const { tree } = await listTree(sha, false);
    sha = tree.find((entry) => entry.path === segment && entry.type === 'tree')?.sha;
    if (!sha) return undefined;
  }
  return sha;
}

// Reads a repository at one commit for the App: `.github/driftback.yml` at that commit and the
// manifest files, blobs through the store's cache (blobs are immutable, so a second read at the
// same HEAD fetches none).
import { CONFIG_PATH, parseConfig, type ConfigResult } from '../core/config/index.js';
import { readFileAt, readTreeFiles, type BaseTreeListing, type BlobCache, type GitHubClient, type RepoTreeEntry } from '../github/index.js';
import type { Store } from '../store/types.js';

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
}

export interface LoadedRepository {
  owner: string;
  repo: string;
  defaultBranch: string;
  /** The commit that was read. */
  headSha: string;
  treeSha: string;
  config: ConfigResult;
  /** path → text of every manifest-like file under the paths read. */
  files: Map<string, string>;
  entries: Map<string, RepoTreeEntry>;
  /** The uncut recursive listing of the commit's tree (writeBranch reuses it), when GitHub sent one. */
  listing: BaseTreeListing | undefined;
  blobsFetched: number;
}

// Files no manifest build reads; skipping them keeps images and archives out of the blob cache.
const BINARY = /\.(png|jpe?g|gif|ico|webp|svg|pdf|zip|gz|tgz|tar|jar|woff2?|ttf|eot|mp4|mov|bin|exe|so|dylib)$/i;

export function storeBlobCache(store: Pick<Store, 'getBlobs' | 'putBlobs'>): BlobCache {
  return { get: (shas) => store.getBlobs(shas), put: (blobs) => store.putBlobs(blobs) };
}

/** The config at a commit; a missing file is a problem that says what to add. */
export async function readConfigAt(octokit: GitHubClient, at: { owner: string; repo: string; sha: string }): Promise<ConfigResult> {
  const text = await readFileAt(octokit, { owner: at.owner, repo: at.repo, ref: at.sha, path: CONFIG_PATH });
  if (text === undefined) {
    return { ok: false, problems: [{ file: CONFIG_PATH, message: `no ${CONFIG_PATH} on the default branch: add one that lists the clusters (name and path)` }] };
  }
  return parseConfig(text, CONFIG_PATH);
}

async function resolveCommit(octokit: GitHubClient, at: RepositoryAt, defaultBranch: string): Promise<string> {
  if (at.sha) return at.sha;
  const { data } = await octokit.rest.git.getRef({ owner: at.owner, repo: at.repo, ref: `heads/${at.ref ?? defaultBranch}` });
  return data.object.sha;
}

export async function loadRepositoryAt(octokit: GitHubClient, at: RepositoryAt, store: Pick<Store, 'getBlobs' | 'putBlobs'>): Promise<LoadedRepository> {
  const { owner, repo } = at;
  const { data: repository } = await octokit.rest.repos.get({ owner, repo });
  const defaultBranch = repository.default_branch;
  const headSha = await resolveCommit(octokit, at, defaultBranch);
  const config = await readConfigAt(octokit, { owner, repo, sha: headSha });
  const tree = await readTreeFiles(octokit, {
    owner, repo, commitSha: headSha, paths: at.paths ?? [''], blobCache: storeBlobCache(store), filter: (path) => !BINARY.test(path),
  });
  return {
    owner, repo, defaultBranch, headSha, treeSha: tree.treeSha, config,
    files: tree.files, entries: tree.entries, listing: tree.listing, blobsFetched: tree.blobsFetched,
  };
}

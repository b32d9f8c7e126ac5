// Writes a set of file edits as one commit on one of the App's branches, built on a commit of the
// default branch: one createTree (inline contents over the base tree), one createCommit, then the
// ref moves last so a failure part-way leaves the branch as it was. Nothing is written when the
// resulting tree is already the branch's tree (checked locally with git's own hashing).
import { gitBlobSha, gitTreeSha, type FlatTreeEntry } from './git-hash.js';
import { assertOwnBranch } from './guard.js';
import type { BaseTreeListing } from './read-tree.js';
import { hasStatus, type GitHubClient, type RepoRef } from './types.js';

export interface WriteBranchOptions extends RepoRef {
  branch: string;
  /** pullRequests.branchPrefix; the guard refuses any branch outside it. */
  prefix: string;
  defaultBranch: string;
  /** The default-branch commit the new commit sits on. */
  baseCommitSha: string;
  /** path → new text, or null to delete the file. */
  files: Map<string, string | null>;
  message: string;
  author?: { name: string; email: string; date?: string };
  /** The head the App last wrote; if the branch has moved since, nothing is written. */
  expectedHeadSha?: string;
  /** The base commit's uncut recursive listing, when already read (TreeRead.listing): saves a call. */
  baseTree?: BaseTreeListing;
  /** What the App wrote last on this branch: when the head is still that commit, its tree is known. */
  lastWritten?: { commitSha: string; treeSha: string };
  /**
   * The branch head as another read just showed it (the drift PR's head sha in the PR list). When it
   * is `lastWritten` and the edits give `lastWritten`'s tree, nothing is to be written and the ref is
   * not read. Any write still reads the ref first: a PR's head may lag a push by moments, and a
   * force-push must never rest on it.
   */
  headSeen?: string;
}

export type WriteBranchResult =
  | { type: 'written'; commitSha: string; treeSha: string; created: boolean }
  /** The branch already holds exactly this tree (or, with no branch, the edits change nothing). */
  | { type: 'unchanged'; commitSha: string | undefined }
  | { type: 'head-moved'; actualHeadSha: string | undefined };

export async function writeBranch(octokit: GitHubClient, options: WriteBranchOptions): Promise<WriteBranchResult> {
  const branch = assertOwnBranch(options.branch, options.prefix, options.defaultBranch);
  const { owner, repo } = options;
  const seenUnchanged = unchangedAsSeen(options);
  if (seenUnchanged) return seenUnchanged;
  const currentHead = await branchHead(octokit, options, branch);
  if (options.expectedHeadSha !== undefined && currentHead !== options.expectedHeadSha)
    return { type: 'head-moved', actualHeadSha: currentHead };

  const baseTree = options.baseTree
    ? { ...options.baseTree, truncated: false }
    : (await octokit.rest.git.getTree({ owner, repo, tree_sha: options.baseCommitSha, recursive: 'true' })).data;
  const planned = baseTree.truncated ? undefined : plannedTree(baseTree.tree, options.files);
  const edits = planned ? planned.edits : [...options.files].map(([path, text]) => treeItem(path, text, '100644'));
  const headTree = async (head: string): Promise<string> =>
    options.lastWritten?.commitSha === head ? options.lastWritten.treeSha : treeOfCommit(octokit, options, head);
  if (planned) {
    const currentTree = currentHead ? await headTree(currentHead) : baseTree.sha;
    if (planned.treeSha === currentTree) return { type: 'unchanged', commitSha: currentHead };
  }

  const { data: tree } = await octokit.rest.git.createTree({ owner, repo, base_tree: baseTree.sha, tree: edits });
  // A truncated base could not be hashed locally, so the comparison happens after createTree.
  if (!planned && currentHead && tree.sha === (await headTree(currentHead)))
    return { type: 'unchanged', commitSha: currentHead };
  const { data: commit } = await octokit.rest.git.createCommit({
    owner,
    repo,
    message: options.message,
    tree: tree.sha,
    parents: [options.baseCommitSha],
    ...(options.author ? { author: options.author } : {}),
  });
  if (currentHead)
    await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commit.sha, force: true });
  else await octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: commit.sha });
  return { type: 'written', commitSha: commit.sha, treeSha: tree.sha, created: !currentHead };
}

/** 'unchanged' without a call, when the head seen elsewhere is the App's last commit and the edits change nothing on it. */
function unchangedAsSeen(options: WriteBranchOptions): WriteBranchResult | undefined {
  const { headSeen, lastWritten, baseTree } = options;
  if (headSeen === undefined || !lastWritten || !baseTree || lastWritten.commitSha !== headSeen) return undefined;
  if (options.expectedHeadSha !== undefined && options.expectedHeadSha !== headSeen) return undefined;
  return plannedTree(baseTree.tree, options.files).treeSha === lastWritten.treeSha
    ? { type: 'unchanged', commitSha: headSeen }
    : undefined;
}

export async function branchHead(octokit: GitHubClient, options: RepoRef, branch: string): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.git.getRef({
      owner: options.owner,
      repo: options.repo,
      ref: `heads/${branch}`,
    });
    return data.object.sha;
  } catch (error) {
    if (hasStatus(error, 404)) return undefined;
    throw error;
  }
}

async function treeOfCommit(octokit: GitHubClient, options: RepoRef, commitSha: string): Promise<string> {
  const { data } = await octokit.rest.git.getCommit({
    owner: options.owner,
    repo: options.repo,
    commit_sha: commitSha,
  });
  return data.tree.sha;
}

type TreeItem =
  | { path: string; mode: '100644' | '100755'; type: 'blob'; content: string }
  | { path: string; mode: '100644' | '100755'; type: 'blob'; sha: null };

function treeItem(path: string, text: string | null, mode: '100644' | '100755'): TreeItem {
  return text === null ? { path, mode, type: 'blob', sha: null } : { path, mode, type: 'blob', content: text };
}

/** The tree the edits produce, hashed locally; edits that change nothing are dropped. */
function plannedTree(
  base: Array<{ path?: string; mode?: string; type?: string; sha?: string }>,
  files: Map<string, string | null>,
): { treeSha: string; edits: TreeItem[] } {
  const flat = new Map<string, FlatTreeEntry>();
  for (const entry of base)
    if (entry.type !== 'tree' && entry.path && entry.mode && entry.sha)
      flat.set(entry.path, { mode: entry.mode, sha: entry.sha });
  const edits: TreeItem[] = [];
  for (const [path, text] of files) {
    const existing = flat.get(path);
    // An executable manifest stays executable.
    const mode = existing?.mode === '100755' ? '100755' : '100644';
    if (text === null) {
      if (!existing) continue;
      flat.delete(path);
    } else {
      const sha = gitBlobSha(text);
      if (existing?.sha === sha && existing.mode === mode) continue;
      flat.set(path, { mode, sha });
    }
    edits.push(treeItem(path, text, mode));
  }
  return { treeSha: gitTreeSha(flat), edits };
}

export interface DeleteBranchOptions extends RepoRef {
  branch: string;
  prefix: string;
  defaultBranch: string;
}

/** Deletes one of the App's branches (through the guard); a branch already gone is fine. */
export async function deleteBranch(
  octokit: GitHubClient,
  options: DeleteBranchOptions,
): Promise<{ type: 'deleted' } | { type: 'absent' }> {
  const branch = assertOwnBranch(options.branch, options.prefix, options.defaultBranch);
  try {
    await octokit.rest.git.deleteRef({ owner: options.owner, repo: options.repo, ref: `heads/${branch}` });
    return { type: 'deleted' };
  } catch (error) {
    if (hasStatus(error, 404, 422)) return { type: 'absent' };
    throw error;
  }
}

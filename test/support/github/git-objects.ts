// Real git object encoding for the GitHub stand-in: blob, tree and commit SHA-1s are computed
// exactly as git computes them, so a sha the stand-in returns equals `git hash-object`'s.
import { createHash } from 'node:crypto';

export type TreeMode = '100644' | '100755' | '040000' | '120000' | '160000';
export const TREE_MODES: readonly TreeMode[] = ['100644', '100755', '040000', '120000', '160000'];

export interface TreeEntry {
  mode: TreeMode;
  name: string;
  sha: string;
}

export interface Signature {
  name: string;
  email: string;
  /** ISO 8601, as GitHub's API speaks it. */
  date: string;
}

export interface CommitData {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

export type GitObject =
  { type: 'blob'; content: Buffer } | { type: 'tree'; entries: TreeEntry[] } | { type: 'commit'; data: CommitData };

function hashObject(type: string, body: Buffer): string {
  const header = Buffer.from(`${type} ${body.length}\0`);
  return createHash('sha1').update(header).update(body).digest('hex');
}

export function blobSha(content: Buffer): string {
  return hashObject('blob', content);
}

/** git orders tree entries by name, comparing a subtree's name as if it ended in '/'. */
export function sortTreeEntries(entries: TreeEntry[]): TreeEntry[] {
  const sortKey = (entry: TreeEntry): Buffer => Buffer.from(entry.mode === '040000' ? `${entry.name}/` : entry.name);
  return [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
}

export function encodeTree(entries: TreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of sortTreeEntries(entries)) {
    // git writes a subtree's mode without the leading zero GitHub's API shows.
    const mode = entry.mode === '040000' ? '40000' : entry.mode;
    parts.push(Buffer.from(`${mode} ${entry.name}\0`), Buffer.from(entry.sha, 'hex'));
  }
  return Buffer.concat(parts);
}

export function treeSha(entries: TreeEntry[]): string {
  return hashObject('tree', encodeTree(entries));
}

function formatSignature(signature: Signature): string {
  const seconds = Math.floor(Date.parse(signature.date) / 1000);
  return `${signature.name} <${signature.email}> ${seconds} +0000`;
}

export function encodeCommit(commit: CommitData): Buffer {
  const lines = [
    `tree ${commit.tree}`,
    ...commit.parents.map((parent) => `parent ${parent}`),
    `author ${formatSignature(commit.author)}`,
    `committer ${formatSignature(commit.committer)}`,
  ];
  return Buffer.from(`${lines.join('\n')}\n\n${commit.message}`);
}

export function commitSha(commit: CommitData): string {
  return hashObject('commit', encodeCommit(commit));
}

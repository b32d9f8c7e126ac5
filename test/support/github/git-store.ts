// Content-addressed object store for the GitHub stand-in: blobs, trees and commits keyed by their
// genuine git sha, plus the tree arithmetic GitHub's git data API performs (flatten, edit, rebuild).
import {
  blobSha,
  commitSha,
  sortTreeEntries,
  treeSha,
  type CommitData,
  type GitObject,
  type TreeEntry,
  type TreeMode,
} from './git-objects.js';

export interface FlatEntry {
  mode: TreeMode;
  sha: string;
}

export interface ListedEntry {
  path: string;
  mode: TreeMode;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size?: number;
}

export function entryType(mode: TreeMode): 'blob' | 'tree' | 'commit' {
  if (mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}

export class GitStore {
  private readonly objects = new Map<string, GitObject>();

  putBlob(content: Buffer): string {
    const sha = blobSha(content);
    this.objects.set(sha, { type: 'blob', content });
    return sha;
  }

  putTree(entries: TreeEntry[]): string {
    const sorted = sortTreeEntries(entries);
    const sha = treeSha(sorted);
    this.objects.set(sha, { type: 'tree', entries: sorted });
    return sha;
  }

  putCommit(data: CommitData): string {
    const sha = commitSha(data);
    this.objects.set(sha, { type: 'commit', data });
    return sha;
  }

  get(sha: string): GitObject | undefined {
    return this.objects.get(sha);
  }

  blob(sha: string): Buffer | undefined {
    const object = this.objects.get(sha);
    return object?.type === 'blob' ? object.content : undefined;
  }

  tree(sha: string): TreeEntry[] | undefined {
    const object = this.objects.get(sha);
    return object?.type === 'tree' ? object.entries : undefined;
  }

  commit(sha: string): CommitData | undefined {
    const object = this.objects.get(sha);
    return object?.type === 'commit' ? object.data : undefined;
  }

  /** Every non-tree entry under a tree, by full path. */
  flatten(rootSha: string, prefix = '', into = new Map<string, FlatEntry>()): Map<string, FlatEntry> {
    for (const entry of this.tree(rootSha) ?? []) {
      const path = prefix + entry.name;
      if (entry.mode === '040000') this.flatten(entry.sha, `${path}/`, into);
      else into.set(path, { mode: entry.mode, sha: entry.sha });
    }
    return into;
  }

  /** Builds (and stores) the nested trees for a flat path map; returns the root tree sha. */
  buildTree(files: Map<string, FlatEntry>): string {
    interface Dir {
      files: TreeEntry[];
      dirs: Map<string, Dir>;
    }
    const root: Dir = { files: [], dirs: new Map() };
    for (const [path, entry] of files) {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let child = dir.dirs.get(part);
        if (!child) dir.dirs.set(part, (child = { files: [], dirs: new Map() }));
        dir = child;
      }
      dir.files.push({ mode: entry.mode, name: parts[parts.length - 1], sha: entry.sha });
    }
    const write = (dir: Dir): string => {
      const entries = [...dir.files];
      for (const [name, child] of dir.dirs) entries.push({ mode: '040000', name, sha: write(child) });
      return this.putTree(entries);
    };
    return write(root);
  }

  /** `git ls-tree -r -t` order: each subtree listed before its contents. */
  listRecursive(rootSha: string, prefix = '', into: ListedEntry[] = []): ListedEntry[] {
    for (const entry of this.tree(rootSha) ?? []) {
      const path = prefix + entry.name;
      into.push(this.listed(path, entry));
      if (entry.mode === '040000') this.listRecursive(entry.sha, `${path}/`, into);
    }
    return into;
  }

  listed(path: string, entry: TreeEntry): ListedEntry {
    const type = entryType(entry.mode);
    const size = type === 'blob' ? this.blob(entry.sha)?.length : undefined;
    return { path, mode: entry.mode, type, sha: entry.sha, ...(size === undefined ? {} : { size }) };
  }

  /** The entry at a path inside a tree (a subtree too), or undefined. */
  entryAt(rootSha: string, path: string): TreeEntry | undefined {
    let entries = this.tree(rootSha);
    const parts = path.split('/').filter((part) => part !== '');
    let found: TreeEntry | undefined;
    for (const part of parts) {
      found = entries?.find((entry) => entry.name === part);
      if (!found) return undefined;
      entries = found.mode === '040000' ? this.tree(found.sha) : undefined;
    }
    return found;
  }

  isAncestor(ancestor: string, descendant: string): boolean {
    return this.ancestors(descendant).has(ancestor);
  }

  /** Every commit reachable from `sha`, itself included. */
  ancestors(sha: string): Set<string> {
    const seen = new Set<string>();
    const stack = [sha];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(this.commit(next)?.parents ?? []));
    }
    return seen;
  }

  /** Commits reachable from head but not from base, oldest first (what compare and a PR list). */
  commitsBetween(base: string, head: string): string[] {
    const excluded = this.ancestors(base);
    const result: string[] = [];
    const seen = new Set<string>();
    const visit = (sha: string): void => {
      if (seen.has(sha) || excluded.has(sha)) return;
      seen.add(sha);
      for (const parent of this.commit(sha)?.parents ?? []) visit(parent);
      result.push(sha);
    };
    visit(head);
    return result;
  }

  mergeBase(a: string, b: string): string | undefined {
    const fromA = this.ancestors(a);
    const queue = [b];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const sha = queue.shift()!;
      if (fromA.has(sha)) return sha;
      if (seen.has(sha)) continue;
      seen.add(sha);
      queue.push(...(this.commit(sha)?.parents ?? []));
    }
    return undefined;
  }
}

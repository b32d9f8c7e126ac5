// The repository archive GitHub's tarball endpoint serves (as `git archive --format=tar.gz` writes
// it): a pax global header whose comment is the commit sha, then every directory, file and symlink
// of the commit's tree under `<owner>-<repo>-<short sha>/`, gzipped.
import { gzipSync } from 'node:zlib';
import { Header, Pax } from 'tar';
import type { GitStore } from './git-store.js';

const BLOCK = 512;

function padded(body: Buffer): Buffer {
  const rest = body.length % BLOCK;
  return rest === 0 ? body : Buffer.concat([body, Buffer.alloc(BLOCK - rest)]);
}

type EntryType = 'Directory' | 'File' | 'SymbolicLink';

function entryBlocks(path: string, type: EntryType, mode: number, body: Buffer, linkpath?: string): Buffer[] {
  const fields = { path, type, mode, size: type === 'File' ? body.length : 0, mtime: new Date(0), linkpath };
  const header = Buffer.alloc(BLOCK);
  const needPax = new Header(fields).encode(header, 0);
  const pax = needPax ? [new Pax({ path, ...(linkpath ? { linkpath } : {}) }).encode()] : [];
  return [...pax, header, ...(type === 'File' ? [padded(body)] : [])];
}

export function tarball(git: GitStore, owner: string, repo: string, commitSha: string): Buffer {
  const root = `${owner}-${repo}-${commitSha.slice(0, 7)}/`;
  const blocks: Buffer[] = [
    new Pax({ comment: commitSha }, true).encode(),
    ...entryBlocks(root, 'Directory', 0o775, Buffer.alloc(0)),
  ];
  const dirs = new Set<string>();
  for (const [path, entry] of git.flatten(git.commit(commitSha)!.tree)) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      const dir = parts.slice(0, depth).join('/');
      if (dirs.has(dir)) continue;
      dirs.add(dir);
      blocks.push(...entryBlocks(`${root}${dir}/`, 'Directory', 0o775, Buffer.alloc(0)));
    }
    if (entry.mode === '160000') continue; // submodules are not in GitHub's archives
    const content = git.blob(entry.sha) ?? Buffer.alloc(0);
    if (entry.mode === '120000')
      blocks.push(...entryBlocks(`${root}${path}`, 'SymbolicLink', 0o777, Buffer.alloc(0), content.toString('utf8')));
    else blocks.push(...entryBlocks(`${root}${path}`, 'File', entry.mode === '100755' ? 0o775 : 0o664, content));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(BLOCK * 2)]));
}

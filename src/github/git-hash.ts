// git's own object hashing (blob and tree SHA-1s), so the edge can tell locally whether a write
// would change anything and skip the API calls when it would not.
import { createHash } from 'node:crypto';

export interface FlatTreeEntry {
  mode: string;
  sha: string;
}

function hashObject(type: string, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

export function gitBlobSha(text: string): string {
  return gitBlobShaOfBytes(Buffer.from(text, 'utf8'));
}

export function gitBlobShaOfBytes(bytes: Buffer): string {
  return hashObject('blob', bytes);
}

/** The root tree sha of a flat path → (mode, sha) map, computed as `git write-tree` would. */
export function gitTreeSha(files: Map<string, FlatTreeEntry>): string {
  interface Dir {
    entries: Array<{ mode: string; name: string; sha: string }>;
    dirs: Map<string, Dir>;
  }
  const root: Dir = { entries: [], dirs: new Map() };
  for (const [path, entry] of files) {
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let child = dir.dirs.get(part);
      if (!child) dir.dirs.set(part, (child = { entries: [], dirs: new Map() }));
      dir = child;
    }
    dir.entries.push({ mode: entry.mode, name: parts[parts.length - 1], sha: entry.sha });
  }
  const write = (dir: Dir): string => {
    const entries = [...dir.entries];
    for (const [name, child] of dir.dirs) entries.push({ mode: '40000', name, sha: write(child) });
    // git sorts a subtree by its name followed by '/'.
    const sortKey = (entry: { mode: string; name: string }): Buffer =>
      Buffer.from(entry.mode === '40000' ? `${entry.name}/` : entry.name);
    entries.sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
    const body = Buffer.concat(
      entries.flatMap((entry) => [
        Buffer.from(`${entry.mode.replace(/^0+/, '')} ${entry.name}\0`),
        Buffer.from(entry.sha, 'hex'),
      ]),
    );
    return hashObject('tree', body);
  };
  return write(root);
}

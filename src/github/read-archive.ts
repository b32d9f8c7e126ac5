// Many blobs of one commit in one call: the repository's tarball (GitHub's archive endpoint, a
// redirect to codeload), read as a stream and kept only for the files asked for. Each file's text
// is taken only when git's blob sha of its bytes is the sha the tree listed, so a push between the
// listing and the archive, `export-subst` or `export-ignore` in .gitattributes, or a cut archive can
// never pair a path with other content: what does not match is left for the blob API.
import { Parser, type ReadEntry } from 'tar';
import { gitBlobShaOfBytes } from './git-hash.js';
import { fileText } from '../core/model/index.js';
import type { GitHubClient, RepoRef } from './types.js';

export interface ArchiveRead {
  /** sha → text of the asked-for files whose archived bytes have the listed sha. */
  blobs: Map<string, string>;
  /** Why the archive was not read to the end, when it was not. */
  problem?: string;
}

/** Default bound on the archive's unpacked bytes read in one call (a repository is hostile input). */
export const ARCHIVE_MAX_BYTES = 256 * 1024 * 1024;

/** Path inside the repository of an archive entry: GitHub puts every file under `<owner>-<repo>-<sha>/`. */
function repositoryPath(entryPath: string): string {
  const slash = entryPath.indexOf('/');
  return slash < 0 ? '' : entryPath.slice(slash + 1);
}

class Collector {
  readonly blobs = new Map<string, string>();
  bytes = 0;
  problem: string | undefined;

  constructor(
    private readonly wanted: Map<string, string>,
    private readonly maxBytes: number,
  ) {}

  onEntry(entry: ReadEntry): void {
    this.bytes += entry.size ?? 0;
    if (this.bytes > this.maxBytes) this.problem ??= `archive larger than ${this.maxBytes} bytes unpacked`;
    const sha = this.wanted.get(repositoryPath(entry.path));
    if (this.problem || entry.type !== 'File' || sha === undefined || this.blobs.has(sha)) {
      entry.resume();
      return;
    }
    const chunks: Buffer[] = [];
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    entry.on('end', () => {
      const bytes = Buffer.concat(chunks);
      // The same decoding as a blob read through the API.
      if (gitBlobShaOfBytes(bytes) === sha) this.blobs.set(sha, fileText(bytes));
    });
  }
}

/**
 * Reads the asked-for files (path → listed blob sha) from the archive of `ref`. Never throws for
 * what GitHub or the archive does: a failed or cut read returns what it got and says why, and the
 * caller fetches the rest blob by blob.
 */
export async function readArchiveBlobs(
  octokit: GitHubClient,
  options: RepoRef & { ref: string; maxBytes?: number },
  wanted: Map<string, string>,
): Promise<ArchiveRead> {
  const collector = new Collector(wanted, options.maxBytes ?? ARCHIVE_MAX_BYTES);
  const parser = new Parser({ onReadEntry: (entry) => collector.onEntry(entry) });
  const done = new Promise<void>((resolve) => {
    parser.on('close', () => resolve());
    parser.on('error', (error: Error) => {
      collector.problem ??= `archive unreadable: ${error.message}`;
      resolve();
    });
  });
  try {
    const response = await octokit.request('GET /repos/{owner}/{repo}/tarball/{ref}', {
      owner: options.owner,
      repo: options.repo,
      ref: options.ref,
      request: { parseSuccessResponseBody: false },
    });
    const stream = response.data as unknown as AsyncIterable<Uint8Array>;
    for await (const chunk of stream) {
      parser.write(Buffer.from(chunk));
      if (collector.problem) break;
    }
  } catch (error) {
    collector.problem ??= `archive not read: ${(error as Error).message}`;
  }
  parser.end();
  await done;
  return { blobs: collector.blobs, ...(collector.problem ? { problem: collector.problem } : {}) };
}

// Shared shapes of the GitHub edge: the client type, a repository reference, the blob cache.
import type { Octokit } from '@octokit/rest';

/**
 * The part of `@octokit/rest`'s Octokit the edge uses. Narrowed to these members because Probot's
 * `context.octokit` (built from the same plugins, other type parameters) fits them but not the
 * whole class type.
 */
export type GitHubClient = Pick<Octokit, 'rest' | 'paginate' | 'hook' | 'request' | 'graphql'>;

export interface RepoRef {
  owner: string;
  repo: string;
}

/** git blob sha → text. Blobs are immutable, so a cached entry never goes stale. */
export interface BlobCache {
  get(shas: string[]): Promise<Map<string, string>>;
  put(blobs: Map<string, string>): Promise<void>;
}

/** An in-memory BlobCache, for the CLI and tests (the App uses its store). */
export function memoryBlobCache(): BlobCache & { size(): number } {
  const blobs = new Map<string, string>();
  return {
    async get(shas) {
      return new Map(shas.filter((sha) => blobs.has(sha)).map((sha) => [sha, blobs.get(sha)!]));
    },
    async put(entries) {
      for (const [sha, text] of entries) blobs.set(sha, text);
    },
    size: () => blobs.size,
  };
}

/** True for Octokit's RequestError with the given status. */
export function hasStatus(error: unknown, ...statuses: number[]): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && statuses.includes(status);
}

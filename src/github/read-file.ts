// Reads one file at a ref with the contents API (the config file): one call, absent → undefined.
import { hasStatus, type GitHubClient, type RepoRef } from './types.js';

export interface ReadFileOptions extends RepoRef {
  ref: string;
  path: string;
}

export async function readFileAt(octokit: GitHubClient, options: ReadFileOptions): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.repos.getContent({
      owner: options.owner,
      repo: options.repo,
      path: options.path,
      ref: options.ref,
    });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) {
      throw new Error(
        `${options.owner}/${options.repo}: ${options.path} at ${options.ref} is a ${Array.isArray(data) ? 'directory' : data.type}, expected a file`,
      );
    }
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if (hasStatus(error, 404)) return undefined;
    throw error;
  }
}

// Renders with what is at hand, then reads what the render showed it needs. The files a cluster's
// render read last time are fetched up front (all of them on a first run); a render that reads a
// file not fetched yet (a stand-in) is run again once that file is read, until none is missing. So
// an unchanged HEAD costs no blob read, and only what renders read is ever cached.
import type { GitHubClient } from '../../github/index.js';
import { readMore, standInsAmong, filesWithStandIns, type LoadedRepository } from '../repository.js';

/** Rounds before every remaining file is read at once (a render that keeps finding new files). */
const ROUNDS = 4;

export async function withFilesRead<T>(
  octokit: GitHubClient,
  loaded: LoadedRepository,
  compute: (files: ReadonlyMap<string, string>) => Promise<T>,
  readBy: (result: T) => readonly string[],
): Promise<T> {
  let result = await compute(filesWithStandIns(loaded));
  for (let round = 1; ; round++) {
    const missing = standInsAmong(loaded, readBy(result));
    if (missing.length === 0) return result;
    await readMore(octokit, loaded, round < ROUNDS ? missing : [...loaded.unread.keys()]);
    result = await compute(filesWithStandIns(loaded));
  }
}

// Renders with what is at hand, then reads what the render showed it needs. The files a cluster's
// render read last time are fetched up front (all of them on a first run, but files no manifest is);
// a render that reads a file not fetched yet (a stand-in) is run again once that file is read, until
// none is missing. So an unchanged HEAD costs no blob read, and only what renders read is ever cached.
// A pull request's plan reads its head and base commits so, together.
import type { GitHubClient } from '../github/index.js';
import { readMore, standInsAmong, filesWithStandIns, type LoadedRepository } from './repository.js';

/** Rounds before every remaining file is read at once (a render that keeps finding new files). */
const ROUNDS = 4;

export async function withFilesRead<T>(
  octokit: GitHubClient,
  loaded: LoadedRepository,
  compute: (files: ReadonlyMap<string, string>) => Promise<T>,
  readBy: (result: T) => readonly string[],
): Promise<T> {
  return withAllFilesRead(octokit, [loaded], ([files]) => compute(files!), readBy);
}

/** `compute` is given each repository's files, in the order of `all`; `readBy` the paths read in any of them. */
export async function withAllFilesRead<T>(
  octokit: GitHubClient,
  all: readonly LoadedRepository[],
  compute: (files: ReadonlyMap<string, string>[]) => Promise<T>,
  readBy: (result: T) => readonly string[],
): Promise<T> {
  let result = await compute(all.map(filesWithStandIns));
  for (let round = 1; ; round++) {
    const read = readBy(result);
    const missing = all.map((loaded) => standInsAmong(loaded, read));
    if (missing.every((paths) => paths.length === 0)) return result;
    for (const [index, loaded] of all.entries())
      await readMore(octokit, loaded, round < ROUNDS ? missing[index]! : [...loaded.unread.keys()]);
    result = await compute(all.map(filesWithStandIns));
  }
}

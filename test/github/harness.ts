// Shared setup for the GitHub edge tests: a stand-in seeded with a fixture repository and a
// retrying Octokit pointed at it with millisecond back-off.
import { createOctokit, type GitHubClient } from '../../src/github/index.js';
import { GitHubStandIn } from '../support/github/index.js';

export const OWNER = 'acme';
export const REPO = 'platform-gitops';
export const PREFIX = 'driftback/';
// Octokit logs every 4xx; the tests assert on outcomes instead.
const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export interface Harness {
  standIn: GitHubStandIn;
  octokit: GitHubClient;
  baseSha: string;
}

export async function startHarness(
  files: Map<string, string | Uint8Array> | Record<string, string | Uint8Array>,
  options: { retries?: number } = {},
): Promise<Harness> {
  const standIn = await GitHubStandIn.start();
  const baseSha = standIn.seedRepository({ owner: OWNER, repo: REPO, files });
  const octokit = createOctokit({
    baseUrl: standIn.baseUrl,
    auth: 'ghs_app',
    backoffUnitMs: 5,
    writeSpacingMs: 0,
    retries: options.retries ?? 3,
    log: QUIET,
  });
  return { standIn, octokit, baseSha };
}

export function manyFiles(count: number, dir = 'clusters/prod-eu'): Map<string, string> {
  const files = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    files.set(
      `${dir}/app-${String(index).padStart(3, '0')}.yaml`,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-${index}\ndata:\n  index: "${index}"\n`,
    );
  }
  return files;
}

// Installation-authenticated GitHub clients for the App. The installation of a repository is
// looked up once (GET /repos/{owner}/{repo}/installation) and its client kept, so a reconcile
// costs no extra call; every response is counted into /metrics with its route and status.
import type { Probot } from 'probot';
import { hasStatus, observeRequests, type GitHubClient } from '../github/index.js';
import { countGitHubRequest, recordRateLimitRemaining, type Metrics } from './metrics.js';

export interface InstallationClients {
  /** The client of the installation that covers `repository` (`owner/name`). Throws NotInstalledError. */
  forRepository(repository: string): Promise<GitHubClient>;
  /** Drops a cached client (the App was uninstalled, or the repository moved to another installation). */
  forget(repository: string): void;
}

export class NotInstalledError extends Error {
  constructor(readonly repository: string) {
    super(
      `the App is not installed on ${repository}: install it on the repository (or add the repository to the installation)`,
    );
    this.name = 'NotInstalledError';
  }
}

export interface InstallationClientsOptions {
  metrics?: Metrics;
}

/** Splits `owner/name`; anything else is a caller's bug, reported with the value. */
export function splitRepository(repository: string): { owner: string; repo: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository);
  if (!match) throw new Error(`expected a repository as owner/name, got "${repository}"`);
  return { owner: match[1], repo: match[2] };
}

function instrument(octokit: GitHubClient, options: InstallationClientsOptions): GitHubClient {
  const metrics = options.metrics;
  if (!metrics) return octokit;
  observeRequests(octokit, {
    onRequest: (route, status) => countGitHubRequest(metrics, route, status),
    onRateLimit: (remaining) => recordRateLimitRemaining(metrics, remaining),
  });
  return octokit;
}

/** One cache per running App (created by createApp), never module-level. */
export function createInstallationClients(app: Probot, options: InstallationClientsOptions = {}): InstallationClients {
  const clients = new Map<string, Promise<GitHubClient>>();
  let appClient: GitHubClient | undefined;
  const lookup = async (repository: string): Promise<GitHubClient> => {
    const { owner, repo } = splitRepository(repository);
    appClient ??= instrument((await app.auth()) as unknown as GitHubClient, options);
    try {
      const { data } = await appClient.rest.apps.getRepoInstallation({ owner, repo });
      return instrument((await app.auth(data.id)) as unknown as GitHubClient, options);
    } catch (error) {
      if (hasStatus(error, 404)) throw new NotInstalledError(repository);
      throw error;
    }
  };
  return {
    forRepository(repository) {
      const key = repository.toLowerCase();
      let client = clients.get(key);
      if (!client) {
        client = lookup(repository);
        clients.set(key, client);
        // A failed lookup is not cached: the next job asks again.
        client.catch(() => clients.delete(key));
      }
      return client;
    },
    forget(repository) {
      clients.delete(repository.toLowerCase());
    },
  };
}

// The App's Probot part: webhooks in, and the reconcile job they and the upload route enqueue.
// Everything comes in through `createApp`; nothing is kept at module level.
import type { Probot } from 'probot';
import type { AppIdentity } from '../../github/index.js';
import type { JobQueue, Store } from '../../store/types.js';
import { createInstallationClients, type InstallationClients } from '../github-client.js';
import type { Metrics } from '../metrics.js';
import type { JobHandler } from '../queue/index.js';
import { createReconcileHandler } from '../reconcile/job.js';
import { onInstallation, onPullRequestClosed, onPullRequestEvent, onPush } from './handlers.js';

export interface CreateAppOptions {
  store: Store;
  queue: JobQueue;
  metrics: Metrics;
  clock: () => Date;
  /** The App ID (APP_ID): GitHub names it as `performed_via_github_app` on what the App writes. */
  appId: number;
}

export interface DriftbackApp {
  clients: InstallationClients;
  /** Who the App is on GitHub: its id and bot login. */
  appIdentity: () => Promise<AppIdentity>;
  /** Queue handlers by queue name, for `queue.start`. */
  handlers: Record<string, JobHandler>;
}

/** `<slug>[bot]`, asked once; undefined when GitHub cannot say (the App's own commit list still works). */
function appLoginOf(app: Probot): () => Promise<string | undefined> {
  let login: Promise<string | undefined> | undefined;
  return () => {
    login ??= app.auth().then(async (octokit) => {
      const { data } = await octokit.rest.apps.getAuthenticated();
      return data?.slug ? `${data.slug}[bot]` : undefined;
    }).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not read the App\'s slug; its commits are recognised by sha only');
      login = undefined;
      return undefined;
    });
    return login;
  };
}

export function createApp(app: Probot, options: CreateAppOptions): DriftbackApp {
  const clients = createInstallationClients(app, { metrics: options.metrics });
  const deps = { store: options.store, queue: options.queue, clients, now: options.clock };
  app.on('push', onPush(deps));
  app.on(['installation.created', 'installation_repositories.added'], onInstallation(deps));
  app.on('pull_request', onPullRequestEvent(deps));
  app.on('pull_request.closed', onPullRequestClosed(deps));
  const appLogin = appLoginOf(app);
  const appIdentity = async (): Promise<AppIdentity> => {
    const login = await appLogin();
    return { appId: options.appId, ...(login ? { login } : {}) };
  };
  const reconcile = createReconcileHandler({
    store: options.store, clients, appIdentity, metrics: options.metrics, now: options.clock, log: app.log as never,
  });
  return { clients, appIdentity, handlers: { reconcile } };
}

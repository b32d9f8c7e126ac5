// The App in one file: every webhook it listens to, every HTTP route it serves beside Probot's own
// (/api/github/webhooks, /ping and, before registration, the setup page), every queue job and every
// schedule. start.ts builds the parts (store, queue, metrics, the Probot server) and hands them in;
// nothing is kept at module level, so a test can start as many Apps as it likes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Probot } from 'probot';
import type { AppIdentity } from '../github/index.js';
import type { Store } from '../store/types.js';
import { ALERTS_EVERY_SECONDS, createAlertsHandler } from './alerts/run-alerts.js';
import { appIdentityOf } from './app-identity.js';
import { snapshotAgeRefresher } from './dashboard/gauges.js';
import { givenUpHandlers } from './give-up.js';
import { createInstallationClients, type InstallationClients } from './github-client.js';
import { createRateLimiter } from './ingest/rate-limit.js';
import { createByteBudget } from './ingest/semaphore.js';
import { createUploadHandler } from './ingest/upload-route.js';
import type { Isolation } from './isolation/index.js';
import type { AppLogger } from './logger.js';
import { MAINTENANCE_EVERY_SECONDS, maintenanceHandler } from './maintenance.js';
import { countSnapshot, type Metrics } from './metrics.js';
import { createCommandHandler } from './commands/command-job.js';
import { COMMAND_COMMENT_ACTIONS, onCommentCommand } from './commands/comment-webhook.js';
import { createPlanHandler } from './plan/plan-job.js';
import { onPlanRequested, onPlanRerun, PLAN_PULL_REQUEST_ACTIONS } from './plan/webhooks.js';
import {
  ALERTS_QUEUE,
  COMMAND_QUEUE,
  MAINTENANCE_QUEUE,
  PLAN_QUEUE,
  RECONCILE_QUEUE,
  type JobQueue,
} from './queue/jobs.js';
import type { GiveUpHandler, JobHandler } from './queue/types.js';
import { createReconcileHandler } from './reconcile/job.js';
import { createMetricsHandler } from './routes.js';
import { onInstallation, onPullRequestClosed, onPullRequestEvent, onPush } from './webhooks/handlers.js';

export interface AppDeps {
  /** The Probot app: webhooks are subscribed on it, installation clients come from it. */
  probot: Probot;
  store: Store;
  queue: JobQueue;
  metrics: Metrics;
  now: () => Date;
  log: AppLogger;
  /** The job workers every render and template override runs in (start.ts makes them, and stops them last). */
  isolation: Isolation;
}

/** What the environment decides (DESIGN.md "App environment"). */
export interface AppSettings {
  /** APP_ID: GitHub names it as `performed_via_github_app` on what the App writes. */
  appId: number;
  /** DRIFTBACK_TOKEN_SECRET; unset = uploads are refused. */
  tokenSecret?: string;
  maxSnapshotBytes: number;
  uploadsPerMinute: number;
  ingestConcurrency: number;
  /** Default 64 MiB. */
  ingestMemoryBytes?: number;
  /** DRIFTBACK_TRUST_PROXY: reverse proxies in front of the App whose X-Forwarded-For is believed. */
  proxyHops?: number;
  /** METRICS_TOKEN; unset = /metrics is open. */
  metricsToken?: string;
}

/** A route answers a request it owns (and returns true) or passes it on (false). */
export type Route = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface DriftbackApp {
  clients: InstallationClients;
  /** Who the App is on GitHub: its id and bot login. */
  appIdentity: () => Promise<AppIdentity>;
  routes: Route[];
  /** Queue handlers by queue name, for `queue.start`. */
  jobs: Record<string, JobHandler>;
  /** What each queue records when one of its jobs is given up. */
  givenUp: Record<string, GiveUpHandler>;
  /** Jobs run every `everySeconds`, once across replicas: `queue.schedule` before `queue.start`. */
  schedules: Array<{ queue: string; everySeconds: number }>;
}

/** Failed authentications one client address, or one claimed cluster, may cause per minute (and at once) before 429. */
const FAILED_AUTHENTICATIONS_PER_MINUTE = 10;

type JobDeps = Pick<AppDeps, 'store' | 'queue' | 'metrics' | 'now' | 'log' | 'isolation'> & {
  clients: InstallationClients;
  appIdentity: DriftbackApp['appIdentity'];
};

/** Webhooks: what each GitHub event starts. */
function subscribe(probot: AppDeps['probot'], jobDeps: JobDeps): void {
  const { store, queue, clients, now, log } = jobDeps;
  const webhookDeps = { store, queue, clients, now };
  probot.on('push', onPush(webhookDeps));
  probot.on(['installation.created', 'installation_repositories.added'], onInstallation(webhookDeps));
  probot.on('pull_request', onPullRequestEvent(webhookDeps));
  probot.on('pull_request.closed', onPullRequestClosed(webhookDeps));
  probot.on([...PLAN_PULL_REQUEST_ACTIONS], onPlanRequested(jobDeps));
  probot.on('check_run.rerequested', onPlanRerun(jobDeps));
  probot.on([...COMMAND_COMMENT_ACTIONS], onCommentCommand({ store, queue, now, log }));
}

/** HTTP routes: POST /api/v1/snapshots, GET /api/v1/clusters/<owner>/<repo>/<cluster>, GET /metrics. */
function routesOf(deps: AppDeps, settings: AppSettings): Route[] {
  const { store, queue, metrics, now, log } = deps;
  const ingestMemory = settings.ingestMemoryBytes ?? 64 * 1024 * 1024;
  return [
    createUploadHandler({
      store,
      queue,
      now,
      log,
      tokenSecret: settings.tokenSecret,
      maxSnapshotBytes: settings.maxSnapshotBytes,
      rateLimiter: createRateLimiter(settings.uploadsPerMinute),
      failures: createRateLimiter(FAILED_AUTHENTICATIONS_PER_MINUTE, FAILED_AUTHENTICATIONS_PER_MINUTE),
      proxyHops: settings.proxyHops,
      bodyReads: createByteBudget(ingestMemory, settings.ingestConcurrency * 2),
      parsing: createByteBudget(ingestMemory, settings.ingestConcurrency),
      onSnapshot: (result) => countSnapshot(metrics, result),
    }),
    createMetricsHandler(metrics, snapshotAgeRefresher(metrics, store, now), settings.metricsToken),
  ];
}

/** Queue jobs, by queue. */
function jobsOf(jobDeps: JobDeps): Record<string, JobHandler> {
  const { store, clients, appIdentity, metrics, now, log, isolation } = jobDeps;
  return {
    [RECONCILE_QUEUE]: createReconcileHandler({ store, clients, appIdentity, metrics, now, log, isolation }),
    [PLAN_QUEUE]: createPlanHandler(jobDeps),
    [COMMAND_QUEUE]: createCommandHandler(jobDeps),
    [ALERTS_QUEUE]: createAlertsHandler(jobDeps),
    [MAINTENANCE_QUEUE]: maintenanceHandler({ store, now, log }),
  };
}

export function createApp(deps: AppDeps, settings: AppSettings): DriftbackApp {
  const { probot, store, queue, metrics, now, log, isolation } = deps;
  const clients = createInstallationClients(probot, { metrics });
  const appIdentity = appIdentityOf(probot, settings.appId);
  const jobDeps = { store, queue, clients, appIdentity, metrics, now, log, isolation };
  subscribe(probot, jobDeps);
  const routes = routesOf(deps, settings);
  const jobs = jobsOf(jobDeps);
  const schedules = [
    { queue: ALERTS_QUEUE, everySeconds: ALERTS_EVERY_SECONDS },
    { queue: MAINTENANCE_QUEUE, everySeconds: MAINTENANCE_EVERY_SECONDS },
  ];
  const givenUp = givenUpHandlers({ store, clients, appIdentity, now });
  return { clients, appIdentity, routes, jobs, givenUp, schedules };
}

// Assembles and starts the App: store, queue, Probot server with webhooks, the upload API and
// /metrics. Everything it builds is returned so `stop()` can shut it down in order.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DestinationStream } from 'pino';
import type { Probot as ProbotClass, ProbotOctokit, Server as ServerClass, ApplicationFunctionOptions } from 'probot';
import type { AppEnv } from './env.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/types.js';
import { createLogger } from './logger.js';
import { locateHelm } from '../helm/locate.js';
import { createMetrics, type Metrics } from './metrics.js';
import { AppOctokit } from './app-octokit.js';
import { createQueue } from './queue/create-queue.js';
import type { JobQueue } from './queue/jobs.js';
import type { GiveUpHandler, JobHandler } from './queue/types.js';
import { createApp } from './wiring.js';
import { createIsolation } from './isolation/index.js';

export interface ProbotClasses {
  Probot: typeof ProbotClass;
  Server: typeof ServerClass;
}

export interface Running {
  log: ProbotClass['log'];
  server: ServerClass;
  store: Store;
  queue: JobQueue;
  metrics: Metrics;
  port: number;
  stop(): Promise<void>;
}

export interface StartOverrides {
  store?: Store;
  /** Octokit options for tests (e.g. a stand-in's baseUrl). */
  request?: Record<string, unknown>;
  /** Probot's Octokit class, e.g. with throttling spacing removed for tests. */
  Octokit?: typeof ProbotOctokit;
  now?: () => Date;
  /** Where log lines go (default stdout), e.g. to read them in a test. */
  logDestination?: DestinationStream;
}

export async function startDriftback(
  env: AppEnv,
  classes: ProbotClasses,
  overrides: StartOverrides = {},
): Promise<Running> {
  // readAppEnv refuses this too; checked here for every other way in (tests, embedding).
  if (env.appId && !env.webhookSecret)
    throw new Error('APP_ID is set but WEBHOOK_SECRET is not: set the webhook secret of the App settings page');
  const server = await probotServer(env, classes, overrides);
  const store = overrides.store ?? (await openStore({ dataDir: env.dataDir, databaseUrl: env.databaseUrl }));
  const metrics = createMetrics();
  const isolation = createIsolation(env.jobLimits);
  const now = overrides.now ?? (() => new Date());
  const loaded = await loadApp(server, env, { store, metrics, isolation, now });
  const { log, queue } = loaded;
  if (!env.tokenSecret) log.warn('DRIFTBACK_TOKEN_SECRET is not set: snapshot uploads are refused until it is');
  logHelm(log);
  await queue.start(loaded.jobs, loaded.givenUp);
  const httpServer = await server.start();
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : env.port;

  return {
    log,
    server,
    store,
    queue,
    metrics,
    port,
    // Stops taking webhooks and uploads first, then lets a running reconcile finish (or hands it
    // back to the durable queue), then closes the store.
    async stop() {
      await server.stop();
      await queue.stop(20_000);
      await isolation.stop();
      await store.close();
    },
  };
}

/** Probot's Server with the App's defaults: credentials (or none yet), the GitHub URL, the logger. */
async function probotServer(env: AppEnv, classes: ProbotClasses, overrides: StartOverrides): Promise<ServerClass> {
  const { Probot, Server } = classes;
  const ProbotWithDefaults = Probot.defaults({
    appId: env.appId ?? 1,
    privateKey: env.privateKey ?? 'unused until the App is registered',
    // Before registration no webhook is genuine: a random secret refuses them all (Probot's
    // documented default is public).
    secret: env.webhookSecret ?? randomBytes(32).toString('hex'),
    baseUrl: env.githubBaseUrl,
    logLevel: env.logLevel as 'info',
    Octokit: overrides.Octokit ?? AppOctokit,
  });
  const host = env.host ?? 'localhost';
  // Probot's Server reads port 0 as 3000, so an ephemeral port is picked here; and it builds its own
  // logger at info (ignoring Probot's logLevel) unless handed one, so the logger is made here too.
  const listenPort = env.port === 0 ? await ephemeralPort(host) : env.port;
  return new Server({
    Probot: ProbotWithDefaults,
    host,
    port: listenPort,
    log: createLogger(env.logLevel, overrides.logDestination),
    request: overrides.request as never,
  });
}

interface Loaded {
  log: ProbotClass['log'];
  queue: JobQueue;
  jobs: Record<string, JobHandler>;
  givenUp: Record<string, GiveUpHandler>;
}

/** The App loaded into Probot: its webhooks, routes, queue schedules and job handlers. */
async function loadApp(
  server: ServerClass,
  env: AppEnv,
  parts: Pick<Parameters<typeof createApp>[0], 'store' | 'metrics' | 'isolation' | 'now'>,
): Promise<Loaded> {
  let loaded!: Loaded;
  await server.load(async (app: ProbotClass, { addHandler }: ApplicationFunctionOptions) => {
    const queue = createQueue({ store: parts.store, logger: app.log });
    const driftback = createApp({ ...parts, probot: app, queue, log: app.log }, appSettings(env));
    for (const route of driftback.routes) addHandler(route);
    for (const { queue: name, everySeconds } of driftback.schedules) await queue.schedule(name, everySeconds);
    loaded = { log: app.log, queue, jobs: driftback.jobs, givenUp: driftback.givenUp };
    if (!(env.appId && env.privateKey)) {
      app.log.warn(
        'APP_ID and PRIVATE_KEY are not set: open this server in a browser to register the App on GitHub from app.yml',
      );
      addHandler(await loadProbotSetup(app, env, server));
    }
  });
  return loaded;
}

function appSettings(env: AppEnv): Parameters<typeof createApp>[1] {
  return {
    appId: env.appId ?? 1,
    tokenSecret: env.tokenSecret,
    maxSnapshotBytes: env.maxSnapshotBytes,
    uploadsPerMinute: env.uploadsPerMinute,
    ingestConcurrency: env.ingestConcurrency,
    ingestMemoryBytes: env.ingestMemoryBytes,
    proxyHops: env.proxyHops,
    metricsToken: env.metricsToken,
  };
}

/** The Helm the job workers render charts with, or why charts are reported, not rendered. */
function logHelm(log: ProbotClass['log']): void {
  const helm = locateHelm();
  if (helm.found) log.info(`Helm ${helm.helm.version} at ${helm.helm.path}: Helm charts are rendered with it`);
  else log.warn(`${helm.reason}: Helm charts are reported, not rendered`);
}

/** A port free on `host` right now, from the OS (listen on 0, read it, close). */
async function ephemeralPort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, host, resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Probot's own setup page (the manifest flow from app.yml); it lives beside Probot's entry point. */
async function loadProbotSetup(app: ProbotClass, env: AppEnv, server: ServerClass) {
  const probotEntry = fileURLToPath(import.meta.resolve('probot'));
  const setupUrl = pathToFileURL(join(dirname(probotEntry), 'apps', 'setup.js')).href;
  const { setupAppFactory } = (await import(setupUrl)) as {
    setupAppFactory: (options: {
      host: string;
      port: number;
      log: unknown;
    }) => () => Promise<(req: unknown, res: unknown) => unknown>;
  };
  const handler = await setupAppFactory({
    host: env.host ?? 'localhost',
    port: env.port || server.port,
    log: app.log.child({ name: 'setup' }),
  })();
  return handler as never;
}

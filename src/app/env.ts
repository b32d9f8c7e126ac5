// The App's environment: Probot's own variables plus driftback's (DESIGN.md "App environment").
import { z } from 'zod';
import { resolve } from 'node:path';
import { tokenSecretProblem } from '../core/token/index.js';
import { readPrivateKey } from './private-key.js';
import { DEFAULT_JOB_LIMITS, type JobLimits } from './isolation/index.js';
import {
  DEFAULT_MAX_RENDER_BYTES,
  DEFAULT_MAX_RENDER_DOCUMENTS,
  DEFAULT_MAX_RENDER_NODES,
} from '../core/manifests/index.js';

const schema = z.object({
  APP_ID: z.string().regex(/^\d+$/, 'APP_ID must be the numeric App ID from the App settings page').optional(),
  PRIVATE_KEY: z.string().optional(),
  PRIVATE_KEY_PATH: z.string().optional(),
  WEBHOOK_SECRET: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().optional(),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  GHE_HOST: z.string().optional(),
  GHE_PROTOCOL: z.string().default('https'),
  DRIFTBACK_TOKEN_SECRET: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** Bearer token GET /metrics requires; unset = open (a single-tenant App behind its own network). */
  METRICS_TOKEN: z.string().min(1).optional(),
  /** Largest snapshot accepted, decompressed. Default 64 MiB. */
  MAX_SNAPSHOT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /** Uploads allowed per cluster per minute before 429. Default 6. */
  DRIFTBACK_UPLOADS_PER_MINUTE: z.coerce.number().int().positive().default(6),
  /** Snapshots parsed at once; the rest wait (bounds memory under bursts). Default 4. */
  DRIFTBACK_INGEST_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /**
   * Reverse proxies in front of the App whose X-Forwarded-For entries are believed (for the
   * failed-authentication limit): false (none, the default), true (one), or how many.
   */
  DRIFTBACK_TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2})$/,
      'DRIFTBACK_TRUST_PROXY must be false, true, or the number of proxies in front of the App (e.g. 2)',
    )
    .default('false'),
  /** Bytes of snapshot JSON inflated and parsed at once; a larger one runs alone. Default 64 MiB. */
  DRIFTBACK_INGEST_MEMORY: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /** Seconds one job's renders may take (head and base, every source and file). Default 60. */
  DRIFTBACK_JOB_TIME_LIMIT: z.coerce
    .number()
    .positive()
    .default(DEFAULT_JOB_LIMITS.timeMs / 1000),
  /** MiB of heap the worker running one job may use. Default 320. */
  DRIFTBACK_JOB_MEMORY: z.coerce.number().int().min(32).default(DEFAULT_JOB_LIMITS.memoryMb),
  /** MiB a job's result may take, serialized. Default 32. */
  DRIFTBACK_JOB_OUTPUT: z.coerce
    .number()
    .positive()
    .default(DEFAULT_JOB_LIMITS.outputBytes / 1024 / 1024),
  /** Job workers at once (one installation uses all but one). Default 2. */
  DRIFTBACK_JOB_WORKERS: z.coerce.number().int().min(1).max(64).default(DEFAULT_JOB_LIMITS.workers),
  /** Seconds a repository's template override may take to render. Default 10. */
  DRIFTBACK_TEMPLATE_TIME_LIMIT: z.coerce
    .number()
    .positive()
    .default(DEFAULT_JOB_LIMITS.templateTimeMs / 1000),
  /** YAML nodes one job may read, in all. Default 5,000,000. */
  DRIFTBACK_RENDER_MAX_NODES: z.coerce.number().int().positive().default(DEFAULT_MAX_RENDER_NODES),
  /** Documents one job may read, in all. Default 200,000. */
  DRIFTBACK_RENDER_MAX_DOCUMENTS: z.coerce.number().int().positive().default(DEFAULT_MAX_RENDER_DOCUMENTS),
  /** MiB of files one job may read, in all. Default 512. */
  DRIFTBACK_RENDER_MAX_MB: z.coerce
    .number()
    .positive()
    .default(DEFAULT_MAX_RENDER_BYTES / 1024 / 1024),
});

export interface AppEnv {
  appId?: number;
  privateKey?: string;
  webhookSecret?: string;
  port: number;
  host?: string;
  logLevel: string;
  githubBaseUrl: string;
  tokenSecret?: string;
  dataDir: string;
  databaseUrl?: string;
  metricsToken?: string;
  maxSnapshotBytes: number;
  uploadsPerMinute: number;
  ingestConcurrency: number;
  /** Default 64 MiB. */
  ingestMemoryBytes?: number;
  /** Reverse proxies in front of the App: the client address is their X-Forwarded-For entry. Default 0. */
  proxyHops?: number;
  /** The limits every job runs under. Default DEFAULT_JOB_LIMITS. */
  jobLimits?: JobLimits;
}

/**
 * The rules between variables. A registered App (APP_ID) verifies webhooks with its own secret:
 * without one, Probot would check signatures against a secret anyone can read in its source.
 */
function credentialProblems(e: z.infer<typeof schema>, privateKey: string | undefined): string[] {
  const problems: string[] = [];
  if (e.APP_ID && !e.WEBHOOK_SECRET) {
    problems.push(
      'WEBHOOK_SECRET: APP_ID is set but WEBHOOK_SECRET is not: set it to the webhook secret of the App settings page (or a new one from `openssl rand -hex 32`, saved there too)',
    );
  }
  if (e.APP_ID && !privateKey) {
    problems.push(
      'PRIVATE_KEY: APP_ID is set but no private key is: set PRIVATE_KEY_PATH to the .pem file from the App settings page, or PRIVATE_KEY to its text',
    );
  }
  if (e.DRIFTBACK_TOKEN_SECRET !== undefined) {
    const problem = tokenSecretProblem(e.DRIFTBACK_TOKEN_SECRET);
    if (problem) problems.push(`DRIFTBACK_TOKEN_SECRET: ${problem}`);
  }
  return problems;
}

/** Reads the environment; throws one message listing every variable that is wrong. */
export function readAppEnv(env: NodeJS.ProcessEnv, cwd = process.cwd()): AppEnv {
  const parsed = schema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  let privateKey: string | undefined;
  try {
    privateKey = readPrivateKey(env, cwd)?.key;
  } catch (error) {
    problems.push(`${env.PRIVATE_KEY ? 'PRIVATE_KEY' : 'PRIVATE_KEY_PATH'}: ${(error as Error).message}`);
  }
  if (parsed.success) problems.push(...credentialProblems(parsed.data, privateKey));
  if (problems.length > 0 || !parsed.success) throw new Error('invalid environment: ' + problems.join('; '));
  const e = parsed.data;
  return {
    appId: e.APP_ID ? Number(e.APP_ID) : undefined,
    privateKey,
    webhookSecret: e.WEBHOOK_SECRET,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    githubBaseUrl: e.GHE_HOST ? `${e.GHE_PROTOCOL}://${e.GHE_HOST}/api/v3` : 'https://api.github.com',
    tokenSecret: e.DRIFTBACK_TOKEN_SECRET,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    metricsToken: e.METRICS_TOKEN,
    maxSnapshotBytes: e.MAX_SNAPSHOT_BYTES,
    uploadsPerMinute: e.DRIFTBACK_UPLOADS_PER_MINUTE,
    ingestConcurrency: e.DRIFTBACK_INGEST_CONCURRENCY,
    ingestMemoryBytes: e.DRIFTBACK_INGEST_MEMORY,
    proxyHops: proxyHopsOf(e.DRIFTBACK_TRUST_PROXY),
    jobLimits: jobLimitsOf(e),
  };
}

function jobLimitsOf(e: z.infer<typeof schema>): JobLimits {
  return {
    timeMs: Math.round(e.DRIFTBACK_JOB_TIME_LIMIT * 1000),
    memoryMb: e.DRIFTBACK_JOB_MEMORY,
    outputBytes: Math.round(e.DRIFTBACK_JOB_OUTPUT * 1024 * 1024),
    templateTimeMs: Math.round(e.DRIFTBACK_TEMPLATE_TIME_LIMIT * 1000),
    workers: e.DRIFTBACK_JOB_WORKERS,
    render: {
      maxNodes: e.DRIFTBACK_RENDER_MAX_NODES,
      maxDocuments: e.DRIFTBACK_RENDER_MAX_DOCUMENTS,
      maxBytes: Math.round(e.DRIFTBACK_RENDER_MAX_MB * 1024 * 1024),
    },
  };
}

function proxyHopsOf(value: string): number {
  if (value === 'true') return 1;
  if (value === 'false') return 0;
  return Number(value);
}

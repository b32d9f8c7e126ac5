// The agent's settings, from the environment a CronJob gives it (or from CLI flags). Every
// problem is collected and reported at once, each naming the variable and what to set.
import { parseDuration } from '../core/config/schema.js';
import type { SecretsMode, SnapshotScope } from './types.js';

export interface RunLimits {
  /** Whole run, listing and upload, in milliseconds (DRIFTBACK_DEADLINE, default 10m). */
  deadlineMs: number;
  /** Items per list request (DRIFTBACK_PAGE_SIZE, default 500). */
  pageSize: number;
  /** One request to the API server or the App, in milliseconds (DRIFTBACK_REQUEST_TIMEOUT, default 30s). */
  requestTimeoutMs: number;
}

export interface AgentSettings extends RunLimits {
  url: URL;
  token?: string;
  tokenFile?: string;
  repository: string;
  cluster: string;
  scope: SnapshotScope;
  hashKey?: string;
  hashKeyFile?: string;
  /** Where the gzip body is spooled before upload (DRIFTBACK_SPOOL_DIR, default the OS temp dir). */
  spoolDir?: string;
}

export type SettingsResult<T> = { type: 'ok'; settings: T } | { type: 'invalid'; problems: string[] };

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const CLUSTER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[,\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

export function parseSecretsMode(text: string | undefined, problems: string[], name: string): SecretsMode {
  const value = (text ?? 'hash').trim() || 'hash';
  if (value === 'hash' || value === 'omit') return value;
  problems.push(`${name}=${value}: expected hash (Secret values replaced by a keyed hash) or omit (Secrets left out)`);
  return 'hash';
}

export function checkRepository(value: string | undefined, name: string, problems: string[]): string {
  if (!value) problems.push(`${name} is not set: set it to the repository's owner/name, e.g. acme/platform-gitops`);
  else if (!REPOSITORY.test(value)) problems.push(`${name}=${value}: expected owner/name, e.g. acme/platform-gitops`);
  return value ?? '';
}

export function checkCluster(value: string | undefined, name: string, problems: string[]): string {
  if (!value) problems.push(`${name} is not set: set it to the cluster's name in .github/driftback.yml, e.g. prod-eu`);
  else if (!CLUSTER.test(value))
    problems.push(`${name}=${value}: expected letters, digits, ".", "_" or "-" (at most 63)`);
  return value ?? '';
}

function duration(text: string | undefined, name: string, fallbackSeconds: number, problems: string[]): number {
  if (!text) return fallbackSeconds * 1000;
  const seconds = parseDuration(text);
  if (seconds === undefined || seconds <= 0) {
    problems.push(`${name}=${text}: expected a duration like 30s, 10m or 1h`);
    return fallbackSeconds * 1000;
  }
  return seconds * 1000;
}

export function parseLimits(env: NodeJS.ProcessEnv, problems: string[]): RunLimits {
  const pageText = env.DRIFTBACK_PAGE_SIZE;
  const pageSize = pageText ? Number(pageText) : 500;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 10_000)
    problems.push(`DRIFTBACK_PAGE_SIZE=${pageText}: expected a whole number from 1 to 10000`);
  return {
    deadlineMs: duration(env.DRIFTBACK_DEADLINE, 'DRIFTBACK_DEADLINE', 600, problems),
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 ? pageSize : 500,
    requestTimeoutMs: duration(env.DRIFTBACK_REQUEST_TIMEOUT, 'DRIFTBACK_REQUEST_TIMEOUT', 30, problems),
  };
}

/** Reads `driftback agent`'s environment. */
export function parseAgentEnv(env: NodeJS.ProcessEnv): SettingsResult<AgentSettings> {
  const problems: string[] = [];
  let url: URL | undefined;
  if (!env.DRIFTBACK_URL)
    problems.push("DRIFTBACK_URL is not set: set it to the App's base URL, e.g. https://driftback.example.com");
  else {
    try {
      url = new URL(env.DRIFTBACK_URL);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    } catch {
      problems.push(
        `DRIFTBACK_URL=${env.DRIFTBACK_URL}: expected an http(s) URL such as https://driftback.example.com`,
      );
    }
  }
  if (!env.DRIFTBACK_TOKEN && !env.DRIFTBACK_TOKEN_FILE) {
    problems.push(
      'DRIFTBACK_TOKEN is not set: create it with `driftback token --repository <owner/name> --cluster <name>` and store it in the driftback-token Secret',
    );
  }
  const repository = checkRepository(env.DRIFTBACK_REPOSITORY, 'DRIFTBACK_REPOSITORY', problems);
  const cluster = checkCluster(env.DRIFTBACK_CLUSTER, 'DRIFTBACK_CLUSTER', problems);
  const secrets = parseSecretsMode(env.DRIFTBACK_SECRETS, problems, 'DRIFTBACK_SECRETS');
  const limits = parseLimits(env, problems);
  if (problems.length > 0 || !url) return { type: 'invalid', problems };
  return {
    type: 'ok',
    settings: {
      ...limits,
      url,
      token: env.DRIFTBACK_TOKEN?.trim() || undefined,
      tokenFile: env.DRIFTBACK_TOKEN_FILE || undefined,
      repository,
      cluster,
      scope: {
        namespaces: splitList(env.DRIFTBACK_NAMESPACES),
        labelSelector: env.DRIFTBACK_LABEL_SELECTOR?.trim() || undefined,
        include: splitList(env.DRIFTBACK_INCLUDE),
        exclude: splitList(env.DRIFTBACK_EXCLUDE),
        secrets,
      },
      hashKey: env.DRIFTBACK_HASH_KEY || undefined,
      hashKeyFile: env.DRIFTBACK_HASH_KEY_FILE || undefined,
      spoolDir: env.DRIFTBACK_SPOOL_DIR || undefined,
    },
  };
}

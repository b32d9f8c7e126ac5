// Starts the real App (Probot, SQLite store and queue in a temp DATA_DIR, a generated RSA key)
// against the GitHub stand-in, and talks to it as GitHub and agents do: signed webhooks with the
// fixture payloads, snapshot uploads with real tokens. It can stop the App and start a new one on
// the same data directory, as a restart would.
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot, ProbotOctokit, Server } from 'probot';
import type { AppEnv } from '../../src/app/env.js';
import { startDriftback, type Running, type StartOverrides } from '../../src/app/start.js';
import { deriveToken } from '../../src/core/token/index.js';
import { GitHubStandIn } from './github/index.js';
import { readFixture } from './fixtures.js';
import { sqliteOf } from './sqlite-file.js';

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
export const WEBHOOK_SECRET = 'webhook-secret';
export const TOKEN_SECRET = 'test-token-secret-0123456789abcdef0123';

// GitHub's write spacing (1 s between writes) would make every scenario take seconds; the stand-in
// has no secondary limits. Retries stay off so an injected fault reaches the queue's own retry.
// (The function form: Probot passes `throttle: undefined` along, which would undo an object default.)
const TestOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  throttle: { enabled: false },
  retry: { enabled: false },
}));

/**
 * The App's environment in a test: the generated key and the webhook secret, GitHub at `githubBaseUrl`,
 * state in `dataDir`, logs at DRIFTBACK_TEST_LOG's level (else silent); `changes` replace any of it.
 */
export function testAppEnv(githubBaseUrl: string, dataDir: string, changes: Partial<AppEnv> = {}): AppEnv {
  return {
    appId: 1,
    privateKey,
    webhookSecret: WEBHOOK_SECRET,
    port: 0,
    host: '127.0.0.1',
    logLevel: process.env.DRIFTBACK_TEST_LOG ?? 'silent',
    githubBaseUrl,
    tokenSecret: TOKEN_SECRET,
    dataDir,
    maxSnapshotBytes: 8 * 1024 * 1024,
    uploadsPerMinute: 1000,
    ingestConcurrency: 2,
    ...changes,
  };
}

/** Starts the App on `env` with GitHub's write spacing and retries off (see TestOctokit). */
export function startTestApp(env: AppEnv, overrides: Omit<StartOverrides, 'Octokit'> = {}): Promise<Running> {
  return startDriftback(env, { Probot, Server }, { Octokit: TestOctokit, ...overrides });
}

export interface AppHarnessOptions {
  owner?: string;
  repo?: string;
  files: Record<string, string> | Map<string, string>;
  now?: () => Date;
  maxSnapshotBytes?: number;
  uploadsPerMinute?: number;
  /** Replaces parts of the App's environment (e.g. a key read by readAppEnv). */
  env?: Partial<AppEnv>;
  /** Where the App's log lines go (default: the level in DRIFTBACK_TEST_LOG, else silent). */
  logDestination?: StartOverrides['logDestination'];
}

export interface AppHarness {
  standIn: GitHubStandIn;
  app: Running;
  owner: string;
  repo: string;
  repository: string;
  dataDir: string;
  baseUrl: string;
  /** Stops the App (jobs finish or are handed back) and starts a new one on the same DATA_DIR. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startAppHarness(options: AppHarnessOptions): Promise<AppHarness> {
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'platform-gitops';
  const standIn = await GitHubStandIn.start(options.now ? { now: options.now } : {});
  standIn.seedRepository({ owner, repo, files: options.files });
  const dataDir = mkdtempSync(join(tmpdir(), 'driftback-reconcile-'));
  const env = testAppEnv(standIn.baseUrl, dataDir, {
    ...(options.maxSnapshotBytes !== undefined ? { maxSnapshotBytes: options.maxSnapshotBytes } : {}),
    ...(options.uploadsPerMinute !== undefined ? { uploadsPerMinute: options.uploadsPerMinute } : {}),
    ...options.env,
  });
  const start = () =>
    startTestApp(env, {
      ...(options.now ? { now: options.now } : {}),
      ...(options.logDestination ? { logDestination: options.logDestination } : {}),
    });
  const harness: AppHarness = {
    standIn,
    owner,
    repo,
    repository: `${owner}/${repo}`,
    dataDir,
    app: await start(),
    baseUrl: '',
    async restart() {
      await harness.app.stop();
      harness.app = await start();
      harness.baseUrl = `http://127.0.0.1:${harness.app.port}`;
    },
    async close() {
      await harness.app.stop();
      await standIn.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  harness.baseUrl = `http://127.0.0.1:${harness.app.port}`;
  return harness;
}

/**
 * Jobs not finished yet: every reconcile job (pending, running, or waiting for a retry), and other
 * jobs due now (scheduled ones further out are not waited for).
 */
export function jobsLeft(harness: AppHarness, queue?: string): number {
  const db = sqliteOf(harness.app.store);
  if (queue) return (db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE queue = ?').get(queue) as { n: number }).n;
  return (
    db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE queue = 'reconcile' OR run_at <= ?`).get(Date.now() + 1000) as {
      n: number;
    }
  ).n;
}

/** Resolves once the queue is empty (polls; no fixed sleeps). */
export async function drain(harness: AppHarness, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (jobsLeft(harness) > 0) {
    if (Date.now() > deadline) throw new Error(`the queue did not drain within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function sendWebhook(
  harness: Pick<AppHarness, 'baseUrl'>,
  event: string,
  payload: unknown,
  secret = WEBHOOK_SECRET,
): Promise<number> {
  const body = JSON.stringify(payload);
  const signature = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
  const response = await fetch(`${harness.baseUrl}/api/github/webhooks`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signature,
    },
  });
  await response.text();
  return response.status;
}

export function tokenFor(repository: string, cluster: string): string {
  return deriveToken(TOKEN_SECRET, repository, cluster);
}

export interface UploadResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs a body to the upload route; `token` defaults to the snapshot's own cluster token. */
export async function postSnapshot(
  harness: AppHarness,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<UploadResponse> {
  const response = await fetch(`${harness.baseUrl}/api/v1/snapshots`, { method: 'POST', body, headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** The headers an agent sends: its token, and the repository and cluster the token is for. */
export function uploadHeaders(
  repository: string,
  cluster: string,
  token = tokenFor(repository, cluster),
): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    'x-driftback-repository': repository,
    'x-driftback-cluster': cluster,
  };
}

export async function uploadSnapshot(
  harness: AppHarness,
  snapshot: { repository: string; cluster: string },
  token = tokenFor(snapshot.repository, snapshot.cluster),
): Promise<UploadResponse> {
  return postSnapshot(harness, JSON.stringify(snapshot), uploadHeaders(snapshot.repository, snapshot.cluster, token));
}

function fixturePayload(event: string, name: string): Record<string, unknown> {
  return JSON.parse(readFixture('webhooks', 'octokit', event, `${name}.payload.json`)) as Record<string, unknown>;
}

function repositoryPayload(harness: AppHarness, base: Record<string, unknown>): Record<string, unknown> {
  const owner = { ...(base.owner as Record<string, unknown>), login: harness.owner, name: harness.owner };
  return {
    ...base,
    name: harness.repo,
    full_name: harness.repository,
    owner,
    default_branch: 'main',
    master_branch: 'main',
  };
}

/**
 * The fixture push, as GitHub sends it for a push of `sha` to `branch` of the harness repository:
 * `before` the branch's previous head (the commit's first parent; zeros for a new branch, or
 * `before` when given), `head_commit` with the commit's own tree.
 */
export function pushPayload(
  harness: AppHarness,
  branch: string,
  sha: string,
  before?: string,
): Record<string, unknown> {
  const payload = fixturePayload('push', 'with-new-branch');
  const commit = harness.standIn.state.git.commit(sha);
  if (!commit) throw new Error(`pushPayload: no commit ${sha}`);
  const headCommit = { ...(payload.head_commit as Record<string, unknown>), id: sha, tree_id: commit.tree };
  return {
    ...payload,
    ref: `refs/heads/${branch}`,
    before: before ?? commit.parents[0] ?? '0'.repeat(40),
    after: sha,
    created: commit.parents.length === 0,
    head_commit: headCommit,
    repository: repositoryPayload(harness, payload.repository as Record<string, unknown>),
    installation: { id: 1, node_id: 'I_1' },
  };
}

/** The fixture installation.created, covering the harness repository. */
export function installationCreatedPayload(harness: AppHarness): Record<string, unknown> {
  const payload = fixturePayload('installation', 'created');
  const repositories = [{ id: 1, node_id: 'R_1', name: harness.repo, full_name: harness.repository, private: true }];
  return { ...payload, repositories, installation: { ...(payload.installation as Record<string, unknown>), id: 1 } };
}

/** The fixture installation_repositories.added, adding the harness repository. */
export function repositoriesAddedPayload(harness: AppHarness): Record<string, unknown> {
  const payload = fixturePayload('installation_repositories', 'added');
  const repositories = [{ id: 1, node_id: 'R_1', name: harness.repo, full_name: harness.repository, private: true }];
  return {
    ...payload,
    repositories_added: repositories,
    installation: { ...(payload.installation as Record<string, unknown>), id: 1 },
  };
}

/** The fixture pull_request payload with `action` for PR `number` from `branch` of the harness repository. */
export function pullRequestPayload(
  harness: AppHarness,
  number: number,
  branch: string,
  action: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  const payload = fixturePayload('pull_request', 'opened');
  const repository = repositoryPayload(harness, payload.repository as Record<string, unknown>);
  const pull = payload.pull_request as Record<string, Record<string, unknown>>;
  return {
    ...payload,
    action,
    number,
    repository,
    installation: { id: 1, node_id: 'I_1' },
    pull_request: {
      ...pull,
      number,
      ...fields,
      head: { ...pull.head, ref: branch, repo: repository, label: `${harness.owner}:${branch}` },
      base: { ...pull.base, ref: 'main', repo: repository, label: `${harness.owner}:main` },
    },
  };
}

/** The fixture pull_request payload turned into `closed` for PR `number` from `branch`. */
export function pullRequestClosedPayload(
  harness: AppHarness,
  number: number,
  branch: string,
  merged: boolean,
): Record<string, unknown> {
  return pullRequestPayload(harness, number, branch, 'closed', {
    state: 'closed',
    merged,
    merged_at: merged ? '2026-12-02T12:00:00Z' : null,
  });
}

// Runs the real App (Probot, SQLite store and queue) against the GitHub stand-in for the plan,
// dashboard, alert and metrics scenarios: signed webhooks over HTTP, snapshots through the upload
// API, a clock the test moves, and a wait that ends when the queue has nothing left to run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { deriveToken } from '../../src/core/token/index.js';
import type { Running, StartOverrides } from '../../src/app/start.js';
import { GitHubStandIn } from '../support/github/index.js';
import { issueBody } from '../support/github/routes-issues.js';
import { readFixture } from '../support/fixtures.js';
import { goldenIn } from '../support/golden.js';
import { sqliteOf } from '../support/sqlite-file.js';
import { sendWebhook as postWebhook, startTestApp, testAppEnv } from '../support/app.js';
import { runCli } from '../cli/run-cli.js';

const TOKEN_SECRET = 'plan-token-secret-0123456789abcdef0123';
export const OWNER = 'acme';
export const REPO = 'platform';
export const REPOSITORY = `${OWNER}/${REPO}`;

export interface Harness {
  standIn: GitHubStandIn;
  app: Running;
  clock: { now: Date };
  baseUrl: string;
  close(): Promise<void>;
}

/** Where the App's log lines go, and from which level (default: DRIFTBACK_TEST_LOG, else silent). */
export interface HarnessLog {
  level: string;
  destination: NonNullable<StartOverrides['logDestination']>;
}

export async function startHarness(
  files: Record<string, string | Uint8Array>,
  start = '2026-12-02T12:00:00Z',
  log?: HarnessLog,
): Promise<Harness> {
  const clock = { now: new Date(start) };
  const standIn = await GitHubStandIn.start({ now: () => clock.now });
  standIn.seedRepository({ owner: OWNER, repo: REPO, files });
  const dataDir = mkdtempSync(join(tmpdir(), 'driftback-app-'));
  const env = testAppEnv(standIn.baseUrl, dataDir, {
    ...(log ? { logLevel: log.level } : {}),
    tokenSecret: TOKEN_SECRET,
    maxSnapshotBytes: 64 * 1024 * 1024,
  });
  const app = await startTestApp(env, { now: () => clock.now, ...(log ? { logDestination: log.destination } : {}) });
  const harness: Harness = {
    standIn,
    app,
    clock,
    baseUrl: `http://127.0.0.1:${app.port}`,
    async close() {
      await app.stop();
      await standIn.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await drain(harness);
  return harness;
}

/** Resolves when no job is pending or running (polls the queue's table; no fixed sleeps). */
export async function drain(harness: Harness): Promise<void> {
  const db = sqliteOf(harness.app.store);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE run_at <= ?`).get(Date.now() + 1000) as { n: number };
    if (row.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the queue did not drain within 60 s');
}

/** Sends a signed webhook, as GitHub does; resolves with the App's status once the jobs it queued ran. */
export async function sendWebhook(harness: Harness, event: string, payload: unknown): Promise<number> {
  const status = await postWebhook(harness, event, payload);
  await drain(harness);
  return status;
}

export async function uploadSnapshot(
  harness: Harness,
  cluster: string,
  items: unknown[],
  capturedAt = harness.clock.now.toISOString(),
  scope: unknown = { complete: true, errors: [] },
): Promise<number> {
  const snapshot = {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: REPOSITORY,
    cluster,
    capturedAt,
    agent: { version: '0.1.0' },
    server: { gitVersion: 'v1.31.2' },
    scope,
    items,
  };
  const response = await fetch(`${harness.baseUrl}/api/v1/snapshots`, {
    method: 'POST',
    body: JSON.stringify(snapshot),
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${deriveToken(TOKEN_SECRET, REPOSITORY, cluster)}`,
      'x-driftback-repository': REPOSITORY,
      'x-driftback-cluster': cluster,
    },
  });
  await response.text();
  return response.status;
}

/**
 * Uploads `items` of `cluster` twice, at 11:50 and 11:55, so a hand change in them persists past the
 * default gate (drift.minSnapshots: 2); fails the test unless the App accepts both.
 */
export async function uploadSeenTwice(harness: Harness, cluster: string, items: unknown[], scope?: unknown) {
  for (const at of ['2026-12-02T11:50:00Z', '2026-12-02T11:55:00Z']) {
    expect(await uploadSnapshot(harness, cluster, items, at, scope)).toBe(202);
  }
}

/** Runs the scheduled watch once now (what the every-minute schedule does). */
export async function runWatch(harness: Harness): Promise<void> {
  await harness.app.queue.enqueue('alerts', 'alerts', {});
  await drain(harness);
}

/** Opens a pull request from a branch with `files` changed (null deletes); returns its number and head sha. */
export function openPullRequest(
  harness: Harness,
  branch: string,
  files: Record<string, string | Uint8Array | null>,
  title = 'Change manifests',
): { number: number; headSha: string; baseSha: string } {
  const headSha = harness.standIn.pushCommit({ owner: OWNER, repo: REPO, branch, files });
  const number = harness.standIn.openPullRequest({ owner: OWNER, repo: REPO, branch, title });
  const repo = harness.standIn.state.repo(OWNER, REPO);
  return { number, headSha, baseSha: repo.refs.get(`refs/heads/${repo.defaultBranch}`)! };
}

/**
 * Opens a pull request as {@link openPullRequest} does and sends GitHub's `opened` webhook for it (the
 * plan job runs before it returns); fails the test unless the App accepts the webhook.
 */
export async function proposePullRequest(
  harness: Harness,
  branch: string,
  files: Record<string, string | null>,
  options: { fork?: boolean; body?: string | null } = {},
): Promise<{ number: number; headSha: string; baseSha: string }> {
  const pull = openPullRequest(harness, branch, files);
  expect(await sendWebhook(harness, 'pull_request', pullRequestPayload('opened', { ...pull, branch }, options))).toBe(
    200,
  );
  return pull;
}

/** The fixture `pull_request` payload, pointed at the stand-in's repository and pull request. */
export function pullRequestPayload(
  action: string,
  pull: { number: number; headSha: string; baseSha: string; branch: string },
  options: { fork?: boolean; body?: string | null } = {},
): Record<string, unknown> {
  const payload = JSON.parse(readFixture('webhooks', 'octokit', 'pull_request', 'opened.payload.json'));
  const repository = {
    ...payload.repository,
    name: REPO,
    full_name: REPOSITORY,
    owner: { ...payload.repository.owner, login: OWNER },
    default_branch: 'main',
  };
  const headRepository = options.fork
    ? {
        ...repository,
        full_name: `contributor/${REPO}`,
        owner: { ...repository.owner, login: 'contributor' },
        fork: true,
      }
    : repository;
  payload.action = action;
  payload.number = pull.number;
  payload.repository = repository;
  payload.installation = { id: 1, node_id: 'I_1' };
  payload.pull_request = {
    ...payload.pull_request,
    number: pull.number,
    body: options.body === undefined ? payload.pull_request.body : options.body,
    draft: false,
    head: {
      ...payload.pull_request.head,
      ref: pull.branch,
      sha: pull.headSha,
      repo: headRepository,
      label: `${headRepository.owner.login}:${pull.branch}`,
    },
    base: { ...payload.pull_request.base, ref: 'main', sha: pull.baseSha, repo: repository, label: `${OWNER}:main` },
  };
  return payload;
}

export function checkRunPayload(headSha: string): Record<string, unknown> {
  const payload = JSON.parse(readFixture('webhooks', 'octokit', 'check_run', 'rerequested.payload.json'));
  payload.repository = {
    ...payload.repository,
    name: REPO,
    full_name: REPOSITORY,
    owner: { ...payload.repository.owner, login: OWNER },
  };
  payload.installation = { id: 1, node_id: 'I_1' };
  payload.check_run = { ...payload.check_run, name: 'driftback / plan', head_sha: headSha, pull_requests: [] };
  return payload;
}

/** The App's comments on an issue or pull request, bodies in order. */
export function commentsOn(harness: Harness, number: number): string[] {
  const repo = harness.standIn.state.repo(OWNER, REPO);
  return [...repo.comments.values()]
    .filter((comment) => comment.issueNumber === number)
    .sort((a, b) => a.id - b.id)
    .map((comment) => comment.body);
}

export function checkRunsFor(harness: Harness, headSha: string) {
  const repo = harness.standIn.state.repo(OWNER, REPO);
  return [...repo.checkRuns.values()].filter((run) => run.headSha === headSha && run.name === 'driftback / plan');
}

export function issuesTitled(harness: Harness, title: string) {
  const repo = harness.standIn.state.repo(OWNER, REPO);
  return [...repo.issues.values()].filter((issue) => !issue.pull && issue.title === title);
}

/** Compares with `test/app/plan-golden/<name>` byte for byte; `UPDATE_GOLDEN=1` rewrites it. */
export const expectGolden = goldenIn(join(dirname(fileURLToPath(import.meta.url)), 'plan-golden'));

/**
 * The `issue_comment` webhook GitHub sends for `comment` (as the stand-in's REST API shows it) on pull
 * request `number`: Atlantis's recorded PR comment event, with the stand-in's issue, comment and
 * commenter in place of the recorded ones.
 */
export function issueCommentPayload(
  harness: Harness,
  number: number,
  comment: Record<string, any>,
  action: 'created' | 'edited' = 'created',
): Record<string, unknown> {
  const payload = JSON.parse(readFixture('webhooks', 'atlantis', 'githubIssueCommentEvent.json'));
  const { state } = harness.standIn;
  const repo = state.repo(OWNER, REPO);
  // The fixture's issue is a pull request's; a plain issue's payload has no `pull_request`.
  const { pull_request: _pull, ...plain } = payload.issue;
  const issue = { ...plain, ...issueBody(state, repo, repo.issues.get(number)!) };
  const repository = {
    ...payload.repository,
    name: REPO,
    full_name: REPOSITORY,
    owner: { ...payload.repository.owner, login: OWNER },
  };
  return {
    ...payload,
    action,
    ...(action === 'edited' ? { changes: { body: { from: 'before the edit' } } } : {}),
    issue,
    comment: { ...payload.comment, ...comment },
    repository,
    sender: state.userBody(comment.user.login),
    installation: { id: 1, node_id: 'I_1' },
  };
}

/** Writes `files` under `dir` (bytes as they are; null: not written). */
export function writeTree(dir: string, files: Record<string, string | Uint8Array | null>): void {
  for (const [path, content] of Object.entries(files)) {
    if (content === null) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/**
 * {@link cliPlanComment} of `files` as base and `files` with `changed` as head, both written under `dir`;
 * the CLI's and the App's comments must then be the same, with the App's marker.
 */
export async function expectCliPlanOfChange(
  dir: string,
  trees: { files: Record<string, string | Uint8Array>; changed: Record<string, string | Uint8Array> },
  run: { cluster: string; live: string; headSha: string; posted: string },
): Promise<void> {
  writeTree(join(dir, 'base'), trees.files);
  writeTree(join(dir, 'head'), { ...trees.files, ...trees.changed });
  const cli = await cliPlanComment(dir, run);
  expect(cli.stderr).toBe('');
  expect(cli.marked).toBe(true);
  expect(cli.posted).toBe(cli.printed);
}

/**
 * `driftback codify` of `files` written to `<dir>/codify`, with the snapshot at `live`: its exit code,
 * what it printed on stderr, and the text of a file of the repository afterwards.
 */
export async function cliCodify(
  dir: string,
  files: Record<string, string | Uint8Array>,
  run: { cluster: string; live: string },
): Promise<{ code: number | null; stderr: string; text: (path: string) => string }> {
  const repo = join(dir, 'codify');
  writeTree(repo, files);
  const cli = await runCli(['codify', '--repo', repo, '--cluster', run.cluster, '--live', run.live], { cwd: dir });
  return { code: cli.code, stderr: cli.stderr, text: (path) => readFileSync(join(repo, path), 'utf8') };
}

/**
 * The comment `driftback plan --format markdown` prints for `head` over `base` in `dir` (the snapshot
 * `live` relative to it), titled with the commit as the App titles it; and the posted comment without
 * the hidden marker the App edits it by, to compare with.
 */
export async function cliPlanComment(
  dir: string,
  run: { cluster: string; live: string; headSha: string; posted: string },
): Promise<{ printed: string; posted: string; marked: boolean; code: number | null; stderr: string }> {
  const args = ['plan', '--head', 'head', '--base', 'base', '--live', run.live, '--cluster', run.cluster];
  const cli = await runCli([...args, '--config', 'head/.github/driftback.yml', '--format', 'markdown'], { cwd: dir });
  const printed = cli.stdout.replace(
    /^### driftback plan\n/,
    `### driftback plan for \`${run.headSha.slice(0, 7)}\`\n`,
  );
  const marker = /\n\n<!-- driftback:plan#\d+ hash:[0-9a-f]{16} -->$/;
  const marked = marker.test(run.posted);
  return { printed, posted: run.posted.replace(marker, ''), marked, code: cli.code, stderr: cli.stderr };
}

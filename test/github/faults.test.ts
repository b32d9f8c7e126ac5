// 5xx answers and rate limits are retried by Octokit's retry and throttling plugins; a write that
// still fails leaves the branch as it was (the ref moves last).
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOctokit,
  memoryBlobCache,
  readTreeFiles,
  writeBranch,
  type WriteBranchOptions,
} from '../../src/github/index.js';
import type { FaultKind } from '../support/github/index.js';
import { manyFiles, OWNER, PREFIX, REPO, startHarness, type Harness } from './harness.js';

const TREES = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}';
const CREATE_COMMIT = 'POST /repos/{owner}/{repo}/git/commits';

describe('faults', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  const write = (version: number): WriteBranchOptions => ({
    owner: OWNER,
    repo: REPO,
    branch: 'driftback/prod-eu',
    prefix: PREFIX,
    defaultBranch: 'main',
    baseCommitSha: harness.baseSha,
    files: new Map([['clusters/prod-eu/app-000.yaml', `v: ${version}\n`]]),
    message: 'Codify drift\n',
  });

  it.each<[FaultKind, number]>([
    ['server-error', 2],
    ['bad-gateway', 3],
    ['rate-limit', 1],
    ['secondary-rate-limit', 2],
    ['secondary-rate-limit-429', 1],
  ])('%s ×%i on the tree read is retried and the read succeeds', async (kind, times) => {
    harness = await startHarness(manyFiles(3));
    harness.standIn.injectFault({ route: TREES, kind, times });
    const read = await readTreeFiles(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      commitSha: harness.baseSha,
      paths: ['clusters'],
      blobCache: memoryBlobCache(),
    });
    expect(read.files.size).toBe(3);
    expect(harness.standIn.pendingFaults()).toBe(0);
    expect(harness.standIn.calls().faults).toBe(times);
    expect(harness.standIn.callsTo(TREES)).toBe(times + 1);
  });

  it.each<FaultKind>(['server-error', 'rate-limit', 'secondary-rate-limit'])(
    'a write survives %s on every write route once',
    async (kind) => {
      harness = await startHarness(manyFiles(3));
      for (const route of [
        'POST /repos/{owner}/{repo}/git/trees',
        CREATE_COMMIT,
        'POST /repos/{owner}/{repo}/git/refs',
      ])
        harness.standIn.injectFault({ route, kind });
      const result = await writeBranch(harness.octokit, write(1));
      expect(result.type).toBe('written');
      expect(harness.standIn.readFile(OWNER, REPO, 'driftback/prod-eu', 'clusters/prod-eu/app-000.yaml')).toBe(
        'v: 1\n',
      );
    },
  );

  it('a write that keeps failing throws and leaves the branch where it was', async () => {
    harness = await startHarness(manyFiles(3));
    const first = await writeBranch(harness.octokit, write(1));
    const before = harness.standIn.headOf(OWNER, REPO, 'driftback/prod-eu');
    harness.standIn.injectFault({ route: CREATE_COMMIT, kind: 'server-error', times: 10 });
    await expect(writeBranch(harness.octokit, write(2))).rejects.toMatchObject({ status: 500 });
    expect(harness.standIn.headOf(OWNER, REPO, 'driftback/prod-eu')).toBe(before);
    expect(first.type === 'written' && first.commitSha).toBe(before);
    expect(harness.standIn.callsTo('PATCH /repos/{owner}/{repo}/git/refs/{ref}')).toBe(0);
    // Once GitHub recovers, the same write goes through (what a queue retry does).
    // The first write's commit, then one attempt and three retries.
    expect(harness.standIn.callsTo(CREATE_COMMIT)).toBe(1 + 4);
    harness.standIn.clearFaults();
    expect((await writeBranch(harness.octokit, write(2))).type).toBe('written');
  });

  it('a client with retries off surfaces a 502 at once', async () => {
    harness = await startHarness(manyFiles(1));
    const octokit = createOctokit({
      baseUrl: harness.standIn.baseUrl,
      retries: 0,
      backoffUnitMs: 1,
      writeSpacingMs: 0,
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    harness.standIn.injectFault({ kind: 'bad-gateway' });
    await expect(octokit.rest.repos.get({ owner: OWNER, repo: REPO })).rejects.toMatchObject({ status: 502 });
  });

  it("reports every request's route and status, and the rate limit left", async () => {
    harness = await startHarness(manyFiles(1));
    const seen: string[] = [];
    const remaining: number[] = [];
    const octokit = createOctokit({
      baseUrl: harness.standIn.baseUrl,
      backoffUnitMs: 1,
      writeSpacingMs: 0,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      onRequest: (route, status) => seen.push(`${route} ${status}`),
      onRateLimit: (left) => remaining.push(left),
    });
    await octokit.rest.repos.get({ owner: OWNER, repo: REPO });
    await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/nope' }).catch(() => undefined);
    expect(seen).toEqual(['GET /repos/{owner}/{repo} 200', 'GET /repos/{owner}/{repo}/git/ref/{ref} 404']);
    expect(remaining).toHaveLength(2);
    expect(remaining[1]).toBeLessThan(remaining[0]);
  });
});

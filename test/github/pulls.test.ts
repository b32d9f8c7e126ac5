import { afterEach, describe, expect, it } from 'vitest';
import {
  branchHasForeignCommits,
  ForbiddenRefError,
  closePullRequest,
  commentOnce,
  createOctokit,
  findPullRequest,
  openOrUpdatePullRequest,
  writeBranch,
  type PullRequestContent,
} from '../../src/github/index.js';
import { APP_LOGIN } from '../support/github/index.js';
import { manyFiles, OWNER, PREFIX, REPO, startHarness, type Harness } from './harness.js';

const BRANCH = 'driftback/prod-eu';
const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
/** The stand-in's App, as GitHub names it. */
const APP = { appId: 1, login: APP_LOGIN };
const from = (state?: 'open' | 'closed') => ({
  owner: OWNER,
  repo: REPO,
  head: BRANCH,
  author: APP,
  ...(state ? { state } : {}),
});

describe('drift pull requests', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  async function writeDrift(version: number): Promise<string> {
    const result = await writeBranch(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      branch: BRANCH,
      prefix: PREFIX,
      defaultBranch: 'main',
      baseCommitSha: harness.baseSha,
      files: new Map([['clusters/prod-eu/app-000.yaml', `v: ${version}\n`]]),
      message: 'Codify drift\n',
    });
    if (result.type !== 'written') throw new Error(`expected a write, got ${result.type}`);
    return result.commitSha;
  }

  /** A fresh repository, the drift branch written once, and its pull request opened: its number. */
  async function openDriftPull(): Promise<number> {
    harness = await startHarness(manyFiles(2));
    await writeDrift(1);
    return (await openOrUpdatePullRequest(harness.octokit, content('drift'))).number;
  }

  /** Closing pull request `number` of `branch` with `comment`, the branch deleted through the guard. */
  const closing = (number: number, comment: string, branch = BRANCH) => ({
    owner: OWNER,
    repo: REPO,
    number,
    comment,
    branch,
    prefix: PREFIX,
    defaultBranch: 'main',
  });

  const content = (body: string, title = 'driftback: codify drift in prod-eu'): PullRequestContent => ({
    owner: OWNER,
    repo: REPO,
    head: BRANCH,
    base: 'main',
    title,
    body,
    key: 'drift/prod-eu',
    labels: ['driftback'],
    author: APP,
  });

  it('opens once, skips an unchanged body without any write, updates a changed one', async () => {
    harness = await startHarness(manyFiles(2));
    await writeDrift(1);
    const opened = await openOrUpdatePullRequest(harness.octokit, content('Replicas 3 → 8'));
    expect(opened).toEqual({ type: 'opened', number: 1 });
    const found = (await findPullRequest(harness.octokit, from())).own;
    expect(found).toMatchObject({
      number: 1,
      state: 'open',
      labels: ['driftback'],
      title: 'driftback: codify drift in prod-eu',
    });
    expect(found!.body).toMatch(/<!-- driftback:drift\/prod-eu hash:[0-9a-f]+ -->$/);

    harness.standIn.resetCalls();
    expect(await openOrUpdatePullRequest(harness.octokit, content('Replicas 3 → 8'))).toEqual({
      type: 'unchanged',
      number: 1,
    });
    expect(harness.standIn.calls()).toMatchObject({ writes: 0, reads: 1 });

    expect(await openOrUpdatePullRequest(harness.octokit, content('Replicas 3 → 9'))).toEqual({
      type: 'updated',
      number: 1,
    });
    expect((await findPullRequest(harness.octokit, from())).own!.body).toContain('Replicas 3 → 9');
  });

  it('uses the PR the caller already found instead of listing again', async () => {
    harness = await startHarness(manyFiles(2));
    await writeDrift(1);
    harness.standIn.resetCalls();
    expect(
      await openOrUpdatePullRequest(harness.octokit, { ...content('Replicas 3 → 8'), found: { pull: undefined } }),
    ).toEqual({ type: 'opened', number: 1 });
    expect(harness.standIn.callsTo('GET /repos/{owner}/{repo}/pulls')).toBe(0);
    const pull = (await findPullRequest(harness.octokit, from())).own;
    harness.standIn.resetCalls();
    expect(await openOrUpdatePullRequest(harness.octokit, { ...content('Replicas 3 → 8'), found: { pull } })).toEqual({
      type: 'unchanged',
      number: 1,
    });
    expect(harness.standIn.calls().total).toBe(0);
    expect(await openOrUpdatePullRequest(harness.octokit, { ...content('Replicas 3 → 9'), found: { pull } })).toEqual({
      type: 'updated',
      number: 1,
    });
    expect(harness.standIn.calls()).toMatchObject({ reads: 0, writes: 1 });
  });

  it('compares marker hashes when the body carries its own marker', async () => {
    harness = await startHarness(manyFiles(2));
    await writeDrift(1);
    await openOrUpdatePullRequest(harness.octokit, content('Body A\n<!-- driftback:drift/prod-eu hash:aaaa -->'));
    harness.standIn.resetCalls();
    // Same hash, different rendering of the same content (e.g. a timestamp): no call.
    expect(
      (
        await openOrUpdatePullRequest(
          harness.octokit,
          content('Body A, later\n<!-- driftback:drift/prod-eu hash:aaaa -->'),
        )
      ).type,
    ).toBe('unchanged');
    expect(harness.standIn.calls().writes).toBe(0);
    expect(
      (await openOrUpdatePullRequest(harness.octokit, content('Body B\n<!-- driftback:drift/prod-eu hash:bbbb -->')))
        .type,
    ).toBe('updated');
  });

  it("a pull request from the branch that someone else opened is never the App's, whatever its branch", async () => {
    harness = await startHarness(manyFiles(2));
    harness.standIn.addUser('ghp_mallory', 'mallory');
    const mallory = createOctokit({ baseUrl: harness.standIn.baseUrl, auth: 'ghp_mallory', retries: 0, log: QUIET });
    harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: BRANCH,
      files: { 'x.yaml': 'a: 1\n' },
      login: 'mallory',
    });
    const { data: theirs } = await mallory.rest.pulls.create({
      owner: OWNER,
      repo: REPO,
      head: BRANCH,
      base: 'main',
      title: 'mine',
    });
    const listed = await findPullRequest(harness.octokit, from());
    expect(listed.own).toBeUndefined();
    expect(listed.others).toMatchObject([{ number: theirs.number, author: 'mallory' }]);
    // Without the App's login, only the PR it recorded opening is its own.
    const anonymous = { ...from(), author: { appId: 1 } };
    expect((await findPullRequest(harness.octokit, anonymous)).own).toBeUndefined();
    expect((await findPullRequest(harness.octokit, { ...anonymous, opened: theirs.number + 1 })).own).toBeUndefined();
  });

  it('closes with a comment and deletes the branch through the guard', async () => {
    const number = await openDriftPull();
    const result = await closePullRequest(
      harness.octokit,
      closing(number, 'The drift is gone: the cluster matches Git again.'),
    );
    expect(result).toEqual({ type: 'closed', branch: 'deleted' });
    const pr = harness.standIn.state.repo(OWNER, REPO).issues.get(number)!;
    expect(pr.state).toBe('closed');
    expect([...harness.standIn.state.repo(OWNER, REPO).comments.values()].map((comment) => comment.body)).toEqual([
      'The drift is gone: the cluster matches Git again.',
    ]);
    expect(harness.standIn.headOf(OWNER, REPO, BRANCH)).toBeUndefined();
    expect((await findPullRequest(harness.octokit, from())).own).toBeUndefined();
    expect((await findPullRequest(harness.octokit, from('closed'))).own).toMatchObject({ number, merged: false });
  });

  it('refuses to close-and-delete a PR whose head is the default branch', async () => {
    const number = await openDriftPull();
    harness.standIn.resetCalls();
    await expect(closePullRequest(harness.octokit, closing(number, 'x', 'main'))).rejects.toThrow(ForbiddenRefError);
    expect(harness.standIn.calls().total).toBe(0);
    expect(harness.standIn.headOf(OWNER, REPO, 'main')).toBe(harness.baseSha);
    expect(harness.standIn.state.repo(OWNER, REPO).issues.get(number)!.state).toBe('open');
  });

  it('comments once per marker key', async () => {
    const number = await openDriftPull();
    const first = await commentOnce(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      issueNumber: number,
      key: 'human-commit',
      body: 'Someone else committed here; driftback stops force-pushing this branch.',
      author: { appId: 1 },
    });
    const second = await commentOnce(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      issueNumber: number,
      key: 'human-commit',
      body: 'Someone else committed here; driftback stops force-pushing this branch.',
      author: { appId: 1 },
    });
    expect(first.type).toBe('commented');
    expect(second).toEqual({ type: 'exists', id: first.id });
    expect(harness.standIn.state.repo(OWNER, REPO).comments.size).toBe(1);
  });

  it("tells the App's own commits from a human commit on the branch", async () => {
    harness = await startHarness(manyFiles(2));
    const options = { owner: OWNER, repo: REPO, branch: BRANCH, base: 'main' };
    expect(await branchHasForeignCommits(harness.octokit, { ...options, appLogin: APP_LOGIN })).toEqual({
      type: 'no-branch',
    });
    const appCommit = await writeDrift(1);
    expect(await branchHasForeignCommits(harness.octokit, { ...options, appLogin: APP_LOGIN })).toEqual({
      type: 'own',
      commits: 1,
    });
    expect(await branchHasForeignCommits(harness.octokit, { ...options, appCommitShas: [appCommit] })).toEqual({
      type: 'own',
      commits: 1,
    });
    const human = harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: BRANCH,
      files: { 'clusters/prod-eu/app-001.yaml': 'tuned by hand\n' },
      login: 'alice',
      message: 'Tune by hand\n',
    });
    expect(await branchHasForeignCommits(harness.octokit, { ...options, appLogin: APP_LOGIN })).toEqual({
      type: 'foreign',
      commits: [{ sha: human, author: 'alice', message: 'Tune by hand\n' }],
    });
    await expect(branchHasForeignCommits(harness.octokit, options)).rejects.toThrow(/appCommitShas or appLogin/);
  });
});

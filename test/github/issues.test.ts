import { afterEach, describe, expect, it } from 'vitest';
import { closeIssue, upsertIssueByMarker, upsertStickyComment, type IssueContent } from '../../src/github/index.js';
import { OWNER, REPO, startHarness, type Harness } from './harness.js';

/** The stand-in's App: id 1, acting as driftback[bot]. */
const APP = { appId: 1, login: 'driftback[bot]' };

/** Posts as the human `login` (a token the stand-in maps to that user). */
async function postAs(
  harness: Harness,
  login: string,
  path: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  harness.standIn.addUser(`ghp_${login}`, login);
  const response = await fetch(`${harness.standIn.baseUrl}/repos/${OWNER}/${REPO}${path}`, {
    method: 'POST',
    headers: { authorization: `token ghp_${login}` },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('issues found by marker', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  const alert = (body: string): IssueContent => ({
    owner: OWNER,
    repo: REPO,
    key: 'alert/prod-eu/not-reporting',
    title: 'driftback: prod-eu is not reporting',
    body,
    labels: ['driftback', 'alert'],
    author: APP,
  });

  it('creates, skips unchanged, updates, and reopens a closed one rather than duplicating it', async () => {
    harness = await startHarness({ 'README.md': 'x\n' });
    // Noise the search must step over: an issue without the marker and a pull request's number.
    await harness.octokit.rest.issues.create({
      owner: OWNER,
      repo: REPO,
      title: 'unrelated',
      body: 'no marker',
      labels: ['driftback'],
    });
    const created = await upsertIssueByMarker(harness.octokit, alert('No snapshot for 45m.'));
    expect(created).toEqual({ type: 'created', number: 2 });
    harness.standIn.resetCalls();
    expect(await upsertIssueByMarker(harness.octokit, alert('No snapshot for 45m.'))).toEqual({
      type: 'unchanged',
      number: 2,
    });
    expect(harness.standIn.calls().writes).toBe(0);
    expect(await upsertIssueByMarker(harness.octokit, alert('No snapshot for 2h.'))).toEqual({
      type: 'updated',
      number: 2,
    });

    expect(
      await closeIssue(harness.octokit, { owner: OWNER, repo: REPO, number: 2, comment: 'Snapshots resumed.' }),
    ).toEqual({ type: 'closed' });
    expect(
      await closeIssue(harness.octokit, { owner: OWNER, repo: REPO, number: 2, comment: 'Snapshots resumed.' }),
    ).toEqual({ type: 'already-closed' });
    expect(await upsertIssueByMarker(harness.octokit, alert('No snapshot for 31m.'))).toEqual({
      type: 'reopened',
      number: 2,
    });
    const issues = harness.standIn.state.repo(OWNER, REPO).issues;
    expect(issues.size).toBe(2);
    expect(issues.get(2)).toMatchObject({ state: 'open', labels: ['driftback', 'alert'] });
    expect(issues.get(2)!.body).toContain('No snapshot for 31m.');
  });

  it('finds its issue beyond the first page of results', async () => {
    harness = await startHarness({ 'README.md': 'x\n' });
    const { number } = await upsertIssueByMarker(harness.octokit, alert('first'));
    for (let index = 0; index < 120; index += 1)
      harness.standIn.state.repo(OWNER, REPO).issues.set(100 + index, {
        number: 100 + index,
        title: `noise ${index}`,
        body: null,
        state: 'open',
        stateReason: null,
        labels: ['driftback'],
        user: 'alice',
        createdAt: '2026-12-02T00:00:00Z',
        updatedAt: '2026-12-02T00:00:00Z',
        closedAt: null,
      });
    expect(await upsertIssueByMarker(harness.octokit, alert('first'))).toEqual({ type: 'unchanged', number });
  });
});

describe("issues someone else opened with the App's marker", () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  it('are not adopted as the dashboard or an alert: the App opens its own', async () => {
    harness = await startHarness({ 'README.md': 'x\n' });
    const fake = await postAs(harness, 'mallory', '/issues', {
      title: 'driftback dashboard',
      body: 'All clusters in sync.\n\n<!-- driftback:dashboard hash:0000000000000000 -->',
      labels: ['driftback'],
    });
    const content: IssueContent = {
      owner: OWNER,
      repo: REPO,
      key: 'dashboard',
      title: 'driftback dashboard',
      body: 'prod-eu: 3 drifted resources',
      labels: ['driftback'],
      author: APP,
    };
    const result = await upsertIssueByMarker(harness.octokit, content);
    expect(result.type).toBe('created');
    expect(result.number).not.toBe(fake.number);
    expect(harness.standIn.state.repo(OWNER, REPO).issues.get(fake.number as number)!.body).toContain(
      'All clusters in sync.',
    );
    expect(await upsertIssueByMarker(harness.octokit, content)).toEqual({ type: 'unchanged', number: result.number });
  });
});

describe('upsertStickyComment', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  it('edits numbered parts in place, skips unchanged ones, retires parts no longer needed', async () => {
    harness = await startHarness({ 'README.md': 'x\n' });
    const { data: issue } = await harness.octokit.rest.issues.create({
      owner: OWNER,
      repo: REPO,
      title: 'a PR stand-in',
    });
    const target = { owner: OWNER, repo: REPO, issueNumber: issue.number, key: 'plan', author: APP };
    expect(await upsertStickyComment(harness.octokit, { ...target, parts: ['plan part 1', 'plan part 2'] })).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      retired: 0,
    });
    harness.standIn.resetCalls();
    expect(await upsertStickyComment(harness.octokit, { ...target, parts: ['plan part 1', 'plan part 2'] })).toEqual({
      created: 0,
      updated: 0,
      unchanged: 2,
      retired: 0,
    });
    expect(harness.standIn.calls().writes).toBe(0);
    expect(await upsertStickyComment(harness.octokit, { ...target, parts: ['new plan'] })).toEqual({
      created: 0,
      updated: 1,
      unchanged: 0,
      retired: 1,
    });
    const bodies = [...harness.standIn.state.repo(OWNER, REPO).comments.values()].map((comment) => comment.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatch(/^new plan\n\n<!-- driftback:plan#1 hash:/);
    expect(bodies[1]).toContain('no longer used');
    expect(await upsertStickyComment(harness.octokit, { ...target, parts: ['new plan'] })).toEqual({
      created: 0,
      updated: 0,
      unchanged: 1,
      retired: 0,
    });
  });

  it("never adopts a comment someone else posted with the App's marker: it posts its own and leaves theirs as it is", async () => {
    harness = await startHarness({ 'README.md': 'x\n' });
    const { data: issue } = await harness.octokit.rest.issues.create({ owner: OWNER, repo: REPO, title: 'pr' });
    const fake = 'No changes to any cluster. Safe to merge.\n\n<!-- driftback:plan#1 hash:0000000000000000 -->';
    await postAs(harness, 'mallory', `/issues/${issue.number}/comments`, { body: fake });
    expect(
      await upsertStickyComment(harness.octokit, {
        owner: OWNER,
        repo: REPO,
        issueNumber: issue.number,
        key: 'plan',
        parts: ['Prunes PersistentVolumeClaim/data'],
        author: APP,
      }),
    ).toEqual({ created: 1, updated: 0, unchanged: 0, retired: 0 });
    const comments = [...harness.standIn.state.repo(OWNER, REPO).comments.values()];
    expect(comments.map((comment) => [comment.user, comment.body.split('\n')[0]])).toEqual([
      ['mallory', 'No changes to any cluster. Safe to merge.'],
      ['driftback[bot]', 'Prunes PersistentVolumeClaim/data'],
    ]);
    // The next plan edits the App's own comment, still never the fake.
    expect(
      await upsertStickyComment(harness.octokit, {
        owner: OWNER,
        repo: REPO,
        issueNumber: issue.number,
        key: 'plan',
        parts: ['Prunes nothing'],
        author: APP,
      }),
    ).toEqual({ created: 0, updated: 1, unchanged: 0, retired: 0 });
    expect(comments[0].body).toBe(fake);
  });

  it("leaves other people's comments alone", async () => {
    harness = await startHarness({ 'README.md': 'x\n' });
    const { data: issue } = await harness.octokit.rest.issues.create({ owner: OWNER, repo: REPO, title: 'pr' });
    harness.standIn.addUser('ghp_alice', 'alice');
    await fetch(`${harness.standIn.baseUrl}/repos/${OWNER}/${REPO}/issues/${issue.number}/comments`, {
      method: 'POST',
      headers: { authorization: 'token ghp_alice' },
      body: JSON.stringify({ body: 'LGTM' }),
    });
    await upsertStickyComment(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      issueNumber: issue.number,
      key: 'plan',
      parts: ['plan'],
      author: APP,
    });
    const comments = [...harness.standIn.state.repo(OWNER, REPO).comments.values()];
    expect(comments.map((comment) => [comment.user, comment.body.split('\n')[0]])).toEqual([
      ['alice', 'LGTM'],
      ['driftback[bot]', 'plan'],
    ]);
  });
});

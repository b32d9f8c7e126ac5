// The API-call budget of one reconcile, run the way the App runs it: config, tree, branch, PR.
import { afterEach, describe, expect, it } from 'vitest';
import {
  contentHash,
  listPullRequestFiles,
  memoryBlobCache,
  openOrUpdatePullRequest,
  readFileAt,
  readTreeFiles,
  writeBranch,
  type BlobCache,
  type GitHubClient,
} from '../../src/github/index.js';
import { APP_LOGIN } from '../support/github/index.js';
import { manyFiles, OWNER, PREFIX, REPO, startHarness, type Harness } from './harness.js';

interface BranchState {
  commitSha: string;
  treeSha: string;
}

async function reconcile(
  octokit: GitHubClient,
  cache: BlobCache,
  edits: Map<string, string>,
  last: BranchState | undefined,
): Promise<{ last: BranchState | undefined; pr: string }> {
  const head = (await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' })).data.object.sha;
  await readFileAt(octokit, { owner: OWNER, repo: REPO, ref: head, path: '.github/driftback.yml' });
  const tree = await readTreeFiles(octokit, {
    owner: OWNER,
    repo: REPO,
    commitSha: head,
    paths: ['clusters/prod-eu'],
    blobCache: cache,
  });
  const written = await writeBranch(octokit, {
    owner: OWNER,
    repo: REPO,
    branch: 'driftback/prod-eu',
    prefix: PREFIX,
    defaultBranch: 'main',
    baseCommitSha: head,
    files: edits,
    message: 'Codify drift\n',
    baseTree: tree.listing,
    lastWritten: last,
  });
  const next = written.type === 'written' ? { commitSha: written.commitSha, treeSha: written.treeSha } : last;
  const body = `${[...edits.keys()].map((path) => `- ${path}`).join('\n')}\n\ncontent ${contentHash([...edits.values()].join(''))}`;
  const pr = await openOrUpdatePullRequest(octokit, {
    owner: OWNER,
    repo: REPO,
    head: 'driftback/prod-eu',
    base: 'main',
    title: 'driftback: codify drift in prod-eu',
    body,
    key: 'drift/prod-eu',
    labels: ['driftback'],
    author: { appId: 1, login: APP_LOGIN },
  });
  return { last: next, pr: pr.type };
}

const edits = (count: number, version: number): Map<string, string> =>
  new Map([...manyFiles(count)].map(([path, text]) => [path, `${text}  v: "${version}"\n`]));

describe('reconcile call budget', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  it('unchanged drift at the same HEAD: no write call, no blob fetch, four reads', async () => {
    harness = await startHarness(new Map([...manyFiles(80), ['.github/driftback.yml', 'clusters: []\n']]));
    const cache = memoryBlobCache();
    const first = await reconcile(harness.octokit, cache, edits(5, 1), undefined);
    expect(first.pr).toBe('opened');
    harness.standIn.resetCalls();
    const again = await reconcile(harness.octokit, cache, edits(5, 1), first.last);
    expect(again.pr).toBe('unchanged');
    const calls = harness.standIn.calls();
    expect(calls.writes).toBe(0);
    expect(harness.standIn.callsTo('GET /repos/{owner}/{repo}/git/blobs/{file_sha}')).toBe(0);
    // main's ref, the config, the tree, the drift branch's ref, the open PR.
    expect(calls.reads).toBe(5);
  });

  it('a PR update costs the same calls for 1 and 50 changed files', async () => {
    harness = await startHarness(new Map([...manyFiles(80), ['.github/driftback.yml', 'clusters: []\n']]));
    const cache = memoryBlobCache();
    let state = (await reconcile(harness.octokit, cache, edits(1, 1), undefined)).last;
    harness.standIn.resetCalls();
    state = (await reconcile(harness.octokit, cache, edits(1, 2), state)).last;
    const one = harness.standIn.calls();
    harness.standIn.resetCalls();
    await reconcile(harness.octokit, cache, edits(50, 3), state);
    const fifty = harness.standIn.calls();
    expect(fifty.byRoute).toEqual(one.byRoute);
    expect(one.writes).toBe(4);
  });

  it('lists every changed file of a large pull request across pages', async () => {
    harness = await startHarness(manyFiles(1));
    harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'big',
      files: Object.fromEntries(manyFiles(130, 'clusters/new')),
    });
    const { data: pr } = await harness.octokit.rest.pulls.create({
      owner: OWNER,
      repo: REPO,
      title: 'big',
      head: 'big',
      base: 'main',
    });
    const files = await listPullRequestFiles(harness.octokit, { owner: OWNER, repo: REPO, number: pr.number });
    expect(files).toHaveLength(130);
    expect(harness.standIn.callsTo('GET /repos/{owner}/{repo}/pulls/{pull_number}/files')).toBe(2);
  });
});

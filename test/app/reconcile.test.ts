// The App's main loop end to end: snapshots uploaded over HTTP, signed webhooks, the real Probot
// App and queue, and the GitHub stand-in holding a GitOps repository built from the guestbook.
import { isReadRoute } from '../support/github/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  drain,
  pullRequestClosedPayload,
  pullRequestPayload,
  pushPayload,
  sendWebhook,
  startAppHarness,
  uploadSnapshot,
  type AppHarness,
} from '../support/app.js';
import { createOctokit } from '../../src/github/index.js';
import { appliedObjects, CLUSTER, CLUSTER_PATH, gitopsRepository, scaled, snapshotOf, withEnv } from './live.js';

const BRANCH = `driftback/${CLUSTER}`;
const FRONTEND = `${CLUSTER_PATH}/frontend-deployment.yaml`;
const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function pulls(h: AppHarness) {
  return [...h.standIn.state.repo(h.owner, h.repo).issues.values()].filter((issue) => issue.pull);
}

function commentsOn(h: AppHarness, number: number): string[] {
  return [...h.standIn.state.repo(h.owner, h.repo).comments.values()]
    .filter((comment) => comment.issueNumber === number)
    .map((comment) => comment.body);
}

function writes(h: AppHarness): Record<string, number> {
  return Object.fromEntries(Object.entries(h.standIn.calls().byRoute).filter(([route]) => !isReadRoute(route)));
}

function reads(h: AppHarness): Record<string, number> {
  return Object.fromEntries(Object.entries(h.standIn.calls().byRoute).filter(([route]) => isReadRoute(route)));
}

async function upload(h: AppHarness, items: ReturnType<typeof appliedObjects>, capturedAt: string): Promise<void> {
  const response = await uploadSnapshot(h, snapshotOf(h.repository, items, capturedAt));
  expect(response.status).toBe(202);
  await drain(h);
}

async function startWithDrift() {
  const files = gitopsRepository();
  const h = await startAppHarness({ files });
  const live = appliedObjects(files);
  await upload(h, scaled(live, 'frontend', 5), '2026-12-02T03:05:00Z');
  return { h, files, live };
}

describe('reconcile: a snapshot becomes a drift pull request', () => {
  it('opens one PR whose branch codifies the human change in place, with the report as body', async () => {
    const { h, files } = await startWithDrift();
    harness = h;
    const [pr] = pulls(h);
    expect(pulls(h)).toHaveLength(1);
    expect(pr.pull).toMatchObject({ head: BRANCH, base: 'main' });
    expect(pr.title).toBe('driftback: prod-eu — 1 live change to Deployment/shop/frontend');
    expect(pr.labels).toEqual(['driftback']);
    expect(pr.body).toContain('kubectl-scale');
    expect(pr.body).toMatch(/<!-- driftback:drift\/driftback\/prod-eu hash:[0-9a-f]{16} -->$/);
    const onBranch = h.standIn.readFiles(h.owner, h.repo, BRANCH);
    expect(onBranch.get(FRONTEND)).toBe(files[FRONTEND].replace('replicas: 3', 'replicas: 5'));
    // Every other file is byte for byte what the default branch holds.
    for (const [path, text] of Object.entries(files)) if (path !== FRONTEND) expect(onBranch.get(path)).toBe(text);
    expect(h.standIn.state.repo(h.owner, h.repo).refs.get('refs/heads/main')).toBe(
      h.standIn.headOf(h.owner, h.repo, 'main'),
    );
  });

  it('updates the same PR when more drift arrives, and writes nothing when the drift is unchanged', async () => {
    const { h, files, live } = await startWithDrift();
    harness = h;
    const more = withEnv(scaled(live, 'frontend', 5), 'frontend', { name: 'DEBUG', value: 'true' });
    await upload(h, more, '2026-12-02T03:15:00Z');
    expect(pulls(h)).toHaveLength(1);
    expect(h.standIn.readFile(h.owner, h.repo, BRANCH, FRONTEND)).toContain('DEBUG');
    expect(h.standIn.readFile(h.owner, h.repo, BRANCH, FRONTEND)).toContain('replicas: 5');
    expect(pulls(h)[0].body).toContain('kubectl-edit');
    // The installation of the repository is looked up once and its client kept.
    expect(h.standIn.callsTo('GET /repos/{owner}/{repo}/installation')).toBe(1);

    // A push event for the HEAD the branch is built on (a re-delivery): a full reconcile, no call at
    // all: the webhook names HEAD and its tree, the listing and the blobs the render reads are cached.
    h.standIn.resetCalls();
    const head = h.standIn.headOf(h.owner, h.repo, 'main')!;
    expect(await sendWebhook(h, 'push', pushPayload(h, 'main', head))).toBe(200);
    await drain(h);
    expect(h.standIn.calls().total).toBe(0);

    // The same drift in a newer snapshot: still no write.
    h.standIn.resetCalls();
    await upload(h, more, '2026-12-02T03:25:00Z');
    expect(writes(h)).toEqual({});
    expect(files[FRONTEND]).toContain('replicas: 3');

    // A new HEAD on the default branch: the branch is rebuilt on it, in one tree, one commit, one ref update.
    h.standIn.resetCalls();
    const moved = h.standIn.pushCommit({
      owner: h.owner,
      repo: h.repo,
      branch: 'main',
      files: { 'README.md': '# platform, edited\n' },
    });
    await sendWebhook(h, 'push', pushPayload(h, 'main', moved));
    await drain(h);
    expect(writes(h)).toEqual({
      'POST /repos/{owner}/{repo}/git/trees': 1,
      'POST /repos/{owner}/{repo}/git/commits': 1,
      'PATCH /repos/{owner}/{repo}/git/refs/{ref}': 1,
    });
    expect(h.standIn.readFile(h.owner, h.repo, BRANCH, 'README.md')).toBe('# platform, edited\n');
    expect(pulls(h)).toHaveLength(1);
  });

  it('reconciles unchanged drift with no GitHub call while HEAD and the drift PR are known from webhooks', async () => {
    const { h, live } = await startWithDrift();
    harness = h;
    h.standIn.resetCalls();
    await upload(h, scaled(live, 'frontend', 5), '2026-12-02T03:15:00Z');
    expect(h.standIn.calls().total).toBe(0);

    // HEAD moved without touching the cluster, and the push webhook says so: the new tree is listed
    // (the only read: the blobs the render reads are unchanged), the branch rebuilt on it.
    const moved = h.standIn.pushCommit({
      owner: h.owner,
      repo: h.repo,
      branch: 'main',
      files: { 'README.md': '# platform, edited\n' },
    });
    h.standIn.resetCalls();
    expect(await sendWebhook(h, 'push', pushPayload(h, 'main', moved))).toBe(200);
    await drain(h);
    expect(h.standIn.callsTo('GET /repos/{owner}/{repo}/git/trees/{tree_sha}')).toBe(1);
    expect(h.standIn.callsTo('GET /repos/{owner}/{repo}/git/blobs/{file_sha}')).toBe(0);
    expect(h.standIn.callsTo('GET /repos/{owner}/{repo}/contents/{path}')).toBe(0);
    expect(h.standIn.state.git.commit(h.standIn.headOf(h.owner, h.repo, BRANCH)!)!.parents).toEqual([moved]);
    expect(h.standIn.readFile(h.owner, h.repo, BRANCH, 'README.md')).toBe('# platform, edited\n');

    // The App's own write: its webhooks (which also plan the drift PR) make the next reconcile read
    // the PR once; then none again.
    await sendWebhook(h, 'pull_request', pullRequestPayload(h, pulls(h)[0].number, BRANCH, 'synchronize'));
    await drain(h);
    h.standIn.resetCalls();
    await upload(h, scaled(live, 'frontend', 5), '2026-12-02T03:35:00Z');
    expect(writes(h)).toEqual({});
    expect(reads(h)).toEqual({ 'GET /repos/{owner}/{repo}/pulls': 1 });
    h.standIn.resetCalls();
    await upload(h, scaled(live, 'frontend', 5), '2026-12-02T03:45:00Z');
    expect(h.standIn.calls().total).toBe(0);
  });

  it('reads HEAD from GitHub when a push webhook does not follow on from the HEAD it knows (one was missed)', async () => {
    const { h, live } = await startWithDrift();
    harness = h;
    const missed = h.standIn.pushCommit({
      owner: h.owner,
      repo: h.repo,
      branch: 'main',
      files: { 'README.md': '# missed\n' },
    });
    const next = h.standIn.pushCommit({ owner: h.owner, repo: h.repo, branch: 'main', files: { 'docs/a.md': 'a\n' } });
    // Only the second push is delivered: its `before` is a commit the App never saw.
    expect(await sendWebhook(h, 'push', pushPayload(h, 'main', next))).toBe(200);
    await drain(h);
    expect(h.standIn.state.git.commit(h.standIn.headOf(h.owner, h.repo, BRANCH)!)!.parents).toEqual([next]);
    expect(h.standIn.readFile(h.owner, h.repo, BRANCH, 'README.md')).toBe('# missed\n');
    expect(missed).not.toBe(next);
    h.standIn.resetCalls();
    await upload(h, scaled(live, 'frontend', 5), '2026-12-02T03:25:00Z');
    expect(h.standIn.calls().total).toBe(0);
  });

  it('reads the default branch and its HEAD afresh once what it remembers is an hour old', async () => {
    let clock = new Date('2026-12-02T03:06:00Z');
    const files = gitopsRepository();
    const h = (harness = await startAppHarness({ files, now: () => clock }));
    const live = scaled(appliedObjects(files), 'frontend', 5);
    await upload(h, live, '2026-12-02T03:05:00Z');
    const readsAt = async (minutes: number, capturedAt: string) => {
      clock = new Date(clock.getTime() + minutes * 60_000);
      h.standIn.resetCalls();
      await upload(h, live, capturedAt);
      return reads(h);
    };
    expect(await readsAt(50, '2026-12-02T03:55:00Z')).toEqual({});
    // The hourly safety net for webhooks never delivered: the default branch and its HEAD (one query) and the PR are read.
    expect(await readsAt(15, '2026-12-02T04:10:00Z')).toMatchObject({
      'POST /graphql': 1,
      'GET /repos/{owner}/{repo}/pulls': 1,
    });
    expect(await readsAt(5, '2026-12-02T04:15:00Z')).toEqual({});
    expect(writes(h)).toEqual({});
  });

  it('closes the PR with a comment and deletes the branch when the drift is gone', async () => {
    const { h, live } = await startWithDrift();
    harness = h;
    await upload(h, live, '2026-12-02T04:00:00Z');
    const [pr] = pulls(h);
    expect(pr.state).toBe('closed');
    expect(pr.pull?.merged).toBe(false);
    expect(commentsOn(h, pr.number).join('\n')).toMatch(/now matches `main`/);
    expect(h.standIn.headOf(h.owner, h.repo, BRANCH)).toBeUndefined();
  });

  it('closes nothing it does not own: a merged PR leaves no branch and no new PR behind', async () => {
    const { h, live } = await startWithDrift();
    harness = h;
    h.standIn.mergePullRequest({ owner: h.owner, repo: h.repo, number: pulls(h)[0].number });
    const head = h.standIn.headOf(h.owner, h.repo, 'main')!;
    await sendWebhook(h, 'push', pushPayload(h, 'main', head));
    await drain(h);
    expect(pulls(h)).toHaveLength(1);
    expect(h.standIn.headOf(h.owner, h.repo, BRANCH)).toBeUndefined();
    expect(h.standIn.readFile(h.owner, h.repo, 'main', FRONTEND)).toContain('replicas: 5');
    expect(live).toHaveLength(6);
  });

  it('stops force-pushing a branch someone else committed on, and says so once', async () => {
    const { h, live } = await startWithDrift();
    harness = h;
    const human = h.standIn.pushCommit({
      owner: h.owner,
      repo: h.repo,
      branch: BRANCH,
      files: { [FRONTEND]: 'replicas: 7 # by hand\n' },
      login: 'octocat',
    });
    await upload(
      h,
      withEnv(scaled(live, 'frontend', 5), 'frontend', { name: 'DEBUG', value: 'true' }),
      '2026-12-02T03:15:00Z',
    );
    await upload(h, scaled(live, 'frontend', 6), '2026-12-02T03:25:00Z');
    expect(h.standIn.headOf(h.owner, h.repo, BRANCH)).toBe(human);
    const [pr] = pulls(h);
    expect(pr.state).toBe('open');
    const notes = commentsOn(h, pr.number).filter((body) => body.includes('did not make'));
    expect(notes).toHaveLength(1);
  });

  it('adopts no pull request by its branch name: one someone else opened from a drift branch is left alone', async () => {
    const files = gitopsRepository();
    const h = await startAppHarness({ files });
    harness = h;
    h.standIn.addUser('ghp_mallory', 'mallory');
    const theirs = h.standIn.pushCommit({
      owner: h.owner,
      repo: h.repo,
      branch: BRANCH,
      files: { [FRONTEND]: 'replicas: 1 # mine\n' },
      login: 'mallory',
    });
    const mallory = createOctokit({ baseUrl: h.standIn.baseUrl, auth: 'ghp_mallory', retries: 0, log: QUIET });
    const { data: pr } = await mallory.rest.pulls.create({
      owner: h.owner,
      repo: h.repo,
      head: BRANCH,
      base: 'main',
      title: 'looks like a drift PR',
      body: "not the App's",
    });
    await upload(h, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:05:00Z');
    expect(pulls(h)).toHaveLength(1);
    expect(h.standIn.state.repo(h.owner, h.repo).issues.get(pr.number)!.body).toBe("not the App's");
    expect(commentsOn(h, pr.number)).toEqual([]);
    expect(h.standIn.headOf(h.owner, h.repo, BRANCH)).toBe(theirs);
    const state = await h.app.store.getState({ kind: 'cluster', repository: h.repository, cluster: CLUSTER });
    expect(state?.branches?.[BRANCH]).toMatchObject({
      foreign: { commits: [`pull request #${pr.number} by mallory`] },
    });
    expect(state?.branches?.[BRANCH]?.pullRequest).toBeUndefined();
    expect(state?.openPullRequests ?? []).toEqual([]);
  });

  it('does not reopen a PR closed without merge for the same drift, and proposes new drift again', async () => {
    const { h, live } = await startWithDrift();
    harness = h;
    const [pr] = pulls(h);
    const repoState = h.standIn.state.repo(h.owner, h.repo);
    repoState.issues.get(pr.number)!.state = 'closed';
    // The App closing its own PR (drift gone) is no decision; a person closing it is.
    const byBot = pullRequestClosedPayload(h, pr.number, BRANCH, false);
    expect(
      await sendWebhook(h, 'pull_request', {
        ...byBot,
        sender: { ...(byBot.sender as object), login: 'driftback[bot]', type: 'Bot' },
      }),
    ).toBe(200);
    expect((await h.app.store.declinedFingerprints(h.repository, CLUSTER)).size).toBe(0);
    expect(await sendWebhook(h, 'pull_request', pullRequestClosedPayload(h, pr.number, BRANCH, false))).toBe(200);
    expect((await h.app.store.declinedFingerprints(h.repository, CLUSTER)).size).toBe(1);
    await upload(h, scaled(live, 'frontend', 5), '2026-12-02T04:00:00Z');
    expect(pulls(h).filter((issue) => issue.state === 'open')).toHaveLength(0);
    // A different live value is a different fingerprint: proposed again.
    await upload(h, scaled(live, 'frontend', 9), '2026-12-02T05:00:00Z');
    const open = pulls(h).filter((issue) => issue.state === 'open');
    expect(open).toHaveLength(1);
    expect(h.standIn.readFile(h.owner, h.repo, BRANCH, FRONTEND)).toContain('replicas: 9');
  });
});

describe('reconcile: repository templates', () => {
  it("writes the drift PR body with the default branch's template, and names a file that is not a template", async () => {
    const files = {
      ...gitopsRepository(),
      '.github/driftback/templates/drift-pull-request.hbs':
        'Live changes: {{text headline}}.\n{{#each resources}}\n- {{code resource}}{{#each rows}} {{code field}}{{/each}}\n{{/each}}\n',
      '.github/driftback/templates/plan.hbs': '{{headline}}',
    };
    const h = await startAppHarness({ files });
    harness = h;
    await upload(h, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:05:00Z');
    const [pr] = pulls(h);
    expect(pr.body).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/plan\.hbs` was ignored: driftback renders no template of that name/,
    );
    expect(pr.body).toContain('Live changes: 1 object, 1 live change by kubectl-scale in');
    expect(pr.body).toContain('- `Deployment/shop/frontend` `spec.replicas`');
    expect(pr.body).not.toContain('Merge or close');
  });

  it('falls back to the built-in body, with a warning at its top, when the template does not render', async () => {
    const files = {
      ...gitopsRepository(),
      '.github/driftback/templates/drift-pull-request.hbs': '{{#each resources}}{{nosuchhelper resource}}{{/each}}',
    };
    const h = await startAppHarness({ files });
    harness = h;
    await upload(h, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:05:00Z');
    const [pr] = pulls(h);
    expect(pr.body).toMatch(
      /^> ⚠️ `\.github\/driftback\/templates\/drift-pull-request\.hbs` could not be used \(Missing helper: &quot;nosuchhelper&quot;\); this is the built-in template/,
    );
    expect(pr.body).toContain('Merge or close');
  });
});

// The reconcile loop under pressure: the API-call budget, snapshots racing, a restart with a job
// half done, installation webhooks for snapshots that arrived first.
import { isReadRoute } from '../support/github/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  drain,
  installationCreatedPayload,
  jobsLeft,
  repositoriesAddedPayload,
  sendWebhook,
  startAppHarness,
  uploadSnapshot,
  type AppHarness,
} from '../support/app.js';
import { appliedObjects, CLUSTER, gitopsRepository, manyDeployments, scaled, scaledMany, snapshotOf } from './live.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const BRANCH = `driftback/${CLUSTER}`;

function pulls(h: AppHarness) {
  return [...h.standIn.state.repo(h.owner, h.repo).issues.values()].filter((issue) => issue.pull);
}

async function upload(h: AppHarness, items: ReturnType<typeof appliedObjects>, capturedAt: string): Promise<void> {
  expect((await uploadSnapshot(h, snapshotOf(h.repository, items, capturedAt))).status).toBe(202);
  await drain(h);
}

/** Calls made by a PR update that touches `files` files, after the PR was opened. */
async function updateCalls(files: number): Promise<Record<string, number>> {
  const repository = manyDeployments(50);
  const h = await startAppHarness({ files: repository });
  try {
    const live = appliedObjects(repository);
    await upload(h, scaledMany(live, files, 2), '2026-12-02T03:00:00Z');
    expect(pulls(h)).toHaveLength(1);
    h.standIn.resetCalls();
    await upload(h, scaledMany(live, files, 3), '2026-12-02T03:10:00Z');
    const onBranch = h.standIn.readFiles(h.owner, h.repo, BRANCH);
    expect([...onBranch.values()].filter((text) => text.includes('replicas: 3'))).toHaveLength(files);
    return h.standIn.calls().byRoute;
  } finally {
    await h.close();
  }
}

describe('reconcile: call budget and resilience', () => {
  it('makes the same calls for a PR update touching 1 file and 50 files, 4 of them writes', async () => {
    const one = await updateCalls(1);
    const fifty = await updateCalls(50);
    expect(fifty).toEqual(one);
    const writes = Object.entries(one).filter(([route]) => !isReadRoute(route));
    expect(Object.fromEntries(writes)).toEqual({
      'POST /repos/{owner}/{repo}/git/trees': 1,
      'POST /repos/{owner}/{repo}/git/commits': 1,
      'PATCH /repos/{owner}/{repo}/git/refs/{ref}': 1,
      'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': 1,
    });
    // Blobs were cached by the first reconcile at this HEAD.
    expect(one['GET /repos/{owner}/{repo}/git/blobs/{file_sha}'] ?? 0).toBe(0);
  });

  it('opens one PR when two snapshots race', async () => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files });
    const live = appliedObjects(files);
    const [first, second] = await Promise.all([
      uploadSnapshot(harness, snapshotOf(harness.repository, scaled(live, 'frontend', 5), '2026-12-02T03:00:00Z')),
      uploadSnapshot(harness, snapshotOf(harness.repository, scaled(live, 'frontend', 6), '2026-12-02T03:00:30Z')),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 202]);
    await drain(harness);
    expect(pulls(harness)).toHaveLength(1);
    expect(harness.standIn.callsTo('POST /repos/{owner}/{repo}/pulls')).toBe(1);
    expect(
      harness.standIn.readFile(harness.owner, harness.repo, BRANCH, 'clusters/prod-eu/frontend-deployment.yaml'),
    ).toContain('replicas: 6');
  });

  it('converges after a restart with a job half done: one PR, the branch written once', async () => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files });
    // The branch is written, then opening the PR fails: the job waits for its retry.
    harness.standIn.injectFault({ route: 'POST /repos/{owner}/{repo}/pulls', kind: 'server-error' });
    expect(
      (
        await uploadSnapshot(
          harness,
          snapshotOf(harness.repository, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:00:00Z'),
        )
      ).status,
    ).toBe(202);
    while (harness.standIn.pendingFaults() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(harness.standIn.headOf(harness.owner, harness.repo, BRANCH)).toBeDefined();
    expect(pulls(harness)).toHaveLength(0);

    await harness.restart();
    expect(jobsLeft(harness, 'reconcile')).toBe(1);
    await drain(harness);
    expect(pulls(harness)).toHaveLength(1);
    expect(harness.standIn.callsTo('POST /repos/{owner}/{repo}/git/commits')).toBe(1);
  });

  it.each([
    ['installation', installationCreatedPayload],
    ['installation_repositories', repositoriesAddedPayload],
  ])('reconciles clusters whose snapshots arrived before the %s webhook', async (event, payloadOf) => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files });
    // A repository the App is not installed on yet (the stand-in does not know it).
    const newcomer = { ...harness, repo: 'newcomer', repository: `${harness.owner}/newcomer` };
    await upload(newcomer, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:00:00Z');
    const state = await harness.app.store.getState({
      kind: 'cluster',
      repository: newcomer.repository,
      cluster: CLUSTER,
    });
    expect(state?.outcome?.type).toBe('not-installed');

    harness.standIn.seedRepository({ owner: harness.owner, repo: 'newcomer', files });
    expect(await sendWebhook(harness, event, payloadOf(newcomer))).toBe(200);
    await drain(harness);
    expect(pulls(newcomer)).toHaveLength(1);
    expect(pulls(harness)).toHaveLength(0);
  });
});

// How the repository's config steers the reconcile: problems recorded for the dashboard, clusters
// not listed, the persistence gate, one PR per namespace; and what /metrics shows afterwards.
import { afterEach, describe, expect, it } from 'vitest';
import { drain, pushPayload, sendWebhook, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { appliedObjects, CLUSTER, CLUSTER_PATH, configText, gitopsRepository, scaled, snapshotOf } from './live.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function pulls(h: AppHarness) {
  return [...h.standIn.state.repo(h.owner, h.repo).issues.values()].filter((issue) => issue.pull);
}

async function upload(
  h: AppHarness,
  items: ReturnType<typeof appliedObjects>,
  capturedAt: string,
  cluster = CLUSTER,
): Promise<void> {
  expect((await uploadSnapshot(h, snapshotOf(h.repository, items, capturedAt, cluster))).status).toBe(202);
  await drain(h);
}

const WORKER = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: worker',
  '  namespace: jobs',
  'spec:',
  '  replicas: 2',
  '  selector:',
  '    matchLabels:',
  '      app: worker',
  '  template:',
  '    metadata:',
  '      labels:',
  '        app: worker',
  '    spec:',
  '      containers:',
  '        - name: worker',
  '          image: busybox:1.36',
  '',
].join('\n');

describe('reconcile and the repository config', () => {
  it('records config problems with file and line, writes nothing, and recovers once the config is fixed', async () => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files });
    const live = scaled(appliedObjects(files), 'frontend', 5);
    harness.standIn.pushCommit({
      owner: harness.owner,
      repo: harness.repo,
      branch: 'main',
      files: { '.github/driftback.yml': `${configText()}  minSnapshot: 2\n` },
    });
    await upload(harness, live, '2026-12-02T03:00:00Z');
    expect(pulls(harness)).toHaveLength(0);
    const state = await harness.app.store.getState({
      kind: 'cluster',
      repository: harness.repository,
      cluster: CLUSTER,
    });
    expect(state?.problems).toEqual([
      expect.objectContaining({
        file: '.github/driftback.yml',
        line: 7,
        message: expect.stringContaining('minSnapshot'),
      }),
    ]);
    expect(state?.outcome?.type).toBe('config-invalid');

    const fixed = harness.standIn.pushCommit({
      owner: harness.owner,
      repo: harness.repo,
      branch: 'main',
      files: { '.github/driftback.yml': configText() },
    });
    await sendWebhook(harness, 'push', pushPayload(harness, 'main', fixed));
    await drain(harness);
    expect(pulls(harness)).toHaveLength(1);
    expect(
      (await harness.app.store.getState({ kind: 'cluster', repository: harness.repository, cluster: CLUSTER }))
        ?.problems,
    ).toEqual([]);
  });

  it('says which cluster is not configured, and proposes nothing for it', async () => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files });
    await upload(harness, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:00:00Z', 'staging');
    expect(pulls(harness)).toHaveLength(0);
    const state = await harness.app.store.getState({
      kind: 'cluster',
      repository: harness.repository,
      cluster: 'staging',
    });
    expect(state?.outcome).toEqual({
      type: 'not-configured',
      message: expect.stringContaining('add it under clusters'),
    });
  });

  it('waits for minSnapshots consecutive snapshots before proposing drift', async () => {
    const files = gitopsRepository(configText().replace('minSnapshots: 1', 'minSnapshots: 2'));
    harness = await startAppHarness({ files });
    const live = scaled(appliedObjects(files), 'frontend', 5);
    await upload(harness, live, '2026-12-02T03:00:00Z');
    expect(pulls(harness)).toHaveLength(0);
    expect(
      (await harness.app.store.getState({ kind: 'cluster', repository: harness.repository, cluster: CLUSTER }))?.drift
        ?.pending,
    ).toBe(1);
    await upload(harness, live, '2026-12-02T03:05:00Z');
    expect(pulls(harness)).toHaveLength(1);
  });

  it('opens one PR per namespace with groupBy: namespace, and shows the drift on /metrics', async () => {
    const files = {
      ...gitopsRepository(configText('pullRequests:\n  groupBy: namespace\n  labels: [driftback, gitops]\n')),
      [`${CLUSTER_PATH}/worker.yaml`]: WORKER,
    };
    harness = await startAppHarness({ files });
    const live = appliedObjects(files);
    await upload(harness, scaled(scaled(live, 'frontend', 5), 'worker', 4), '2026-12-02T03:00:00Z');
    const heads = pulls(harness)
      .map((pr) => pr.pull?.head)
      .sort();
    expect(heads).toEqual([`driftback/${CLUSTER}/jobs`, `driftback/${CLUSTER}/shop`]);
    expect(pulls(harness).every((pr) => pr.labels.join() === 'driftback,gitops')).toBe(true);
    expect(
      harness.standIn.readFile(harness.owner, harness.repo, `driftback/${CLUSTER}/jobs`, `${CLUSTER_PATH}/worker.yaml`),
    ).toContain('replicas: 4');
    expect(
      harness.standIn.readFile(
        harness.owner,
        harness.repo,
        `driftback/${CLUSTER}/jobs`,
        `${CLUSTER_PATH}/frontend-deployment.yaml`,
      ),
    ).toContain('replicas: 3');

    const metrics = await (await fetch(`${harness.baseUrl}/metrics`)).text();
    expect(metrics).toContain(
      `driftback_drift_resources{repository="${harness.repository}",cluster="${CLUSTER}",cause="human"} 2`,
    );
    expect(metrics).toMatch(
      /driftback_github_requests_total\{route="POST \/repos\/\{owner\}\/\{repo\}\/pulls",status="201"\} 2/,
    );
    expect(metrics).toMatch(/driftback_github_rate_limit_remaining \d+/);
    const state = await harness.app.store.getState({
      kind: 'cluster',
      repository: harness.repository,
      cluster: CLUSTER,
    });
    expect(state?.openPullRequests).toHaveLength(2);
    expect(state?.lastReconcileAt).toBeDefined();
  });
});

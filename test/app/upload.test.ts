// The upload API end to end against the running App: tokens, content types, validation, the size
// cap enforced while inflating, rate limits, idempotency by digest, stale snapshots, status route.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  drain,
  postSnapshot,
  startAppHarness,
  tokenFor,
  uploadHeaders,
  uploadSnapshot,
  type AppHarness,
} from '../support/app.js';
import { appliedObjects, CLUSTER, gitopsRepository, snapshotOf } from './live.js';

let harness: AppHarness;
const files = gitopsRepository();
beforeAll(async () => {
  harness = await startAppHarness({ files, uploadsPerMinute: 6, maxSnapshotBytes: 4 * 1024 * 1024 });
});
afterAll(async () => harness?.close());

const json = (token: string, cluster = 'staging') => ({
  ...uploadHeaders(harness.repository, cluster),
  authorization: `Bearer ${token}`,
});

describe('POST /api/v1/snapshots', () => {
  it('answers 401 for a missing token, a bad token, and the token of another cluster', async () => {
    const body = JSON.stringify(snapshotOf(harness.repository, [], '2026-12-02T01:00:00Z', 'staging'));
    expect((await postSnapshot(harness, body, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await postSnapshot(harness, body, json('not-a-token'))).status).toBe(401);
    const other = await postSnapshot(harness, body, json(tokenFor(harness.repository, 'prod-us')));
    expect(other.status).toBe(401);
    expect(String(other.body.error)).toContain('driftback token --repository');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await postSnapshot(harness, 'items: []', {
      ...json(tokenFor(harness.repository, 'staging')),
      'content-type': 'text/yaml',
    });
    expect(response.status).toBe(415);
  });

  it('answers 400 with every problem and its path', async () => {
    const document = {
      ...snapshotOf(
        harness.repository,
        [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }],
        'yesterday',
        'staging',
      ),
    };
    const response = await postSnapshot(
      harness,
      JSON.stringify(document),
      json(tokenFor(harness.repository, 'staging')),
    );
    expect(response.status).toBe(400);
    const paths = (response.body.problems as Array<{ path: string }>).map((problem) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['capturedAt', 'items[0].metadata.name']));
  });

  it('refuses a gzip bomb (1 GiB of zeros) with 413, reading no more than the cap', async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    // Concatenated gzip members are one valid stream: 1,024 MiB once inflated.
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    const response = await postSnapshot(harness, bomb, {
      ...json(tokenFor(harness.repository, 'staging')),
      'content-encoding': 'gzip',
    });
    expect(response.status).toBe(413);
    expect(String(response.body.error)).toContain('MAX_SNAPSHOT_BYTES');
  });

  it('stores a gzip upload (202), gives a duplicate the same id, refuses an older one with 409, and reports status', async () => {
    const token = tokenFor(harness.repository, CLUSTER);
    const newer = snapshotOf(harness.repository, appliedObjects(files), '2026-12-02T03:00:00Z');
    const first = await postSnapshot(harness, gzipSync(JSON.stringify(newer)), {
      ...json(token, CLUSTER),
      'content-encoding': 'gzip',
    });
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('queued');
    const again = await postSnapshot(harness, gzipSync(JSON.stringify(newer)), {
      ...json(token, CLUSTER),
      'content-encoding': 'gzip',
    });
    expect(again.body).toEqual({ id: first.body.id, status: 'duplicate' });
    const older = await uploadSnapshot(harness, snapshotOf(harness.repository, [], '2026-12-02T02:00:00Z'));
    expect(older.status).toBe(409);
    expect(older.body.status).toBe('stale');
    await drain(harness);

    const status = await fetch(`${harness.baseUrl}/api/v1/clusters/${harness.repository}/${CLUSTER}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({
      repository: harness.repository,
      cluster: CLUSTER,
      latest: { id: first.body.id, capturedAt: '2026-12-02T03:00:00Z', items: 6 },
    });
    const foreign = await fetch(`${harness.baseUrl}/api/v1/clusters/${harness.repository}/${CLUSTER}`, {
      headers: { authorization: `Bearer ${tokenFor(harness.repository, 'staging')}` },
    });
    expect(foreign.status).toBe(401);
  });

  // DRIFTBACK_UPLOADS_PER_MINUTE=6 allows a burst of 3.
  it('answers 429 with Retry-After once a cluster uploads too often', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let minute = 0; minute < 4; minute++) {
      const response = await uploadSnapshot(
        harness,
        snapshotOf(harness.repository, [], `2026-12-02T05:0${minute}:00Z`, 'burst'),
      );
      statuses.push(response.status);
      retryAfter ??= response.headers.get('retry-after');
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

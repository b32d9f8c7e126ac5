// Bad uploads against the real App on loopback: each gets the HTTP answer that says what to change,
// nothing stored is lost or overwritten, and the process keeps serving valid uploads afterwards.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  get,
  gzipBomb,
  hugeJsonStream,
  uploadHeaders,
  post,
  snapshotDocument,
  startTestApp,
  tokenFor,
  type TestApp,
} from './upload-support.js';

const REPOSITORY = 'acme/platform-gitops';
const MiB = 1024 * 1024;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

function upload(document: Record<string, unknown>, gzip = true) {
  const cluster = String(document.cluster);
  const json = Buffer.from(JSON.stringify(document));
  return post(app.url, { headers: uploadHeaders(REPOSITORY, cluster, gzip), body: gzip ? gzipSync(json) : json });
}

function status(cluster: string) {
  return get(app.url, `/api/v1/clusters/${REPOSITORY}/${cluster}`, tokenFor(REPOSITORY, cluster));
}

describe('bad uploads are refused with an answer that says what to change', () => {
  it('a truncated gzip body: 400 naming the corrupt stream', async () => {
    const whole = gzipSync(JSON.stringify(snapshotDocument({ cluster: 'truncated' })));
    const answer = await post(app.url, {
      headers: uploadHeaders(REPOSITORY, 'truncated', true),
      body: whole.subarray(0, whole.length - 20),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/gzip body is corrupt or truncated.*send the complete gzip stream/);
    expect((await status('truncated')).body.latest).toBeNull();
  });

  it('a gzip bomb (1 GiB of zeros in ~1 MiB): 413 after the size cap, never inflated whole', async () => {
    const bomb = await gzipBomb(1024 * MiB);
    expect(bomb.length).toBeLessThan(2 * MiB);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const answer = await post(app.url, { headers: uploadHeaders(REPOSITORY, 'bomb', true), body: bomb });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/larger than 67108864 bytes decompressed \(MAX_SNAPSHOT_BYTES\)/);
    // The cap is 64 MiB of output; inflating the bomb would take 1 GiB.
    expect(peak - before).toBeLessThan(300 * MiB);
  });

  it.each([
    ['text/plain', 'Content-Type text/plain is not accepted: send application/json'],
    ['application/x-www-form-urlencoded', 'Content-Type application/x-www-form-urlencoded is not accepted'],
    ['', 'Content-Type (none) is not accepted'],
  ])('content type %j: 415', async (contentType, message) => {
    const headers = { ...uploadHeaders(REPOSITORY, 'prod-eu'), 'content-type': contentType };
    const answer = await post(app.url, { headers, body: Buffer.from(JSON.stringify(snapshotDocument())) });
    expect(answer.status).toBe(415);
    expect(answer.body.error).toContain(message);
  });

  it('a 100 MB JSON body streamed without a length: 413 while streaming', async () => {
    const answer = await post(app.url, {
      headers: uploadHeaders(REPOSITORY, 'huge'),
      body: hugeJsonStream(100 * 1000 * 1000),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/MAX_SNAPSHOT_BYTES.*narrow the agent's scope/);
    expect((await status('huge')).body.latest).toBeNull();
  });

  it('a 100 MB JSON body with its Content-Length declared: 413 before reading it', async () => {
    const answer = await post(app.url, {
      headers: { ...uploadHeaders(REPOSITORY, 'huge'), 'content-length': String(100 * 1000 * 1000) },
      body: hugeJsonStream(100 * 1000 * 1000),
    });
    expect(answer.status).toBe(413);
  });

  it.each([
    ['nested arrays as the document', /^\[0\]\[0\]/, () => '['.repeat(100_000) + ']'.repeat(100_000)],
    [
      'nested objects inside an item',
      /^items\[0\]\.spec\.a/,
      () =>
        JSON.stringify(snapshotDocument({ cluster: 'nested' })).replace(
          '"spec":{"replicas":3}',
          `"spec":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
        ),
    ],
  ])('deeply nested JSON (%s): 400 with the path where it gets too deep', async (_case, prefix, text) => {
    const answer = await post(app.url, { headers: uploadHeaders(REPOSITORY, 'nested', true), body: gzipSync(text()) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('the snapshot does not match driftback.dev/v1');
    expect(answer.body.problems).toEqual([
      { path: expect.stringMatching(prefix), message: expect.stringMatching(/nested more than 200 levels deep/) },
    ]);
    expect((await status('nested')).body.latest).toBeNull();
  });

  it('invalid JSON: 400 with the parser message', async () => {
    const answer = await post(app.url, {
      headers: uploadHeaders(REPOSITORY, 'prod-eu'),
      body: Buffer.from('{"apiVersion": "driftback.dev/v1",'),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^invalid JSON: /);
  });

  it('a document of the wrong schema: 400 listing every problem with its path', async () => {
    const wrong = {
      ...snapshotDocument(),
      apiVersion: 'driftback.dev/v0',
      capturedAt: 'yesterday',
      scope: {},
      items: [{ kind: 'Deployment', metadata: {} }],
    };
    const answer = await upload(wrong);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('the snapshot does not match driftback.dev/v1');
    const paths = (answer.body.problems as Array<{ path: string; message: string }>).map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'apiVersion',
        'capturedAt',
        'scope.complete',
        'items[0].apiVersion',
        'items[0].metadata.name',
      ]),
    );
  });

  it('a token for another cluster: 401 saying how to create the right one', async () => {
    const json = gzipSync(JSON.stringify(snapshotDocument({ cluster: 'prod-us' })));
    const answer = await post(app.url, {
      headers: uploadHeaders(REPOSITORY, 'prod-us', true, tokenFor(REPOSITORY, 'prod-eu')),
      body: json,
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toContain('driftback token --repository acme/platform-gitops --cluster prod-us');
  });
});

describe('state survives bad input', () => {
  it('a replayed older snapshot: 409, and the latest state stays the newer one', async () => {
    const newer = await upload(snapshotDocument({ cluster: 'replay', capturedAt: '2026-12-02T03:05:00Z' }));
    expect(newer.status).toBe(202);
    const older = await upload(snapshotDocument({ cluster: 'replay', capturedAt: '2026-12-02T02:00:00Z', items: [] }));
    expect(older.status).toBe(409);
    expect(older.body).toMatchObject({
      status: 'stale',
      error: expect.stringMatching(/older than the latest snapshot.*does not replace newer state/),
    });
    const latest = (await status('replay')).body.latest as Record<string, unknown>;
    expect(latest).toMatchObject({ id: newer.body.id, capturedAt: '2026-12-02T03:05:00Z', items: 1 });
  });

  it('a repository the App is not installed on is accepted at ingest (reconcile reports it)', async () => {
    const answer = await post(app.url, {
      headers: uploadHeaders('nobody/not-installed', 'prod-eu', true),
      body: gzipSync(JSON.stringify(snapshotDocument({ repository: 'nobody/not-installed' }))),
    });
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('queued');
  });

  it('after all of the above, the same process still stores a valid upload', async () => {
    const answer = await upload(snapshotDocument({ cluster: 'after', capturedAt: '2026-12-02T04:00:00Z' }));
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ status: 'queued', id: expect.anything() });
    expect((await status('after')).body.latest).toMatchObject({ id: answer.body.id, items: 1 });
  });
});

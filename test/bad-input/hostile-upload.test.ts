// Uploads built to harm the App or other tenants, against the real App on loopback: each is refused
// with an answer that says what to change, nothing stored is lost, and honest uploads still go through.
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, uploadHeaders, post, snapshotDocument, startTestApp, tokenFor, type TestApp } from './upload-support.js';

const REPOSITORY = 'acme/platform-gitops';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

function upload(document: Record<string, unknown>) {
  const cluster = String(document.cluster);
  return post(app.url, { headers: uploadHeaders(REPOSITORY, cluster, true), body: gzipSync(JSON.stringify(document)) });
}

function status(cluster: string) {
  return get(app.url, `/api/v1/clusters/${REPOSITORY}/${cluster}`, tokenFor(REPOSITORY, cluster));
}

const minutesFromNow = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString();

describe('a snapshot from the future', () => {
  it('is refused with the path and the allowance, so it cannot freeze the cluster', async () => {
    const honest = minutesFromNow(-10);
    expect((await upload(snapshotDocument({ cluster: 'future', capturedAt: honest }))).status).toBe(202);
    const answer = await upload(snapshotDocument({ cluster: 'future', capturedAt: '2099-01-01T00:00:00Z' }));
    expect(answer.status).toBe(400);
    expect(answer.body.problems).toEqual([
      {
        path: 'capturedAt',
        message: expect.stringMatching(
          /^2099-01-01T00:00:00Z is \d+ minutes after the App received it .*beyond the 5-minute clock-skew allowance: set the cluster's clock right \(NTP\)/,
        ),
      },
    ]);
    expect((await status('future')).body.latest).toMatchObject({ capturedAt: honest });
    // The next honest upload still replaces the state.
    const next = minutesFromNow(-1);
    expect((await upload(snapshotDocument({ cluster: 'future', capturedAt: next }))).status).toBe(202);
    expect((await status('future')).body.latest).toMatchObject({ capturedAt: next });
  });

  it('a clock a few minutes ahead is within the allowance', async () => {
    expect((await upload(snapshotDocument({ cluster: 'skewed', capturedAt: minutesFromNow(4) }))).status).toBe(202);
  });

  it('a snapshot from a clock ahead does not make the honest uploads after it stale', async () => {
    const ahead = minutesFromNow(4);
    expect((await upload(snapshotDocument({ cluster: 'ahead', capturedAt: ahead }))).status).toBe(202);
    // A replay captured before the skewed one was received is still older: stored stale, not used.
    const replay = await upload(snapshotDocument({ cluster: 'ahead', capturedAt: minutesFromNow(-10) }));
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatch(/is older than the latest snapshot \(received .*its capturedAt .* was ahead/);
    // Ordered by when the App received it: the next honest capture is newer, whatever the clocks say.
    const honest = new Date().toISOString();
    expect((await upload(snapshotDocument({ cluster: 'ahead', capturedAt: honest }))).status).toBe(202);
    expect((await status('ahead')).body.latest).toMatchObject({ capturedAt: honest });
  });
});

const MiB = 1024 * 1024;

/**
 * A valid snapshot of about `totalBytes`, generated as it is sent; `pulled()` is how much of it the
 * connection has taken so far, `length` its exact size, and `hold` pauses it half way until it settles.
 */
function metered(
  cluster: string,
  totalBytes: number,
  hold?: Promise<void>,
): { body: Readable; pulled: () => number; length: number } {
  const item = (i: number) =>
    Buffer.from(
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c${String(i).padStart(6, '0')}","namespace":"x"},"data":{"k":"${'x'.repeat(64 * 1024)}"}}`,
    );
  const head = Buffer.from(
    `{"apiVersion":"driftback.dev/v1","kind":"Snapshot","repository":"${REPOSITORY}","cluster":"${cluster}","capturedAt":"${minutesFromNow(-1)}","scope":{"complete":true},"items":[`,
  );
  const count = Math.ceil((totalBytes - head.length) / (item(0).length + 1));
  const length = head.length + count * item(0).length + (count - 1) + 2;
  let pulled = 0;
  const body = Readable.from(
    (async function* () {
      pulled += head.length;
      yield head;
      for (let i = 0; i < count; i++) {
        if (hold && pulled >= totalBytes / 2) await hold;
        const chunk = Buffer.concat([i > 0 ? Buffer.from(',') : Buffer.alloc(0), item(i)]);
        pulled += chunk.length;
        yield chunk;
      }
      yield Buffer.from(']}');
    })(),
  );
  return { body, pulled: () => pulled, length };
}

describe('authentication comes before the body', () => {
  it('an upload that does not say whom its token is for is refused before its body is read', async () => {
    const { body, pulled } = metered('prod-eu', 60 * MiB);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${tokenFor(REPOSITORY, 'prod-eu')}` };
    const answer = await post(app.url, { headers, body });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatch(
      /send the snapshot's repository and cluster as X-Driftback-Repository and X-Driftback-Cluster headers/,
    );
    expect(pulled()).toBeLessThan(16 * MiB);
  });

  it('a body for another cluster than its headers and token is refused with the paths', async () => {
    const document = snapshotDocument({ cluster: 'prod-us', capturedAt: minutesFromNow(-1) });
    const answer = await post(app.url, {
      headers: uploadHeaders(REPOSITORY, 'prod-eu', true),
      body: gzipSync(JSON.stringify(document)),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.problems).toEqual([
      {
        path: 'cluster',
        message: expect.stringMatching(/^is prod-us, but X-Driftback-Cluster and the token are for prod-eu/),
      },
    ]);
  });
});

describe('failed authentications are limited per client address', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await startTestApp({ DRIFTBACK_TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  const from = (address: string, token: string) =>
    post(proxied.url, {
      headers: { ...uploadHeaders(REPOSITORY, 'prod-eu', true, token), 'x-forwarded-for': `10.0.0.1, ${address}` },
      body: gzipSync(JSON.stringify(snapshotDocument({ capturedAt: minutesFromNow(-1) }))),
    });

  it('24 concurrent 60 MiB uploads with a wrong token are refused unread, and /ping answers meanwhile', async () => {
    const uploads = Array.from({ length: 24 }, (_, i) => metered(`wrong-${i}`, 60 * MiB));
    const answers = uploads.map(({ body }, i) =>
      post(proxied.url, {
        headers: {
          ...uploadHeaders(REPOSITORY, `wrong-${i}`, false, 'dbk_' + 'A'.repeat(43)),
          'x-forwarded-for': '192.0.2.99',
        },
        body,
      }),
    );
    const ping = await fetch(`${proxied.url}/ping`);
    expect(ping.status).toBe(200);
    const statuses = (await Promise.all(answers)).map((answer) => answer.status);
    // The first ten are told the token is wrong; after that the address itself is refused.
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(14);
    // What a client got into socket buffers before the answer, never the 60 MiB.
    for (const { pulled } of uploads) expect(pulled()).toBeLessThan(16 * MiB);
  });

  it('after 10 failures an address gets 429 with Retry-After, whatever it sends; other addresses are served', async () => {
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', `dbk_guess${i}`)).status).toBe(401);
    const blocked = await from('203.0.113.7', tokenFor(REPOSITORY, 'prod-eu'));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.error).toMatch(/too many failed authentications from 203\.0\.113\.7: retry after \d+s/);
    expect((await from('198.51.100.9', tokenFor(REPOSITORY, 'prod-eu'))).status).toBe(202);
  });

  it("entries a client writes left of the proxy's own do not give it a new address", async () => {
    const spoofed = (i: number) =>
      post(proxied.url, {
        headers: {
          ...uploadHeaders(REPOSITORY, 'spoofing', true, `dbk_guess${i}`),
          'x-forwarded-for': `192.0.2.${i}, 203.0.113.20`,
        },
        body: gzipSync(JSON.stringify(snapshotDocument({ cluster: 'spoofing', capturedAt: minutesFromNow(-1) }))),
      });
    for (let i = 0; i < 10; i++) expect((await spoofed(i)).status).toBe(401);
    const blocked = await spoofed(10);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/too many failed authentications from 203\.0\.113\.20/);
  });

  it('guesses for one cluster from many addresses are limited per cluster; its own token still goes through', async () => {
    const claiming = (address: string, cluster: string, token: string) =>
      post(proxied.url, {
        headers: { ...uploadHeaders(REPOSITORY, cluster, true, token), 'x-forwarded-for': address },
        body: gzipSync(JSON.stringify(snapshotDocument({ cluster, capturedAt: minutesFromNow(-1) }))),
      });
    for (let i = 0; i < 10; i++) expect((await claiming(`198.18.0.${i}`, 'guarded', `dbk_guess${i}`)).status).toBe(401);
    const blocked = await claiming('198.18.1.1', 'guarded', 'dbk_guess10');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.error).toMatch(
      /too many failed authentications for repository acme\/platform-gitops cluster guarded: retry after \d+s/,
    );
    expect((await claiming('198.18.1.2', 'guarded', tokenFor(REPOSITORY, 'guarded'))).status).toBe(202);
    expect((await claiming('198.18.1.3', 'other', 'dbk_guess11')).status).toBe(401);
  });
});

describe('bodies read at once are bounded', () => {
  let narrow: TestApp;
  beforeAll(async () => {
    // Two bodies read (and parsed) at once: DRIFTBACK_INGEST_CONCURRENCY=1 doubled.
    narrow = await startTestApp({ DRIFTBACK_INGEST_CONCURRENCY: '1' });
  });
  afterAll(async () => {
    await narrow?.close();
  });

  it('a third authenticated upload waits, unread, while two are being read; then all three are stored', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const slow = ['slow-a', 'slow-b'].map((cluster) => metered(cluster, 24 * MiB, hold));
    const waiting = metered('waiting', 24 * MiB);
    const sized = (cluster: string, length: number) => ({
      ...uploadHeaders(REPOSITORY, cluster),
      'content-length': String(length),
    });
    const answers = slow.map(({ body, length }, i) =>
      post(narrow.url, { headers: sized(['slow-a', 'slow-b'][i], length), body }),
    );
    while (slow.some(({ pulled }) => pulled() < 12 * MiB)) await new Promise((resolve) => setTimeout(resolve, 20));
    const third = post(narrow.url, { headers: sized('waiting', waiting.length), body: waiting.body });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Only what fits in socket buffers has left the client: the App is not reading it.
    expect(waiting.pulled()).toBeLessThan(16 * MiB);
    release();
    for (const answer of await Promise.all([...answers, third])) expect(answer.status).toBe(202);
    expect(waiting.pulled()).toBeGreaterThan(24 * MiB);
  }, 60_000);
});

describe('keys that name Object.prototype members', () => {
  it('a snapshot with a __proto__ key under binaryData is refused with its path; the App keeps serving', async () => {
    const text = JSON.stringify(snapshotDocument({ cluster: 'proto', capturedAt: minutesFromNow(-1) })).replace(
      '"spec":{"replicas":3}',
      '"spec":{"replicas":3}},{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"x"},"binaryData":{"__proto__":{"polluted":"yes"}}',
    );
    const answer = await post(app.url, { headers: uploadHeaders(REPOSITORY, 'proto', true), body: gzipSync(text) });
    expect(answer.status).toBe(400);
    expect(answer.body.problems).toEqual([
      { path: 'items[1].binaryData.__proto__', message: expect.stringMatching(/^the key "__proto__" is refused/) },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await status('proto')).body.latest).toBeNull();
    expect((await upload(snapshotDocument({ cluster: 'proto', capturedAt: minutesFromNow(-1) }))).status).toBe(202);
  });
});

describe('names no API server would accept', () => {
  // DESIGN "Upload API": one bad object is listed and skipped, never fails the rest.
  it.each([
    [
      { name: 'x/../../prod-us/backdoor', namespace: 'checkout' },
      'items[0].metadata.name',
      /is not a valid Deployment name: it must be a lowercase RFC 1123 subdomain/,
      true,
    ],
    [
      { name: 'api', namespace: '../../.github/workflows' },
      'items[0].metadata.namespace',
      /is not a namespace name: it must be a lowercase RFC 1123 label/,
      false,
    ],
  ])('%j is listed with its path, and the snapshot is stored', async (metadata, path, message, compared) => {
    const cluster = compared ? 'names' : 'namespaces';
    const items = [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { ...metadata, managedFields: [] },
        spec: { replicas: 3 },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fine', namespace: 'checkout' }, data: {} },
    ];
    const answer = await upload(snapshotDocument({ cluster, capturedAt: minutesFromNow(-1), items }));
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('queued');
    expect(answer.body.skipped).toEqual([
      {
        path,
        id: { group: 'apps', kind: 'Deployment', namespace: metadata.namespace, name: metadata.name },
        message: expect.stringMatching(message),
        compared,
      },
    ]);
    expect((await status(cluster)).body.latest).toMatchObject({ items: 2 });
  });
});

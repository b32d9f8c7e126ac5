// Uploads built to harm the App or other tenants, against the real App on loopback: each is refused
// with an answer that says what to change, nothing stored is lost, and honest uploads still go through.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, jsonHeaders, post, snapshotDocument, startTestApp, tokenFor, type TestApp } from './upload-support.js';

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
  return post(app.url, { headers: jsonHeaders(tokenFor(REPOSITORY, cluster), true), body: gzipSync(JSON.stringify(document)) });
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
    expect(answer.body.problems).toEqual([{ path: 'capturedAt', message: expect.stringMatching(/^2099-01-01T00:00:00Z is \d+ minutes after the App received it .*beyond the 5-minute clock-skew allowance: set the cluster's clock right \(NTP\)/) }]);
    expect((await status('future')).body.latest).toMatchObject({ capturedAt: honest });
    // The next honest upload still replaces the state.
    const next = minutesFromNow(-1);
    expect((await upload(snapshotDocument({ cluster: 'future', capturedAt: next }))).status).toBe(202);
    expect((await status('future')).body.latest).toMatchObject({ capturedAt: next });
  });

  it('a clock a few minutes ahead is within the allowance', async () => {
    expect((await upload(snapshotDocument({ cluster: 'skewed', capturedAt: minutesFromNow(4) }))).status).toBe(202);
  });
});

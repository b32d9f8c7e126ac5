// Uploading a spooled snapshot to the App's route: retries on 5xx, 429 and Retry-After, and a
// message for each refusal that says what to change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/agent/retry.js';
import { uploadSnapshot } from '../../src/agent/upload.js';
import { FAST_RETRY, fastTiming } from './helpers.js';
import { startUploadSink, type ScriptedAnswer, type UploadSink } from './sink.js';

const DOCUMENT = '{"apiVersion":"driftback.dev/v1","kind":"Snapshot","items":[],"scope":{"complete":true,"errors":[]}}';

function spooledFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'driftback-upload-')), 'snapshot.json.gz');
  writeFileSync(file, gzipSync(DOCUMENT));
  return file;
}

let sink: UploadSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

async function upload(script: ScriptedAnswer[]) {
  sink = await startUploadSink(script);
  const timing = fastTiming();
  const lines: string[] = [];
  const result = await uploadSnapshot({
    url: new URL(sink.url + '/base'),
    token: 'dbk_token',
    repository: 'acme/platform-gitops',
    cluster: 'prod-eu',
    file: spooledFile(),
    timing,
    deadlineMs: Date.now() + 60_000,
    requestTimeoutMs: 5_000,
    retry: FAST_RETRY,
    log: (line) => lines.push(line),
  });
  return { result, waits: timing.waits, lines, received: sink.received };
}

describe('uploading a snapshot', () => {
  it('posts the gzip body with the bearer token, whom it is for (checked before the body) and content headers', async () => {
    const { result, received } = await upload([{ code: 202, body: { id: 'snap-1', status: 'queued' } }]);
    expect(result).toEqual({ type: 'accepted', id: 'snap-1', status: 'queued', attempts: 1, skipped: [] });
    expect(received[0]).toMatchObject({ method: 'POST', path: '/base/api/v1/snapshots', body: DOCUMENT });
    expect(received[0].headers).toMatchObject({
      authorization: 'Bearer dbk_token',
      'x-driftback-repository': 'acme/platform-gitops',
      'x-driftback-cluster': 'prod-eu',
      'content-encoding': 'gzip',
      'content-type': 'application/json',
    });
  });

  it('hands on the objects the App listed as never written as files', async () => {
    const skipped = [
      { path: 'items[3].metadata.name', id: {}, message: '"ops\\nadmin" cannot be a file name', compared: true },
    ];
    const { result } = await upload([{ code: 202, body: { id: 'snap-3', status: 'queued', skipped } }]);
    expect(result).toMatchObject({
      type: 'accepted',
      skipped: ['items[3].metadata.name: "ops\\nadmin" cannot be a file name'],
    });
  });

  it('retries 503 with backoff and 429 after its Retry-After', async () => {
    const { result, waits, received } = await upload([
      { code: 503, body: { message: 'busy' } },
      { code: 429, headers: { 'Retry-After': '7' } },
      { code: 202, body: { id: 'snap-2', status: 'queued' } },
    ]);
    expect(result).toMatchObject({ type: 'accepted', id: 'snap-2', attempts: 3 });
    expect(received).toHaveLength(3);
    expect(received.every((r) => r.body === DOCUMENT)).toBe(true);
    expect(waits[1]).toBe(7_000);
    expect(waits[0]).toBeLessThan(FAST_RETRY.maxDelayMs);
  });

  it('gives up after the last attempt on repeated 5xx', async () => {
    const { result, received } = await upload([{ code: 500, body: { message: 'down' } }]);
    expect(result.type).toBe('failed');
    expect(received).toHaveLength(FAST_RETRY.attempts);
  });

  it.each([
    {
      code: 401,
      expected: [
        'repository acme/platform-gitops cluster prod-eu',
        '`driftback token --repository acme/platform-gitops --cluster prod-eu`',
        'DRIFTBACK_TOKEN_SECRET',
      ],
    },
    { code: 413, expected: ['MAX_SNAPSHOT_BYTES', 'DRIFTBACK_NAMESPACES'] },
    {
      code: 400,
      body: { problems: [{ path: 'items[3].metadata.name', message: 'metadata.name is required' }] },
      expected: ['items[3].metadata.name: metadata.name is required'],
    },
  ])('does not retry a $code and says what to change', async ({ code, body, expected }) => {
    const { result, received } = await upload([{ code, body }]);
    expect(received).toHaveLength(1);
    expect(result).toMatchObject({ type: 'rejected', code });
    for (const part of expected) expect(result.type === 'rejected' && result.message).toContain(part);
  });
});

describe('Retry-After', () => {
  it.each([
    { header: '120', expected: 120_000 },
    { header: 'Wed, 02 Dec 2026 03:00:30 GMT', expected: 30_000 },
    { header: 'soon', expected: undefined },
    { header: undefined, expected: undefined },
  ])('$header → $expected ms', ({ header, expected }) => {
    expect(parseRetryAfter(header, Date.parse('2026-12-02T03:00:00Z'))).toBe(expected);
  });
});

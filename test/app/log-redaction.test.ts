// Logs never carry a credential: Probot's HTTP request log (pino-http, at info) and the App's own
// lines show requests and errors with their authorization and cookie headers redacted.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/app/logger.js';
import { drain, startAppHarness, tokenFor, uploadSnapshot, type AppHarness } from '../support/app.js';
import { appliedObjects, gitopsRepository, snapshotOf } from './live.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function collector(): { stream: Writable; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

describe('log redaction', () => {
  it('the HTTP request log shows uploads and requests without their token or cookie', async () => {
    const logs = collector();
    const files = gitopsRepository();
    harness = await startAppHarness({ files, env: { logLevel: 'info' }, logDestination: logs.stream });
    const snapshot = snapshotOf(harness.repository, appliedObjects(files), '2026-12-02T03:05:00Z');
    const token = tokenFor(snapshot.repository, snapshot.cluster);
    expect((await uploadSnapshot(harness, snapshot, token)).status).toBe(202);
    await drain(harness);
    const ping = await fetch(`${harness.baseUrl}/ping`, {
      headers: { cookie: 'session=cookie-value-0123', authorization: 'Basic dXNlcjpwYXNzd29yZA==' },
    });
    await ping.text();

    const lines = logs.lines();
    const requests = lines.filter((line) => line.includes('"name":"http"'));
    // The request log is there, with its headers: only the credentials are gone.
    expect(requests.some((line) => line.includes('POST /api/v1/snapshots 202'))).toBe(true);
    expect(requests.some((line) => line.includes('GET /ping 200') && line.includes('"cookie":"[redacted]"'))).toBe(
      true,
    );
    expect(
      requests.some(
        (line) => line.includes('"authorization":"[redacted]"') && line.includes('"content-type":"application/json"'),
      ),
    ).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.slice(4));
    expect(all).not.toContain('cookie-value-0123');
    expect(all).not.toContain('dXNlcjpwYXNzd29yZA==');
  });

  it.each([
    ['a request', { req: { method: 'GET', headers: { authorization: 'Bearer dbk_secret', cookie: 'a=b' } } }],
    [
      'an error with its request',
      { err: { message: 'boom', request: { headers: { authorization: 'token ghs_secret' } } } },
    ],
    ['top-level headers', { headers: { authorization: 'Bearer dbk_secret', 'set-cookie': 'a=b' } }],
  ])("the App's own lines redact %s", (_name, fields) => {
    const logs = collector();
    createLogger('info', logs.stream).info(fields, 'logged');
    const [line] = logs.lines();
    expect(line).toContain('"logged"');
    expect(line).not.toMatch(/dbk_secret|ghs_secret|a=b/);
    expect(line).toContain('[redacted]');
  });
});

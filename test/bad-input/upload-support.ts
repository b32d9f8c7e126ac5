// Starts the real App (SQLite in a temp DATA_DIR) on loopback and posts uploads to it the way the
// agent does, so the bad-input tests see exactly the HTTP answers a user would.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { Probot, Server } from 'probot';
import { readAppEnv } from '../../src/app/env.js';
import { startDriftback, type Running } from '../../src/app/start.js';
import { deriveToken } from '../../src/core/token/index.js';

export const SECRET = 'bad-input-secret-0123456789abcdef';

export interface TestApp {
  running: Running;
  url: string;
  close(): Promise<void>;
}

export async function startTestApp(extraEnv: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'driftback-bad-input-'));
  const env = readAppEnv({
    DATA_DIR: dataDir,
    DRIFTBACK_TOKEN_SECRET: SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...extraEnv,
  });
  const running = await startDriftback(env, { Probot, Server });
  return {
    running,
    url: `http://127.0.0.1:${running.port}`,
    async close() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function tokenFor(repository: string, cluster: string): string {
  return deriveToken(SECRET, repository, cluster);
}

export interface SnapshotOptions {
  repository?: string;
  cluster?: string;
  capturedAt?: string;
  items?: unknown[];
}

export function snapshotDocument(options: SnapshotOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: options.repository ?? 'acme/platform-gitops',
    cluster: options.cluster ?? 'prod-eu',
    capturedAt: options.capturedAt ?? '2026-12-02T03:05:00Z',
    agent: { version: '0.1.0' },
    scope: { complete: true },
    items: options.items ?? [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api', namespace: 'checkout', managedFields: [] },
        spec: { replicas: 3 },
      },
    ],
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface PostOptions {
  headers?: Record<string, string>;
  /** A Buffer is sent with Content-Length; a stream is sent chunked, as an agent streaming a body would. */
  body: Buffer | Readable;
  path?: string;
}

/**
 * Posts and resolves with the answer as soon as it arrives: the server may answer (413) before the
 * body is fully sent, so write errors after that point are expected and ignored.
 */
export function post(url: string, options: PostOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(options.path ?? '/api/v1/snapshots', url);
    const headers: Record<string, string> = { ...options.headers };
    if (Buffer.isBuffer(options.body)) headers['content-length'] = String(options.body.length);
    const req = request(target, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          body = { raw: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        if (!Buffer.isBuffer(options.body)) options.body.destroy();
      });
    });
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (Buffer.isBuffer(options.body)) req.end(options.body);
    else {
      options.body.on('error', () => undefined);
      options.body.pipe(req);
    }
  });
}

export function get(url: string, path: string, token: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, url),
      { method: 'GET', headers: { authorization: `Bearer ${token}` }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The headers an agent sends for `repository` and `cluster`: the token, and whom it is for. */
export function uploadHeaders(
  repository: string,
  cluster: string,
  gzip = false,
  token = tokenFor(repository, cluster),
): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    'x-driftback-repository': repository,
    'x-driftback-cluster': cluster,
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  };
}

/**
 * A gzip stream that inflates to `totalBytes` of zeros, built as repeated gzip members (gunzip reads
 * concatenated members as one stream), so making a 1 GiB bomb costs compressing 8 MiB once.
 */
export async function gzipBomb(totalBytes: number): Promise<Buffer> {
  const memberBytes = 8 * 1024 * 1024;
  const member = await gzipStream(Readable.from([Buffer.alloc(memberBytes)]));
  return Buffer.concat(Array.from({ length: Math.ceil(totalBytes / memberBytes) }, () => member));
}

async function gzipStream(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.pipe(createGzip({ level: 9 }))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `totalBytes` of a syntactically valid JSON document, generated as it is sent (never held whole). */
export function hugeJsonStream(totalBytes: number): Readable {
  const filler = Buffer.from(
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"k":"${'x'.repeat(1000)}"}},`,
  );
  let sent = 0;
  return Readable.from(
    (function* () {
      yield Buffer.from('{"apiVersion":"driftback.dev/v1","kind":"Snapshot","items":[');
      while (sent < totalBytes) {
        sent += filler.length;
        yield filler;
      }
      yield Buffer.from('{}]}');
    })(),
  );
}

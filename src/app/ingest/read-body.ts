// Reads an upload in two steps so memory stays bounded under bursts: the raw (usually gzip) bytes
// first, capped; then, inside the ingest memory budget, the inflated document with the size cap
// enforced by zlib while inflating — a gzip bomb stops at MAX_SNAPSHOT_BYTES, never inflated whole.
import { gunzip } from 'node:zlib';
import type { IncomingMessage } from 'node:http';

export type RawBody =
  | { type: 'ok'; raw: Buffer; gzip: boolean }
  | { type: 'too-large'; limit: number }
  | { type: 'bad-encoding'; message: string };

export type InflatedBody =
  { type: 'ok'; body: Buffer } | { type: 'too-large'; limit: number } | { type: 'bad-encoding'; message: string };

export function readRawBody(req: IncomingMessage, limit: number): Promise<RawBody> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .toLowerCase()
    .trim();
  if (encoding !== 'gzip' && encoding !== 'identity') {
    req.resume();
    return Promise.resolve({
      type: 'bad-encoding',
      message: `Content-Encoding ${encoding} is not supported: send gzip or no encoding`,
    });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ type: 'too-large', limit });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: RawBody): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.resume(); // drain the rest so the connection can answer
        finish({ type: 'too-large', limit });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ type: 'ok', raw: Buffer.concat(chunks, size), gzip: encoding === 'gzip' }));
    req.on('aborted', () =>
      finish({ type: 'bad-encoding', message: 'the upload was aborted before the body was complete' }),
    );
    req.on('error', (error) => finish({ type: 'bad-encoding', message: `the upload failed: ${error.message}` }));
  });
}

/** Snapshot JSON compresses about 10–25×; assumed when the gzip trailer understates the size. */
const TYPICAL_RATIO = 16;

/**
 * The size the document will have once inflated, for scheduling only: gzip's ISIZE trailer (the
 * uncompressed length mod 2^32), or a typical ratio when that is larger — the trailer covers only the
 * last member of a multi-member stream, and it may lie. A wrong guess only changes how many uploads
 * are parsed at once; the cap is still enforced while inflating.
 */
export function expectedSize(body: { raw: Buffer; gzip: boolean }): number {
  if (!body.gzip || body.raw.length < 18) return body.raw.length;
  return Math.max(body.raw.readUInt32LE(body.raw.length - 4), body.raw.length * TYPICAL_RATIO);
}

export function inflateBody(body: { raw: Buffer; gzip: boolean }, limit: number): Promise<InflatedBody> {
  if (!body.gzip)
    return Promise.resolve(body.raw.length > limit ? { type: 'too-large', limit } : { type: 'ok', body: body.raw });
  return new Promise((resolve) => {
    gunzip(body.raw, { maxOutputLength: limit, chunkSize: 64 * 1024 }, (error, inflated) => {
      if (!error) return resolve({ type: 'ok', body: inflated });
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
        return resolve({ type: 'too-large', limit });
      resolve({
        type: 'bad-encoding',
        message: `the gzip body is corrupt or truncated (${error.message}): send the complete gzip stream`,
      });
    });
  });
}

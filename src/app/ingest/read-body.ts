// Reads a request body with a size cap enforced while inflating: a gzip bomb is refused after
// MAX_SNAPSHOT_BYTES of output, never inflated whole.
import { createGunzip } from 'node:zlib';
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { type: 'ok'; body: Buffer }
  | { type: 'too-large'; limit: number }
  | { type: 'bad-encoding'; message: string };

export function readCappedBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (encoding !== 'gzip' && encoding !== 'identity') {
    req.resume();
    return Promise.resolve({ type: 'bad-encoding', message: `Content-Encoding ${encoding} is not supported: send gzip or no encoding` });
  }
  const declared = Number(req.headers['content-length']);
  if (encoding === 'identity' && Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ type: 'too-large', limit });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const source = encoding === 'gzip' ? req.pipe(createGunzip({ chunkSize: 64 * 1024 })) : req;
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        if (source !== req) (source as ReturnType<typeof createGunzip>).destroy();
        req.unpipe();
        req.resume(); // drain the rest so the connection can answer
        finish({ type: 'too-large', limit });
        return;
      }
      chunks.push(chunk);
    });
    source.on('end', () => finish({ type: 'ok', body: Buffer.concat(chunks, size) }));
    source.on('error', (error: Error) =>
      finish({ type: 'bad-encoding', message: `the gzip body is corrupt or truncated (${error.message}): send the complete gzip stream` }),
    );
    req.on('aborted', () => finish({ type: 'bad-encoding', message: 'the upload was aborted before the body was complete' }));
  });
}

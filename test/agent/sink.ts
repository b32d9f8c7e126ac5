// A local stand-in for the App's upload route: answers from a script of responses and records
// every request (headers and the gunzipped body).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ScriptedAnswer {
  code: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ReceivedUpload {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body, decompressed when sent with Content-Encoding: gzip. */
  body: string;
}

export interface UploadSink {
  url: string;
  received: ReceivedUpload[];
  close(): Promise<void>;
}

/** Answers with `script` in order; the last answer repeats. Bodies are kept only when `keepBodies`. */
export async function startUploadSink(
  script: ScriptedAnswer[],
  options: { keepBodies?: boolean } = {},
): Promise<UploadSink> {
  const received: ReceivedUpload[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body =
        options.keepBodies === false
          ? ''
          : (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const answer = script[Math.min(received.length - 1, script.length - 1)];
      res.writeHead(answer.code, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A loopback relay in front of the GitHub stand-in, for Apps running as child processes. It serves
// GitHub Enterprise's `/api/v3` prefix (what GHE_HOST makes Octokit call), records every request
// with its body, and lets a test hold a request before it reaches the stand-in: that is how a fault
// test lands a SIGKILL at a chosen point of a reconcile, or slows one down to watch for overlap.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelayedRequest {
  /** Which relay (one per App process) carried it. */
  via: string;
  method: string;
  /** Path as the stand-in sees it (without `/api/v3`), with the query. */
  path: string;
  body: string;
  at: number;
  /** The stand-in's answer; unset while held or when never forwarded. */
  status?: number;
}

/** Returns a promise to hold the request until it settles; undefined lets it through at once. */
export type RequestGate = (request: RelayedRequest) => Promise<void> | undefined;

const ENTERPRISE_PREFIX = '/api/v3';

export class StandInRelay {
  readonly requests: RelayedRequest[] = [];
  private server: Server | undefined;
  private port = 0;
  private gate: RequestGate | undefined;
  private closed = false;

  private constructor(
    private readonly target: string,
    readonly name: string,
  ) {}

  /** Starts a relay named `name` forwarding to the stand-in at `target` (its baseUrl). */
  static async start(target: string, name = 'relay'): Promise<StandInRelay> {
    const relay = new StandInRelay(target, name);
    relay.server = createServer((request, response) => void relay.handle(request, response));
    await new Promise<void>((resolve) => relay.server!.listen(0, '127.0.0.1', resolve));
    relay.port = (relay.server.address() as AddressInfo).port;
    return relay;
  }

  /** `host:port`, as GHE_HOST takes it. */
  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  setGate(gate: RequestGate | undefined): void {
    this.gate = gate;
  }

  /** Requests whose method and path match, in arrival order. */
  matching(method: string, path: RegExp): RelayedRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path.split('?')[0]));
  }

  async close(): Promise<void> {
    if (!this.server || this.closed) return;
    this.closed = true;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const rawPath = incoming.url ?? '/';
    const path = rawPath.startsWith(ENTERPRISE_PREFIX) ? rawPath.slice(ENTERPRISE_PREFIX.length) || '/' : rawPath;
    const record: RelayedRequest = {
      via: this.name,
      method: (incoming.method ?? 'GET').toUpperCase(),
      path,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    this.requests.push(record);
    const held = this.gate?.(record);
    if (held) await held;
    // The caller is gone (its process was killed): what it asked for must not happen.
    if (this.closed || response.destroyed) return;
    const target = new URL(path, this.target);
    const headers = { ...incoming.headers, host: target.host };
    const upstream = httpRequest(target, { method: record.method, headers }, (answer) => {
      record.status = answer.statusCode ?? 502;
      response.writeHead(record.status, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: `relay: ${error.message}` }));
    });
    upstream.end(Buffer.concat(chunks));
  }
}

// A small HTTP load generator for the benchmarks: sends prepared requests at a fixed concurrency
// over keep-alive connections and reports status counts and latency percentiles.
import { Agent, request } from 'node:http';

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer | Buffer[];
}

export interface LoadResult {
  sent: number;
  statuses: Record<string, number>;
  /** Requests that got no HTTP answer (connection refused or reset). */
  failures: string[];
  latenciesMs: number[];
  elapsedMs: number;
  bytesSent: number;
}

export async function runLoad(
  baseUrl: string,
  requests: Array<() => LoadRequest>,
  concurrency: number,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const result: LoadResult = { sent: 0, statuses: {}, failures: [], latenciesMs: [], elapsedMs: 0, bytesSent: 0 };
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const prepared = requests[next++]();
      const body = Array.isArray(prepared.body) ? prepared.body : [prepared.body];
      const length = body.reduce((n, part) => n + part.length, 0);
      const start = performance.now();
      try {
        const status = await send(baseUrl, agent, prepared, body, length);
        result.statuses[status] = (result.statuses[status] ?? 0) + 1;
        result.latenciesMs.push(performance.now() - start);
      } catch (error) {
        result.failures.push((error as Error).message);
      }
      result.sent++;
      result.bytesSent += length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.elapsedMs = performance.now() - started;
  agent.destroy();
  return result;
}

function send(baseUrl: string, agent: Agent, prepared: LoadRequest, body: Buffer[], length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(prepared.path, baseUrl),
      { method: 'POST', agent, headers: { ...prepared.headers, 'content-length': String(length) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    for (const part of body) req.write(part);
    req.end();
  });
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

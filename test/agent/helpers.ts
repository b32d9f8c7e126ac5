// Shared by the agent tests: a KubeConfig for the stand-in, fast retry timing, and a run that
// collects the snapshot text in memory.
import { KubeConfig } from '@kubernetes/client-node';
import { Writable } from 'node:stream';
import { createKubeTransport } from '../../src/agent/kube-transport.js';
import type { RetryPolicy, Timing } from '../../src/agent/retry.js';
import { takeSnapshot, type SnapshotSummary } from '../../src/agent/take-snapshot.js';
import type { SnapshotScope } from '../../src/agent/types.js';
import { standInKubeconfig } from '../support/kube-api/server.js';

export const TOKEN = 'stand-in-token-0f3c';
export const HASH_KEY = Buffer.from('test-cluster-hash-key-0123456789');
export const CAPTURED_AT = '2026-12-02T03:05:00.000Z';
export const FAST_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };

/** Real clock (the stand-in is a real server), but backoff waits are recorded, not slept. */
export function fastTiming(): Timing & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: () => Date.now(), random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
}

export function kubeConfigFor(url: string, token = TOKEN): KubeConfig {
  const config = new KubeConfig();
  config.loadFromString(standInKubeconfig(url, token));
  return config;
}

export function scope(overrides: Partial<SnapshotScope> = {}): SnapshotScope {
  return { namespaces: [], include: [], exclude: [], secrets: 'hash', ...overrides };
}

export interface CollectOptions {
  url: string;
  token?: string;
  scope?: SnapshotScope;
  pageSize?: number;
  requestTimeoutMs?: number;
  deadlineMs?: number;
}

export async function snapshotText(
  options: CollectOptions,
): Promise<{ text: string; summary: SnapshotSummary; document: any }> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const timing = fastTiming();
  const deadlineMs = Date.now() + (options.deadlineMs ?? 20_000);
  const transport = createKubeTransport(kubeConfigFor(options.url, options.token), {
    requestTimeoutMs: options.requestTimeoutMs ?? 5_000,
    retry: FAST_RETRY,
    timing,
    deadlineMs,
  });
  const summary = await takeSnapshot({
    transport,
    scope: options.scope ?? scope(),
    repository: 'acme/platform-gitops',
    cluster: 'prod-eu',
    capturedAt: CAPTURED_AT,
    agentVersion: '0.1.0',
    hashKey: HASH_KEY,
    pageSize: options.pageSize ?? 2,
    out,
    deadlineMs,
    now: timing.now,
  });
  const text = chunks.join('');
  return { text, summary, document: JSON.parse(text) };
}

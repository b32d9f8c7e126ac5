// `driftback agent`: one snapshot of the cluster, spooled gzip, uploaded to the App. Returns a
// tagged result; the CLI turns it into log lines and an exit code.
import type { KubeConfig } from '@kubernetes/client-node';
import { readFile } from 'node:fs/promises';
import { loadHashKey } from './hash-key.js';
import { createKubeTransport } from './kube-transport.js';
import type { RetryPolicy, Timing } from './retry.js';
import type { AgentSettings } from './settings.js';
import { openSpool } from './spool.js';
import { takeSnapshot, type SnapshotSummary } from './take-snapshot.js';
import { uploadSnapshot, type UploadResult } from './upload.js';
import { AGENT_VERSION, progressLine } from './report.js';

export interface AgentDeps {
  kubeConfig: KubeConfig;
  timing: Timing;
  retry?: RetryPolicy;
  log(line: string): void;
  /** A line per listed type, for a terminal; logs get the summary at the end instead. */
  progress?(line: string): void;
}

export type AgentOutcome =
  | {
      type: 'uploaded';
      summary: SnapshotSummary;
      compressedBytes: number;
      upload: Extract<UploadResult, { type: 'accepted' }>;
    }
  | { type: 'upload-failed'; summary: SnapshotSummary; upload: Exclude<UploadResult, { type: 'accepted' }> }
  | { type: 'misconfigured'; message: string };

export async function runAgent(settings: AgentSettings, deps: AgentDeps): Promise<AgentOutcome> {
  const startedMs = deps.timing.now();
  const deadlineMs = startedMs + settings.deadlineMs;
  const credentials = await readCredentials(settings);
  if (credentials.type === 'misconfigured') return credentials;
  const transport = createKubeTransport(deps.kubeConfig, {
    requestTimeoutMs: settings.requestTimeoutMs,
    retry: deps.retry,
    timing: deps.timing,
    deadlineMs,
  });
  const spool = await openSpool(settings.spoolDir);
  try {
    const summary = await takeSnapshot({
      transport,
      scope: settings.scope,
      repository: settings.repository,
      cluster: settings.cluster,
      capturedAt: new Date(startedMs).toISOString(),
      agentVersion: AGENT_VERSION,
      hashKey: credentials.hashKey,
      pageSize: settings.pageSize,
      out: spool.input,
      deadlineMs,
      now: deps.timing.now,
      onType: deps.progress ? (figures) => deps.progress?.(progressLine(figures)) : undefined,
    });
    const compressedBytes = await spool.finish();
    const upload = await uploadSpooled(settings, deps, credentials.token, spool.file, deadlineMs);
    if (upload.type === 'accepted') return { type: 'uploaded', summary, compressedBytes, upload };
    return { type: 'upload-failed', summary, upload };
  } finally {
    await spool.remove();
  }
}

/** The upload token, and the key Secret values are hashed with when they are hashed; or what to set. */
async function readCredentials(
  settings: AgentSettings,
): Promise<{ type: 'ready'; token: string; hashKey?: Buffer } | { type: 'misconfigured'; message: string }> {
  const token = settings.token ?? (settings.tokenFile ? (await readFile(settings.tokenFile, 'utf8')).trim() : '');
  if (!token)
    return {
      type: 'misconfigured',
      message: 'the upload token is empty: set DRIFTBACK_TOKEN from the driftback-token Secret',
    };
  if (settings.scope.secrets !== 'hash') return { type: 'ready', token };
  const loaded = await loadHashKey(settings.hashKey, settings.hashKeyFile);
  if (loaded.type === 'invalid') return { type: 'misconfigured', message: loaded.message };
  if (loaded.type === 'missing') {
    return {
      type: 'misconfigured',
      message:
        'no key to hash Secret values: set DRIFTBACK_HASH_KEY_FILE to the mounted driftback-hash-key Secret, or DRIFTBACK_SECRETS=omit to leave Secrets out',
    };
  }
  return { type: 'ready', token, hashKey: loaded.key };
}

/**
 * The spooled snapshot sent to the App. The upload gets at least a minute even when listing used the
 * whole deadline: a partial snapshot that says what it lacks is worth more than none.
 */
function uploadSpooled(
  settings: AgentSettings,
  deps: AgentDeps,
  token: string,
  file: string,
  deadlineMs: number,
): Promise<UploadResult> {
  return uploadSnapshot({
    url: settings.url,
    token,
    repository: settings.repository,
    cluster: settings.cluster,
    file,
    timing: deps.timing,
    deadlineMs: Math.max(deadlineMs, deps.timing.now() + 60_000),
    requestTimeoutMs: Math.max(settings.requestTimeoutMs, 60_000),
    retry: deps.retry,
    log: deps.log,
  });
}

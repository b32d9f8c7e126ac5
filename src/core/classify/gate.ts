// The persistence gate: drift is a difference seen in `minSnapshots` consecutive snapshots with the
// same live value. A rollout in progress or a value that keeps moving does not count until it settles.
import { createHash } from 'node:crypto';
import type { DiffResult, FieldChange, ResourceDiff, ResourceKey } from '../model/index.js';
import { keyId } from '../model/index.js';
import { summarize } from './summary.js';

/** Deterministic JSON with sorted keys: equal values hash equal whatever the key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((k) => record[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A change's identity: key + path + hash of the live value. A new live value is a new fingerprint. */
export function fingerprintChange(key: ResourceKey, change: FieldChange): string {
  return sha256(`${keyId(key)}\n${change.path}\n${sha256(stableJson(change.live ?? null))}`).slice(0, 32);
}

/** A whole resource as one change, when it is `extra` or `missing`: what the gate fingerprints for it. */
export function wholeResourceChange(resource: ResourceDiff): FieldChange | undefined {
  if (resource.status === 'extra')
    return {
      path: '',
      segments: [],
      op: 'add',
      cause: resource.createdBy?.cause ?? 'unknown',
      live: `extra:${resource.live?.metadata?.uid ?? ''}`,
    };
  if (resource.status === 'missing')
    return { path: '', segments: [], op: 'replace', cause: 'unknown', live: 'missing' };
  return undefined;
}

export function applyPersistenceGate(
  result: DiffResult,
  history: ReadonlyArray<ReadonlySet<string>>,
  minSnapshots: number,
  /**
   * Changes that need no second snapshot: drift under a suspension (the suspension says it is meant),
   * risky drift (a person must look now, and it is never codified unasked). `change` of an extra or
   * missing resource is the whole-resource change.
   */
  exempt: (key: ResourceKey, change: FieldChange, resource: ResourceDiff) => boolean = () => false,
): {
  result: DiffResult;
  pending: Array<{ key: ResourceKey; change: FieldChange; seen: number }>;
  fingerprints: string[];
  /** How many consecutive snapshots (this one included) showed each fingerprint. */
  seen: Map<string, number>;
} {
  const fingerprints: string[] = [];
  const counts = new Map<string, number>();
  const pending: Array<{ key: ResourceKey; change: FieldChange; seen: number }> = [];
  const seenFor = (fingerprint: string): number => {
    let seen = 1;
    for (const snapshot of history) {
      if (!snapshot.has(fingerprint)) break;
      seen++;
    }
    counts.set(fingerprint, seen);
    return seen;
  };
  const resources: ResourceDiff[] = [];
  for (const resource of result.resources) {
    const needed = (change: FieldChange): number => (exempt(resource.key, change, resource) ? 1 : minSnapshots);
    const whole = wholeResourceChange(resource);
    if (whole) {
      const fingerprint = fingerprintChange(resource.key, whole);
      fingerprints.push(fingerprint);
      const seen = seenFor(fingerprint);
      if (seen < needed(whole)) pending.push({ key: resource.key, change: whole, seen });
      else resources.push(resource);
      continue;
    }
    const kept: FieldChange[] = [];
    for (const change of resource.changes) {
      const fingerprint = fingerprintChange(resource.key, change);
      fingerprints.push(fingerprint);
      const seen = seenFor(fingerprint);
      if (seen < needed(change)) pending.push({ key: resource.key, change, seen });
      else kept.push(change);
    }
    const status = resource.status === 'modified' && kept.length === 0 ? 'in-sync' : resource.status;
    resources.push({ ...resource, changes: kept, status });
  }
  return { result: { ...result, resources, summary: summarize(resources) }, pending, fingerprints, seen: counts };
}

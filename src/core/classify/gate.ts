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
  const gate: Gate = { history, minSnapshots, exempt, fingerprints: [], seen: new Map(), pending: [] };
  const resources = result.resources.flatMap((resource) => gateResource(gate, resource));
  const { pending, fingerprints, seen } = gate;
  return { result: { ...result, resources, summary: summarize(resources) }, pending, fingerprints, seen };
}

/** The gate's inputs, and what it records as it goes. */
interface Gate {
  history: ReadonlyArray<ReadonlySet<string>>;
  minSnapshots: number;
  exempt: (key: ResourceKey, change: FieldChange, resource: ResourceDiff) => boolean;
  fingerprints: string[];
  seen: Map<string, number>;
  pending: Array<{ key: ResourceKey; change: FieldChange; seen: number }>;
}

/** An extra or missing resource passes whole or not at all; a modified one keeps the changes that passed. */
function gateResource(gate: Gate, resource: ResourceDiff): ResourceDiff[] {
  const whole = wholeResourceChange(resource);
  if (whole) return persisted(gate, resource, whole) ? [resource] : [];
  const kept = resource.changes.filter((change) => persisted(gate, resource, change));
  const status = resource.status === 'modified' && kept.length === 0 ? 'in-sync' : resource.status;
  return [{ ...resource, changes: kept, status }];
}

/** Whether the change was seen in enough consecutive snapshots (this one included); if not, it is pending. */
function persisted(gate: Gate, resource: ResourceDiff, change: FieldChange): boolean {
  const fingerprint = fingerprintChange(resource.key, change);
  gate.fingerprints.push(fingerprint);
  let seen = 1;
  for (const snapshot of gate.history) {
    if (!snapshot.has(fingerprint)) break;
    seen++;
  }
  gate.seen.set(fingerprint, seen);
  const needed = gate.exempt(resource.key, change, resource) ? 1 : gate.minSnapshots;
  if (seen >= needed) return true;
  gate.pending.push({ key: resource.key, change, seen });
  return false;
}

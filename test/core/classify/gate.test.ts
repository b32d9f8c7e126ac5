// The persistence gate: a change counts once it was seen in minSnapshots consecutive snapshots with
// the same live value; a new value starts over.
import { describe, expect, it } from 'vitest';
import { applyPersistenceGate, fingerprintChange } from '../../../src/core/classify/index.js';
import { diffResources } from '../../../src/core/diff/index.js';
import type { DiffResult, KubeObject } from '../../../src/core/model/index.js';
import { configWith, deployment, desiredOf } from '../diff/support.js';

const scaled = (replicas: number): DiffResult =>
  diffResources([desiredOf(deployment())], [deployment({ spec: { replicas } })], { config: configWith() });

/** Runs the gate over a sequence of snapshots, keeping history as the store would. */
function run(snapshots: DiffResult[], minSnapshots: number) {
  const history: Array<Set<string>> = [];
  return snapshots.map((result) => {
    const gated = applyPersistenceGate(result, history, minSnapshots);
    history.unshift(new Set(gated.fingerprints));
    return gated;
  });
}

describe('applyPersistenceGate', () => {
  it('seen in one snapshot: pending, the resource is not modified yet', () => {
    const [first] = run([scaled(5)], 2);
    expect(first!.result.resources[0]!.status).toBe('in-sync');
    expect(first!.result.summary.modified).toBe(0);
    expect(first!.pending.map((p) => [p.change.path, p.seen])).toEqual([['/spec/replicas', 1]]);
  });
  it('seen in two consecutive snapshots: it counts', () => {
    const [, second] = run([scaled(5), scaled(5)], 2);
    expect(second!.result.resources[0]!.status).toBe('modified');
    expect(second!.result.summary.modified).toBe(1);
    expect(second!.pending).toEqual([]);
  });
  it('a change of value starts over', () => {
    const [, second, third] = run([scaled(5), scaled(6), scaled(6)], 2);
    expect(second!.pending.map((p) => p.seen)).toEqual([1]);
    expect(third!.result.summary.modified).toBe(1);
  });
  it('a gap breaks the run', () => {
    const results = run([scaled(5), scaled(2), scaled(5)], 2);
    expect(results[2]!.pending.map((p) => p.seen)).toEqual([1]);
  });
  it('counts, for every change kept or pending, the consecutive snapshots that showed it', () => {
    const results = run([scaled(5), scaled(5), scaled(5)], 2);
    expect(results.map((gated) => [...gated.seen.values()])).toEqual([[1], [2], [3]]);
  });
  it('minSnapshots 1 lets everything through', () => {
    const [first] = run([scaled(5)], 1);
    expect(first!.result.summary.modified).toBe(1);
  });
  it('extra resources are gated too', () => {
    const extra: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'debug', namespace: 'shop', uid: 'u1' },
    };
    const result = diffResources([], [extra], { config: configWith() });
    const [first, second] = run([result, result], 2);
    expect(first!.result.summary.extra).toBe(0);
    expect(second!.result.summary.extra).toBe(1);
  });
  it('fingerprints: key + path + live value; key order in the value does not matter', () => {
    const key = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'api' };
    const change = { path: '/spec/x', segments: [], op: 'replace' as const, cause: 'human' as const };
    expect(fingerprintChange(key, { ...change, live: { a: 1, b: 2 } })).toBe(
      fingerprintChange(key, { ...change, live: { b: 2, a: 1 } }),
    );
    expect(fingerprintChange(key, { ...change, live: 1 })).not.toBe(fingerprintChange(key, { ...change, live: 2 }));
    expect(fingerprintChange(key, { ...change, live: 1 })).not.toBe(
      fingerprintChange({ ...key, name: 'web' }, { ...change, live: 1 }),
    );
    expect(fingerprintChange(key, { ...change, live: 1 })).not.toBe(
      fingerprintChange(key, { ...change, path: '/spec/y', live: 1 }),
    );
  });
});

// The nesting limit on snapshots: as deep as any real object is fine, deeper is refused with the
// path where it gets too deep (JSON that deep parses, but overflowed the stack when stored).
import { describe, expect, it } from 'vitest';
import { MAX_SNAPSHOT_DEPTH, parseSnapshot } from '../../src/core/model/index.js';

/** A snapshot whose deepest object sits at `depth` (the document itself is depth 0). */
function snapshotWithDepth(depth: number): unknown {
  // document (0) → items (1) → item (2) → spec (3) → nested maps below it.
  let value: Record<string, unknown> = {};
  for (let level = depth; level > 3; level--) value = { a: value };
  return {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/platform-gitops',
    cluster: 'prod-eu',
    capturedAt: '2026-12-02T03:05:00Z',
    scope: { complete: true },
    items: [{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: value }],
  };
}

describe('snapshot nesting limit', () => {
  it(`accepts objects nested up to ${MAX_SNAPSHOT_DEPTH - 1} levels`, () => {
    expect(parseSnapshot(snapshotWithDepth(MAX_SNAPSHOT_DEPTH - 1)).ok).toBe(true);
  });

  it.each([MAX_SNAPSHOT_DEPTH, 100_000])(
    'refuses depth %i with the path, shortened, and what to send instead',
    (depth) => {
      const result = parseSnapshot(snapshotWithDepth(depth));
      expect(result).toEqual({
        ok: false,
        problems: [
          {
            path: 'items[0].spec.a.a.a…',
            message: `nested more than ${MAX_SNAPSHOT_DEPTH} levels deep: no Kubernetes object is; send the objects as the API server returns them`,
          },
        ],
      });
    },
  );
});

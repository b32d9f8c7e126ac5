// A repository checkout on disk for the CLI: files written under a new temporary directory.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Writes each file (repository path → text) under a new directory named after `prefix`; returns it. */
export function writeRepository(prefix: string, files: Iterable<readonly [string, string]>): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A complete snapshot document of cluster prod of acme/gitops (Kubernetes v1.33.1) holding `items`. */
export function snapshotText(items: readonly unknown[] = []): string {
  return JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/gitops',
    cluster: 'prod',
    capturedAt: '2026-12-01T10:00:00Z',
    server: { gitVersion: 'v1.33.1', resources: [] },
    scope: { complete: true, errors: [] },
    items,
  });
}

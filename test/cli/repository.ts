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

// Paths to the externally authored fixtures in test/fixtures/upstream: byte-for-byte copies of
// public upstream data, with their sources and licenses in its README (read-only; never edited).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileText } from '../../src/core/model/index.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FIXTURES = resolve(REPO_ROOT, 'test/fixtures/upstream');

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}

export function readFixture(...parts: string[]): string {
  return readFileSync(fixturePath(...parts), 'utf8');
}

/** Reads a fixture directory into path → text (paths relative to it, `/` separators). */
export function readFixtureTree(...parts: string[]): Map<string, string> {
  const root = fixturePath(...parts);
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join('/'), fileText(readFileSync(full)));
    }
  };
  walk(root);
  return files;
}

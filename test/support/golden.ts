// Golden files for rendered output: compared byte for byte; `UPDATE_GOLDEN=1` rewrites them on
// purpose. A missing golden file fails the test instead of being written silently.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

/** An `expectGolden(name, actual)` bound to one directory of golden files. */
export function goldenIn(dir: string): (name: string, actual: string) => void {
  return (name, actual) => {
    const path = join(dir, name);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, actual);
      return;
    }
    if (!existsSync(path))
      throw new Error(`golden file ${path} is missing: run the test with UPDATE_GOLDEN=1 and review it`);
    expect(actual).toBe(readFileSync(path, 'utf8'));
  };
}

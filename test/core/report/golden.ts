// Golden files: the expected Markdown lives in ./golden; `UPDATE_GOLDEN=1` rewrites it on purpose.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const DIR = fileURLToPath(new URL('./golden', import.meta.url));

export function expectGolden(name: string, actual: string): void {
  const path = join(DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  if (!existsSync(path)) throw new Error(`golden file ${name} is missing: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

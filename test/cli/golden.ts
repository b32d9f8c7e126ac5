// Golden files for rendered output: compared byte for byte; `UPDATE_GOLDEN=1` rewrites them on purpose.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');

export function expectGolden(name: string, actual: string): void {
  const path = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`golden file ${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/cli`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

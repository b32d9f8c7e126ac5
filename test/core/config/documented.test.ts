// docs/configuration.md documents every key of `.github/driftback.yml`: each key path of the schema
// (`clusters[].name`, `drift.ignore[].reason`, …) has a row in the reference, and every row names a
// key the schema has. A new key cannot be added without its documentation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configSchema } from '../../../src/core/config/schema.js';

const PAGE = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every key path of a schema: `a`, `a.b`, `a[].c`. */
function keyPaths(schema: z.ZodType, prefix = ''): string[] {
  const def = defOf(schema);
  if (def.innerType) return keyPaths(def.innerType, prefix);
  if (def.type === 'pipe' && def.in) return keyPaths(def.in, prefix);
  if (def.type === 'array' && def.element) return keyPaths(def.element, `${prefix}[]`);
  if (def.type !== 'object' || !def.shape) return [];
  return Object.entries(def.shape).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...keyPaths(value, path)];
  });
}

/** The first cell of every row of the reference tables. */
function documentedKeys(): string[] {
  const reference = PAGE.slice(PAGE.indexOf('## Reference'), PAGE.indexOf('\n## ', PAGE.indexOf('## Reference') + 1));
  return [...reference.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
}

describe('docs/configuration.md', () => {
  const schemaKeys = keyPaths(configSchema);

  it('finds the keys of the schema', () => {
    expect(schemaKeys).toContain('clusters[].staleAfter');
    expect(schemaKeys).toContain('drift.ignore[].reason');
    expect(schemaKeys).toContain('pullRequests.newResourcePath');
  });

  it('has a reference row for every key of the schema', () => {
    const documented = new Set(documentedKeys());
    expect(schemaKeys.filter((key) => !documented.has(key))).toEqual([]);
  });

  it('documents no key the schema does not have', () => {
    const known = new Set(schemaKeys);
    expect(documentedKeys().filter((key) => !known.has(key))).toEqual([]);
  });
});

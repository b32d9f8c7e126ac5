// Every pattern a repository or a snapshot supplies is compiled in one place, as RE2 (linear time):
// a RegExp built from input, or a glob library that compiles to one, could be made to backtrack for
// hours by a few bytes in a pull request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT } from './import-graph.js';

const DYNAMIC = /\bnew RegExp\(|\bRegExp\(|from '(picomatch|minimatch|micromatch)'/;

describe('patterns', () => {
  it('the check sees a RegExp built at run time and a glob library', () => {
    expect(DYNAMIC.test('const r = new RegExp(`^${pattern}$`);')).toBe(true);
    expect(DYNAMIC.test("import picomatch from 'picomatch';")).toBe(true);
    expect(DYNAMIC.test('const r = /^[a-z]+$/;')).toBe(false);
  });

  it('no file in src builds a RegExp at run time or loads a glob library: src/core/patterns compiles RE2', () => {
    const offenders = [...importGraph('src').keys()].filter((file) =>
      DYNAMIC.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});

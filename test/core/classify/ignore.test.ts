// JSON-pointer patterns of ignore rules: `*` stands for one segment and a rule covers everything below.
import { describe, expect, it } from 'vitest';
import { pathMatches } from '../../../src/core/classify/index.js';

describe('pathMatches', () => {
  const rows: Array<[string, string, boolean]> = [
    ['/spec/replicas', '/spec/replicas', true],
    ['/spec/replicas', '/spec/replicasX', false],
    ['/spec/template', '/spec/template/spec/containers/0/image', true],
    ['/spec/template/spec/containers/*/image', '/spec/template/spec/containers/3/image', true],
    ['/spec/template/spec/containers/*/image', '/spec/template/spec/initContainers/0/image', false],
    ['/metadata/annotations/example.com~1owner', '/metadata/annotations/example.com~1owner', true],
    ['/spec/*', '/spec', false],
    ['/*', '/anything/below', true],
  ];
  for (const [rule, path, expected] of rows) {
    it(`${rule} ${expected ? 'matches' : 'does not match'} ${path}`, () =>
      expect(pathMatches(rule, path)).toBe(expected));
  }
});

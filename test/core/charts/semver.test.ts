// Chart version ranges as Flux and Helm read them (Masterminds semver), the cases a HelmRelease's
// `version:` and an OCIRepository's `ref.semver` use.
import { describe, expect, it } from 'vitest';
import { parseSemver, satisfiesRange } from '../../../src/core/charts/index.js';

const cases: Array<[string, string, boolean]> = [
  ['6.7.1', '6.x', true],
  ['7.0.0', '6.x', false],
  ['6.7.1', '6.7.*', true],
  ['6.8.0', '6.7.*', false],
  ['6.7.1', '*', true],
  ['6.7.1', '^6.1', true],
  ['7.0.0', '^6.1', false],
  ['0.3.5', '^0.3.1', true],
  ['0.4.0', '^0.3.1', false],
  ['6.1.9', '~6.1', true],
  ['6.2.0', '~6.1', false],
  ['6.2.0', '>=6.0.0 <7.0.0', true],
  ['6.2.0', '>= 6.0.0, < 6.2.0', false],
  ['5.1.0', '>=6 || 5.1.x', true],
  ['6.0.0-rc.1', '6.x', false],
  ['6.0.0-rc.1', '>=6.0.0-rc.0 <7', true],
  ['6.7.1', '6.7.1', true],
  ['6.7.1', 'not a range', false],
];

describe('chart version ranges', () => {
  it.each(cases)('%s satisfies %s: %s', (version, range, expected) => {
    expect(satisfiesRange(parseSemver(version)!, range)).toBe(expected);
  });
});

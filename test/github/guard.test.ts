import { describe, expect, it } from 'vitest';
import { assertOwnBranch, ForbiddenRefError } from '../../src/github/index.js';

describe('assertOwnBranch', () => {
  it.each([
    ['driftback/prod-eu', 'driftback/prod-eu'],
    ['refs/heads/driftback/prod-eu', 'driftback/prod-eu'],
    ['heads/driftback/prod-eu/checkout', 'driftback/prod-eu/checkout'],
  ])('lets %s through as %s', (ref, branch) => {
    expect(assertOwnBranch(ref, 'driftback/', 'main')).toBe(branch);
  });

  it.each([
    ['refs/heads/main', 'default branch'],
    ['main', 'default branch'],
    ['heads/main', 'default branch'],
    ['refs/heads/feature/x', 'outside the branch prefix'],
    ['release', 'outside the branch prefix'],
    ['driftback/', 'outside the branch prefix'],
    ['driftbackx/prod', 'outside the branch prefix'],
    ['refs/tags/driftback/v1', 'only branches'],
    ['driftback/../main', 'not a valid branch name'],
    ['driftback//prod', 'not a valid branch name'],
    ['driftback/prod..x', 'not a valid branch name'],
  ])('refuses %s (%s)', (ref, reason) => {
    expect(() => assertOwnBranch(ref, 'driftback/', 'main')).toThrow(ForbiddenRefError);
    expect(() => assertOwnBranch(ref, 'driftback/', 'main')).toThrow(reason);
  });

  it('refuses the default branch even when it sits under the prefix', () => {
    expect(() => assertOwnBranch('driftback/main', 'driftback/', 'driftback/main')).toThrow('default branch');
  });

  it('refuses everything when no prefix is configured', () => {
    expect(() => assertOwnBranch('anything', '', 'main')).toThrow('no branch prefix');
  });
});

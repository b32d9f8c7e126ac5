// Patterns from a repository are RE2: kustomize's anchoring, Go's syntax and messages, linear time.
// Sources: kustomize api/types/selector.go (anchorRegex wraps a set field as `^(?:…)$`); Go's
// regexp/syntax error strings ("error parsing regexp: invalid escape sequence: `\1`", "invalid or
// unsupported Perl syntax: `(?=`"); Argo CD reposerver/repository/repository.go (gobwas/glob
// without separators).
import { describe, expect, it } from 'vitest';
import { compileAnchored, compileArgoGlob, compileConfigGlobs } from '../../../src/core/patterns/index.js';

function matches(source: string, text: string): boolean {
  const compiled = compileAnchored(source);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.pattern.test(text);
}

describe('anchored RE2 patterns (kustomize selector fields)', () => {
  it.each([
    ['app', 'app', true],
    ['app', 'my-app', false],
    ['app', 'app-2', false],
    ['app-.*', 'app-frontend', true],
    ['a|b', 'b', true],
    ['a|b', 'ab', false],
    ['(?i)deployment', 'Deployment', true],
    ['\\pL+', 'héllo', true],
    ['[[:digit:]]{2,3}', '123', true],
  ])('%s against %s: %s', (source, text, expected) => {
    expect(matches(source, text)).toBe(expected);
  });

  it('answers a pattern that backtracking engines take hours on, on a 44-character name and a long one', () => {
    expect(matches('(a+)+b', 'a'.repeat(44))).toBe(false);
    expect(matches('(a|aa)*c', 'a'.repeat(100_000))).toBe(false);
    expect(matches('(.*a){20}', `${'a'.repeat(20)}`)).toBe(true);
  });

  it.each([
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['(?=a)a', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?!x)y', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['a++', 'error parsing regexp: invalid nested repetition operator: `++`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
  ])('refuses %s with Go\u2019s reason and what RE2 takes', (source, reason) => {
    const compiled = compileAnchored(source);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) {
      expect(compiled.message).toContain(reason);
      expect(compiled.message).toContain('no backreferences or lookaround');
    }
  });
});

describe('config globs (ignore rules, manager lists)', () => {
  const test = (globs: string[], text: string): boolean => compileConfigGlobs(globs).matches.test(text);
  it.each([
    [['team-*'], 'team-a', true],
    [['*-controller'], 'kube-controller', true],
    [['*-controller'], 'controller', false],
    [['kube-*-manager'], 'kube-controller-manager', true],
    [['{a,b}*'], 'bx', true],
    [['x?z'], 'xyz', true],
    [['[abc]*'], 'cat', true],
    [['[!abc]*'], 'cat', false],
    [['a/*'], 'a/b/c', false],
    [['a/**'], 'a/b/c', true],
    [['!foo'], 'bar', true],
    [['!foo'], 'foo', false],
    [['a\\*b'], 'a*b', true],
    [['a\\*b'], 'axb', false],
    [['*'], '', false],
    [['ops', 'team-*'], 'ops', true],
  ])('%j against %s: %s', (globs, text, expected) => {
    expect(test(globs, text)).toBe(expected);
  });

  it('matches a hostile glob in linear time', () => {
    expect(test(['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b'], 'a'.repeat(253))).toBe(false);
  });

  it('reports a glob RE2 cannot compile, and keeps the others', () => {
    const { matches, problems } = compileConfigGlobs(['[z-a]', 'ops']);
    expect(problems).toEqual([
      expect.stringContaining('glob "[z-a]": error parsing regexp: invalid character class range'),
    ]);
    expect(matches.test('ops')).toBe(true);
  });
});

describe('Argo CD directory globs', () => {
  it('crosses "/" with * (gobwas/glob compiled without separators)', () => {
    const compiled = compileArgoGlob('*.yaml');
    expect(compiled.ok && compiled.pattern.test('sub/dir/a.yaml')).toBe(true);
  });
});

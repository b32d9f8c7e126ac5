import { describe, expect, it } from 'vitest';
import { isolateFailures, MAX_SOLO_CHECKS, type Verdict } from '../../../src/core/codify/isolate-failures.js';

/** Edits as `object:name`; a check fails when it holds an edit in `bad`, naming that edit's object. */
function checker(bad: readonly string[], log: string[][]): (subset: readonly string[]) => Verdict {
  return (subset) => {
    log.push([...subset]);
    const wrong = subset.filter((item) => bad.includes(item));
    if (wrong.length === 0) return { ok: true };
    return { ok: false, reason: `wrong: ${wrong.join(', ')}`, involved: wrong.map((item) => item.split(':')[0]) };
  };
}

const objectOf = (item: string): string => item.split(':')[0];

describe('isolateFailures', () => {
  it('checks the edits of the other objects together, then each suspect on top: one render per suspect', () => {
    const items = ['a:1', 'b:1', 'c:1', 'c:2'];
    const log: string[][] = [];
    const failed = { ok: false as const, reason: 'x', involved: ['c'] };
    const result = isolateFailures(items, failed, objectOf, checker(['c:2'], log));
    expect(result).toEqual({
      kept: ['a:1', 'b:1', 'c:1'],
      dropped: [{ item: 'c:2', reason: 'wrong: c:2' }],
      verdict: { ok: true },
    });
    expect(log).toEqual([
      ['a:1', 'b:1'],
      ['a:1', 'b:1', 'c:1'],
      ['a:1', 'b:1', 'c:1', 'c:2'],
    ]);
  });

  it('a failure that names no object, or whose other edits fail too, makes every edit a suspect', () => {
    const log: string[][] = [];
    const unnamed = isolateFailures(
      ['a:1', 'b:1'],
      { ok: false, reason: 'x', involved: [] },
      objectOf,
      checker(['a:1'], log),
    );
    expect(unnamed.kept).toEqual(['b:1']);
    expect(unnamed.dropped.map((d) => d.item)).toEqual(['a:1']);
    const wrongGuess = isolateFailures(
      ['a:1', 'b:1', 'c:1'],
      { ok: false, reason: 'x', involved: ['c'] },
      objectOf,
      checker(['a:1'], []),
    );
    expect(wrongGuess.kept).toEqual(['b:1', 'c:1']);
    expect(wrongGuess.dropped.map((d) => d.item)).toEqual(['a:1']);
  });

  it(`checks at most ${MAX_SOLO_CHECKS} suspects one at a time and says so for the rest`, () => {
    const items = Array.from({ length: MAX_SOLO_CHECKS + 2 }, (_, i) => `a:${i}`);
    const log: string[][] = [];
    const result = isolateFailures(items, { ok: false, reason: 'x', involved: ['a'] }, objectOf, checker(items, log));
    expect(log).toHaveLength(MAX_SOLO_CHECKS);
    expect(result.kept).toEqual([]);
    expect(result.dropped.at(-1)!.reason).toMatch(/only the first 20 of them are checked one at a time/);
  });
});

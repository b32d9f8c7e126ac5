// kustomize's own conformance tests (api/krusty), run through driftback's renderer: every in-scope
// case must render the objects kustomize prints, in its order and equal field by field, or fail where
// kustomize fails. Cases out of scope are printed by name with their reason and counted.
import { afterAll, describe, expect, it } from 'vitest';
import { readKrustyCases, type KrustyCase } from '../../support/krusty-cases.js';
import { inspectKrustyBuild, runKrustyCase } from '../../support/krusty-run.js';
import { KRUSTY_GAPS } from './krusty-gaps.js';

const cases = readKrustyCases(inspectKrustyBuild);
const inScope = cases.filter((c) => !c.outOfScope && !c.unreadable);
const outOfScope = cases.filter((c) => c.outOfScope);
const unreadable = cases.filter((c) => c.unreadable);
const id = (c: KrustyCase): string => `${c.file}: ${c.name}`;
const results = { passed: 0, gaps: 0 };

describe('kustomize conformance (krusty)', () => {
  it('reads every case of every test file', () => {
    expect(cases.length).toBeGreaterThan(340);
    expect(unreadable.map((c) => `${id(c)}: ${c.unreadable}`)).toEqual([]);
  });

  it('lists only real cases as gaps', () => {
    const names = new Set(inScope.map(id));
    expect(Object.keys(KRUSTY_GAPS).filter((name) => !names.has(name))).toEqual([]);
  });

  for (const kase of inScope) {
    const gap = KRUSTY_GAPS[id(kase)];
    it(`${id(kase)}${gap ? ` (known gap: ${gap})` : ''}`, () => {
      const outcome = runKrustyCase(kase);
      if (gap) {
        // A gap that now passes must be taken off the list.
        expect(outcome.ok, 'this case passes now: remove it from krusty-gaps.ts').toBe(false);
        results.gaps += 1;
        return;
      }
      expect(outcome.ok, outcome.detail).toBe(true);
      results.passed += 1;
    });
  }

  afterAll(() => {
    const reasons = new Map<string, string[]>();
    for (const c of outOfScope) reasons.set(c.outOfScope!, [...(reasons.get(c.outOfScope!) ?? []), c.name]);
    const lines = [
      `kustomize conformance: ${inScope.length} cases in scope (${results.passed} pass, ${results.gaps} known gaps), ` +
        `${outOfScope.length} out of scope, ${unreadable.length} unreadable`,
      ...[...reasons].map(([reason, names]) => `  out of scope, ${reason} (${names.length}): ${names.join(', ')}`),
    ];
    console.log(lines.join('\n'));
  });
});

// driftback's render against `kubectl kustomize` itself: each case of test/fixtures/kustomize-oracle
// holds an input tree and the output kustomize 5.7.1 printed for it (expected.yaml), or its refusal
// (expected-error.txt); scripts/kustomize-oracle.mjs regenerates them. The render must print the same
// objects in the same order, equal field by field, or refuse where kustomize refuses.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixtureTree } from '../../support/fixtures.js';
import { runKrustyBuild } from '../../support/krusty-run.js';

const ROOT = fixturePath('..', 'kustomize-oracle');
const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('kustomize parity with kubectl kustomize (5.7.1)', () => {
  it('has cases, each with what kustomize printed', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const name of cases) {
      const outputs = ['expected.yaml', 'expected-error.txt'].filter((file) => existsSync(join(ROOT, name, file)));
      expect(outputs, name).toHaveLength(1);
    }
  });

  for (const name of cases) {
    it(name, () => {
      const expectedFile = join(ROOT, name, 'expected.yaml');
      const refused = !existsSync(expectedFile);
      const outcome = runKrustyBuild({
        root: '',
        files: readFixtureTree('..', 'kustomize-oracle', name, 'input'),
        // kubectl kustomize sorts in kustomize's legacy order unless the kustomization sets sortOptions.
        options: { order: 'legacy', loadRestrictions: 'rootOnly', managedByLabel: false },
        ...(refused
          ? { error: { messages: [readFileSync(join(ROOT, name, 'expected-error.txt'), 'utf8')] } }
          : { expected: readFileSync(expectedFile, 'utf8') }),
        line: 0,
      });
      expect(outcome.ok, outcome.detail).toBe(true);
    });
  }
});

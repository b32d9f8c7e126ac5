// src/core's folders import each other in one declared direction (core-order.ts): a fact never
// depends on a policy, a policy never on a stage that uses it. A cycle or an import upward fails here
// with the import that makes it, so a newcomer can read the core bottom-up.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_ORDER, coreFolderOf, importsAgainstOrder } from './core-order.js';
import { describeCycle, findCycles, importGraph, ROOT, unitGraph } from './import-graph.js';

const coreGraph = () => unitGraph(importGraph('src/core'), coreFolderOf);

describe('the order of src/core folders', () => {
  it('the checker finds an upward import and a cycle (it can fail)', () => {
    const files = new Map([
      ['src/core/model/key.ts', ['src/core/k8s/names.ts']],
      ['src/core/k8s/names.ts', ['src/core/model/key.ts']],
      ['src/core/plan/plan.ts', ['src/core/model/key.ts']],
    ]);
    const graph = unitGraph(files, coreFolderOf);
    expect(importsAgainstOrder(graph, ['model', 'k8s', 'plan'])).toEqual([
      'model → k8s (src/core/model/key.ts → src/core/k8s/names.ts)',
    ]);
    expect(findCycles(graph)).toEqual([['k8s', 'model', 'k8s']]);
    expect(importsAgainstOrder(graph, ['model', 'plan'])).toContain(
      'k8s → model (src/core/k8s/names.ts → src/core/model/key.ts)',
    );
  });

  it('declares every folder of src/core once', () => {
    const folders = readdirSync(join(ROOT, 'src/core')).filter((name) =>
      statSync(join(ROOT, 'src/core', name)).isDirectory(),
    );
    expect([...CORE_ORDER].sort()).toEqual(folders.sort());
    expect(new Set(CORE_ORDER).size).toBe(CORE_ORDER.length);
  });

  it('has no import cycle between core folders', () => {
    const graph = coreGraph();
    expect(graph.size).toBeGreaterThan(10);
    const cycles = findCycles(graph).map((cycle) => describeCycle(graph, cycle));
    expect(cycles, `import cycles:\n${cycles.join('\n\n')}`).toEqual([]);
  });

  it('has no import against the declared order', () => {
    const wrong = importsAgainstOrder(coreGraph(), CORE_ORDER);
    expect(wrong, `imports against the order in test/architecture/core-order.ts:\n${wrong.join('\n')}`).toEqual([]);
  });
});

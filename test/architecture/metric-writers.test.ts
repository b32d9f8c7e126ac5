// Each metric has one writer (src/app/metrics.ts): two writers with their own label rules are how
// one cluster ends up as two series. Anything else asks a writer function.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT } from './import-graph.js';

const WRITE = /\bmetrics\??\.\w+\.(set|inc|dec|observe|startTimer|reset)\(/;

describe('metric writers', () => {
  it('the pattern sees a write', () => {
    expect(WRITE.test('deps.metrics.degraded.set(labels, 1)')).toBe(true);
    expect(WRITE.test('recordClusterFigures(deps.metrics, repository, cluster, figures)')).toBe(false);
  });

  it('no file but src/app/metrics.ts sets, counts or times a metric', () => {
    const files = [...importGraph('src').keys()].filter((file) => file !== 'src/app/metrics.ts');
    const writers = files.filter((file) => WRITE.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(writers).toEqual([]);
  });
});

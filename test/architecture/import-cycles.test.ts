// The App's folders depend on each other in one direction only. A cycle between two folders (alerts
// importing plan while plan imports alerts) means neither can be read, tested or moved alone.
// Units are the folders under src/app/ and each file directly in src/app/ on its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { describeCycle, findCycles, importGraph, ROOT, unitGraph } from './import-graph.js';

function appUnit(file: string): string | undefined {
  const match = /^src\/app\/([^/]+)/.exec(file);
  return match ? match[1].replace(/\.ts$/, '') : undefined;
}

describe('import cycles', () => {
  it('finds a cycle when there is one (the checker itself works)', () => {
    const files = new Map([
      ['src/app/a/x.ts', ['src/app/b/y.ts']],
      ['src/app/b/y.ts', ['src/app/c.ts']],
      ['src/app/c.ts', ['src/app/a/z.ts']],
      ['src/app/a/z.ts', []],
      ['src/app/d.ts', ['src/app/a/x.ts']],
    ]);
    const graph = unitGraph(files, appUnit);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(describeCycle(graph, ['a', 'b', 'c', 'a'])).toContain('src/app/b/y.ts → src/app/c.ts');
  });

  it('none between the folders (and top-level files) of src/app', () => {
    const graph = unitGraph(importGraph('src/app'), appUnit);
    expect(graph.size).toBeGreaterThan(10);
    const cycles = findCycles(graph).map((cycle) => describeCycle(graph, cycle));
    expect(cycles, `import cycles:\n${cycles.join('\n\n')}`).toEqual([]);
  });

  it('none between the top-level folders of src (core, github, store, app, cli, agent)', () => {
    const graph = unitGraph(importGraph('src'), (file) => /^src\/([^/]+)\//.exec(file)?.[1]);
    const cycles = findCycles(graph).map((cycle) => describeCycle(graph, cycle));
    expect(cycles, `import cycles:\n${cycles.join('\n\n')}`).toEqual([]);
  });
});

describe('database handles', () => {
  it('only the stores and the SQLite queue (on its own connection) load a database driver', () => {
    const drivers = [...importGraph('src').keys()].filter((file) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const modules = ts.preProcessFile(source, true, true).importedFiles.map((ref) => ref.fileName);
      return modules.some((name) => name === 'better-sqlite3' || name === 'pg');
    });
    expect(drivers.sort()).toEqual([
      'src/app/queue/sqlite-queue.ts',
      'src/store/postgres-store.ts',
      'src/store/sqlite-store.ts',
    ]);
  });

  it('a store says where its database is (what the queue needs), not a handle to it', async () => {
    const store = SqliteStore.open({ file: ':memory:' });
    expect(store.backend).toEqual({ type: 'sqlite', file: ':memory:' });
    await store.close();
  });
});

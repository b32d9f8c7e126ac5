// The import graph of src/, read with the TypeScript compiler's own pre-processor (the compiler is
// already a dependency): every `import`, `export … from` and `import()` of a relative module.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Repository-relative file → the repository-relative files it imports (type-only imports included). */
export function importGraph(under: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(ROOT, under))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(ROOT, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
    graph.set(relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** Collapses files into units (`unitOf` → undefined drops the file) and keeps the edges between units. */
export function unitGraph(
  files: Map<string, string[]>,
  unitOf: (file: string) => string | undefined,
): Map<string, Map<string, string>> {
  const units = new Map<string, Map<string, string>>();
  for (const [file, targets] of files) {
    const from = unitOf(file);
    if (from === undefined) continue;
    const edges = units.get(from) ?? new Map<string, string>();
    units.set(from, edges);
    for (const target of targets) {
      const to = unitOf(target);
      // The first import seen stands for the edge: what to look at when it forms a cycle.
      if (to !== undefined && to !== from && !edges.has(to)) edges.set(to, `${file} → ${target}`);
    }
  }
  return units;
}

/** Every elementary cycle found by a depth-first walk, as its units in order (each cycle reported once). */
export function findCycles(graph: Map<string, Map<string, string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const walk = (start: string, node: string, path: string[]): void => {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === start) {
        const key = [...path].sort().join('|');
        if (!cycles.has(key)) cycles.set(key, [...path, start]);
      } else if (!path.includes(next) && next > start) {
        walk(start, next, [...path, next]);
      }
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return [...cycles.values()];
}

/** A cycle with the import that makes each of its edges. */
export function describeCycle(graph: Map<string, Map<string, string>>, cycle: string[]): string {
  const edges = cycle.slice(0, -1).map((unit, i) => {
    const next = cycle[i + 1];
    return `  ${unit} → ${next} (${graph.get(unit)?.get(next)})`;
  });
  return edges.join('\n');
}

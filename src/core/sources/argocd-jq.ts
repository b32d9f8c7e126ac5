// Argo CD's `jqPathExpressions` (ignoreDifferences): Argo CD runs `del(<expression>)` with gojq on the
// live and the desired object (util/argo/normalizers/diff_normalizer.go); `del(f)` deletes exactly
// the paths `path(f)` yields, so those paths are what the comparison leaves out. The expressions are
// evaluated with jqjs, a jq implementation in JavaScript (pure, synchronous: it runs inside the job's
// bounded worker like every render). Bounded here too: at most MAX_PATHS paths per expression and
// object; a program that does not parse is reported, as Argo CD fails that Application's comparison.
import { compile, type JqFilter } from '@michaelhomer/jqjs';

/** More paths than this from one expression on one object: the rest are not followed. */
export const MAX_PATHS = 10_000;

export type JqPath = Array<string | number>;

export type CompiledJq = { ok: true; filter: JqFilter } | { ok: false; message: string };

const compiled = new Map<string, CompiledJq>();

/** Compiles `path(<expression>)` once per expression; what is wrong with one that does not parse. */
export function compileJqPath(expression: string): CompiledJq {
  const known = compiled.get(expression);
  if (known) return known;
  let result: CompiledJq;
  try {
    result = { ok: true, filter: compile(`path(${expression})`) };
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : String(error);
    result = { ok: false, message: `jq expression ${JSON.stringify(expression)} does not parse: ${reason}` };
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(expression, result);
  return result;
}

/**
 * The paths `path(<expression>)` yields on the object; none when it fails on this object (Argo CD
 * then skips the expression for the object: "Failed to apply normalization patch").
 */
export function jqPaths(filter: JqFilter, object: unknown): JqPath[] {
  const paths: JqPath[] = [];
  try {
    // A JSON copy: jq sees the object as gojq does (no undefined, no shared references).
    for (const path of filter(JSON.parse(JSON.stringify(object)) as unknown)) {
      if (Array.isArray(path) && path.every((p) => typeof p === 'string' || typeof p === 'number')) {
        paths.push(path as JqPath);
      }
      if (paths.length >= MAX_PATHS) break;
    }
  } catch {
    return [];
  }
  return paths;
}

// Typed reads of a controller object's spec: a hand-written manifest may hold any shape, and a wrong one
// must read as "absent", never throw (the render reports the object's own problems).
import { isPlainObject } from '../model/index.js';

export { field, listAt, stringAt } from '../health/read.js';

/** A map of string values (labels, substitute): other values are left out. */
export function stringMap(value: unknown): Record<string, string> {
  const map: Record<string, string> = {};
  if (!isPlainObject(value)) return map;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') map[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') map[key] = String(item);
  }
  return map;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A repository path as the render reads it: no `./`, no trailing `/`, `''` for the root. */
export function repositoryPath(path: string): string {
  const trimmed = path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

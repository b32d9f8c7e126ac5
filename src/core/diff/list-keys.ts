// Which lists are matched by key (as strategic merge patch and server-side apply do) and by which
// fields. The table comes from Kubernetes' own OpenAPI (list-keys.generated.ts) plus a few kinds
// written by hand; every other list, and every list of an unknown kind, is atomic.
import { LIST_KEYS, POD_SPEC } from './list-keys.generated.js';
import { EXTRA_LIST_KEYS } from './list-keys-extra.js';

type KindLists = { podSpecAt: readonly string[]; lists: Readonly<Record<string, readonly string[]>> };

/** Flattened `group/Kind` → pointer pattern → keys, built once. */
const FLAT: ReadonlyMap<string, ReadonlyMap<string, string[]>> = (() => {
  const flat = new Map<string, Map<string, string[]>>();
  const add = (kind: string, entry: KindLists): void => {
    const table = flat.get(kind) ?? new Map<string, string[]>();
    for (const prefix of entry.podSpecAt) for (const [tail, keys] of Object.entries(POD_SPEC)) table.set(prefix + tail, [...keys]);
    for (const [pointer, keys] of Object.entries(entry.lists)) table.set(pointer, [...keys]);
    flat.set(kind, table);
  };
  for (const [kind, entry] of Object.entries(LIST_KEYS)) add(kind, entry);
  for (const [kind, entry] of Object.entries(EXTRA_LIST_KEYS)) add(kind, entry);
  return flat;
})();

/**
 * The merge keys of the list at `pointerToList` (list items written as `*`, e.g.
 * `/spec/template/spec/containers/*\/ports`), or undefined when the list is atomic. The version is
 * accepted for callers' convenience; list keys do not change between versions of a kind.
 */
export function listKeysFor(group: string, _version: string, kind: string, pointerToList: string): string[] | undefined {
  return FLAT.get(`${group}/${kind}`)?.get(pointerToList);
}

/** Key fields the API server fills in when they are omitted: filled before matching items. */
const DEFAULTED_KEY_FIELDS: Readonly<Record<string, unknown>> = { protocol: 'TCP' };

/** The key fields of a list item, with server-defaulted key fields filled; undefined if a key is missing. */
export function itemKey(item: unknown, keys: readonly string[]): Record<string, string | number> | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  const key: Record<string, string | number> = {};
  for (const field of keys) {
    const value = record[field] ?? DEFAULTED_KEY_FIELDS[field];
    if (typeof value === 'string' || typeof value === 'number') key[field] = value;
    else if (keys.length === 1 || value !== undefined) return undefined;
  }
  // A key made only of defaults (a port with neither port nor containerPort) identifies nothing.
  return keys.some((field) => record[field] !== undefined && !(field in DEFAULTED_KEY_FIELDS)) ? key : undefined;
}

/** How managedFields spells a keyed item: `{"containerPort":80,"protocol":"TCP"}` (fields sorted). */
export function canonicalKey(key: Record<string, string | number>): string {
  const fields = Object.keys(key);
  if (fields.length === 1) return `{${JSON.stringify(fields[0])}:${JSON.stringify(key[fields[0]!])}}`;
  return '{' + fields.sort().map((field) => `${JSON.stringify(field)}:${JSON.stringify(key[field])}`).join(',') + '}';
}

/** Reads the value at structured segments: keyed items are found by their key fields. */
export function valueAtSegments(value: unknown, segments: ReadonlyArray<string | { key: Record<string, string | number> } | { index: number }>): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (typeof segment === 'string') {
      current = typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as Record<string, unknown>)[segment] : undefined;
    } else if (!Array.isArray(current)) return undefined;
    else if ('index' in segment) current = current[segment.index];
    else {
      const wanted = segment.key;
      current = current.find((item) => {
        if (typeof item !== 'object' || item === null) return false;
        const record = item as Record<string, unknown>;
        return Object.keys(wanted).every((field) => (record[field] ?? DEFAULTED_KEY_FIELDS[field]) === wanted[field]);
      });
    }
    if (current === undefined) return undefined;
  }
  return current;
}

// Items of keyed lists: an item's key (its merge-key fields, server-defaulted ones filled in), how
// managedFields spells a key, and finding the item a key names. Every module that matches list
// items by key (diff, plan, codify, reports) asks here, so they agree on which item is which.
import { isPlainObject, ownValue, type PathSegment } from '../model/index.js';
import { keyFieldDefault, keyFieldValue } from './defaults.js';

export type ItemKey = Record<string, string | number>;

/** The key fields of a list item, with server-defaulted key fields filled; undefined if a key is missing. */
export function itemKey(item: unknown, keys: readonly string[]): ItemKey | undefined {
  if (!isPlainObject(item)) return undefined;
  const key: ItemKey = {};
  for (const field of keys) {
    const value = keyFieldValue(item, field);
    if (typeof value === 'string' || typeof value === 'number') key[field] = value;
    else if (keys.length === 1 || value !== undefined) return undefined;
  }
  // A key made only of defaults (a port with neither port nor containerPort) identifies nothing.
  return keys.some((field) => item[field] !== undefined && keyFieldDefault(field) === undefined) ? key : undefined;
}

/** How managedFields spells a keyed item: `{"containerPort":80,"protocol":"TCP"}` (fields sorted). */
export function canonicalKey(key: ItemKey): string {
  const fields = Object.keys(key);
  if (fields.length === 1) return `{${JSON.stringify(fields[0])}:${JSON.stringify(key[fields[0]!])}}`;
  return (
    '{' +
    fields
      .sort()
      .map((field) => `${JSON.stringify(field)}:${JSON.stringify(key[field])}`)
      .join(',') +
    '}'
  );
}

/**
 * Whether a list item is the one a key names. Values compare as text (a manifest may write a port as
 * "80"), and a key field the item leaves out has its server default.
 */
export function itemHasKey(item: unknown, key: Readonly<ItemKey>): boolean {
  if (!isPlainObject(item)) return false;
  return Object.entries(key).every(([field, wanted]) => String(keyFieldValue(item, field) ?? '') === String(wanted));
}

/** The index of the item a segment names in a list (by key, or by index), or -1. */
export function indexOfItem(list: readonly unknown[], segment: PathSegment): number {
  if (typeof segment === 'object' && 'index' in segment) return segment.index < list.length ? segment.index : -1;
  if (typeof segment === 'object') return list.findIndex((item) => itemHasKey(item, segment.key));
  const index = Number(segment);
  return Number.isInteger(index) && index >= 0 && index < list.length ? index : -1;
}

/** Reads the value at structured segments: keyed items are found by their key fields. */
export function valueAtSegments(value: unknown, segments: readonly PathSegment[]): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (typeof segment === 'string' && !Array.isArray(current)) {
      current = isPlainObject(current) ? ownValue(current, segment) : undefined;
    } else if (!Array.isArray(current)) return undefined;
    else {
      const index = indexOfItem(current, segment);
      current = index < 0 ? undefined : current[index];
    }
    if (current === undefined) return undefined;
  }
  return current;
}

// Appends entries to a kustomization's `resources:` or `patches:` list, byte-exact: the new item
// follows its siblings' indentation, or the list is added at the end when the file has none.
import { isSeq } from 'yaml';
import { parseDocuments } from './yaml-locate.js';
import { setValueAt, type EditResult } from './yaml-edit.js';
import { isPlainObject } from '../model/index.js';

function sameEntry(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return isPlainObject(a) && isPlainObject(b) && a.path !== undefined && a.path === b.path;
}

/** Adds `item` to the list under `key` unless an equal entry (same string, same patch path) is there. */
export function appendToKustomizationList(
  text: string,
  key: 'resources' | 'patches',
  item: string | Record<string, unknown>,
): EditResult {
  const doc = parseDocuments(text)[0];
  if (!doc) return setValueAt(`${text}`, 0, [key, { index: 0 }], item);
  const list = doc.get(key, true);
  if (isSeq(list)) {
    const entries = (list.toJSON() as unknown[]) ?? [];
    if (entries.some((entry) => sameEntry(entry, item))) return { ok: true, text, line: 0 };
    return setValueAt(text, 0, [key, { index: list.items.length }], item);
  }
  if (
    list !== undefined &&
    list !== null &&
    !(typeof list === 'object' && 'value' in list && (list as { value: unknown }).value === null)
  ) {
    return { ok: false, reason: `${key} is not a list` };
  }
  return setValueAt(text, 0, [key, { index: 0 }], item);
}

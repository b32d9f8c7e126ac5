// List keys as the API server recorded them. In managedFields an associative list's items are spelled
// `k:{"name":"http"}` (sigs.k8s.io/structured-merge-diff fieldpath/serialize-pe.go: a key is the
// JSON object of the item's key fields), so the fields of that object are the list's keys, whatever
// the schema the server used. When no schema is known here for a list — a custom resource whose CRD
// is not in the snapshot (Gateway API `listeners`, most operators) — this is the evidence that lets
// the diff match its items one by one instead of replacing the whole list.
import type { KubeObject } from '../model/index.js';
import { escapeSegment, isPlainObject } from '../model/index.js';

/** Pointer pattern (list items as `*`) → the key fields managedFields spells that list's items with. */
export type RecordedListKeys = ReadonlyMap<string, readonly string[]>;

/** The key fields of one `k:` member, or undefined when it is not a JSON object of scalars. */
function keyFieldsOf(member: string): string[] | undefined {
  try {
    const key = JSON.parse(member.slice(2)) as unknown;
    if (!isPlainObject(key)) return undefined;
    const fields = Object.keys(key);
    const scalars = fields.every((field) => ['string', 'number', 'boolean'].includes(typeof key[field]));
    return fields.length > 0 && scalars ? fields : undefined;
  } catch {
    return undefined; // a malformed key says nothing of the list
  }
}

/** Walks one fieldsV1 tree, recording (or contradicting) the keys of each list it names by key. */
function walk(node: unknown, pattern: string, found: Map<string, string[] | null>, depth: number): void {
  if (!isPlainObject(node) || depth > 64) return;
  for (const member of Object.keys(node)) {
    if (member.startsWith('f:')) {
      walk(node[member], `${pattern}/${escapeSegment(member.slice(2))}`, found, depth + 1);
      continue;
    }
    if (member.startsWith('k:')) {
      const fields = keyFieldsOf(member);
      const before = found.get(pattern);
      // Two spellings of one list's keys contradict each other: no evidence then.
      const same = before && fields && before.length === fields.length && fields.every((f) => before.includes(f));
      if (before === undefined) found.set(pattern, fields ?? null);
      else if (before !== null && !same) found.set(pattern, null);
    }
    if (member.startsWith('k:') || member.startsWith('i:') || member.startsWith('v:')) {
      walk(node[member], `${pattern}/*`, found, depth + 1);
    }
  }
}

const memo = new WeakMap<KubeObject, RecordedListKeys>();

/**
 * The list keys the object's managedFields record, by pointer pattern. Every entry is read (status
 * included: its lists are keyed the same way); a list whose items two entries key differently, or
 * whose key is no JSON object, is left out.
 */
export function recordedListKeys(live: KubeObject): RecordedListKeys {
  const known = memo.get(live);
  if (known) return known;
  const found = new Map<string, string[] | null>();
  const entries = Array.isArray(live.metadata?.managedFields) ? live.metadata.managedFields : [];
  for (const entry of entries) if (isPlainObject(entry)) walk(entry.fieldsV1, '', found, 0);
  const keys = new Map<string, readonly string[]>();
  for (const [pattern, fields] of found) if (fields) keys.set(pattern, fields);
  memo.set(live, keys);
  return keys;
}

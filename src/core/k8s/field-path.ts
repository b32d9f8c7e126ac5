// How a person reads a field's place: `spec.template.spec.containers[server].env[DEBUG]`, not the
// JSON pointer `/spec/template/spec/containers/0/env/1`. Items of keyed lists are named by their key
// (the list-key facts of list-keys.ts), composite keys joined with `/` (`ports[8080/TCP]`, a defaulted
// key field filled in as the server fills it); map keys that are not plain words are quoted as yq and
// jq write them (`metadata.annotations["app.kubernetes.io/name"]`). Positions stay positions
// (`args[2]`). Machine outputs (JSON) keep the pointer; every text a person reads uses this, and config
// rules may name a field this way (read back by field-path-text.ts).
import { fromPointer, isPlainObject, type PathSegment } from '../model/index.js';
import { keyFieldDefault } from './defaults.js';
import { indexOfItem, itemKey } from './keyed-items.js';
import { listKeysFor } from './list-keys.js';

/** The kind a path belongs to; with `object`, positions in keyed lists are named by their item's key. */
export interface FieldPathOf {
  group: string;
  kind: string;
  version?: string;
  /** The object the path points into (desired or live): resolves `/containers/0` to `containers[api]`. */
  object?: unknown;
}

const WORD = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const DIGITS = /^(0|[1-9][0-9]*)$/;

function quoted(text: string): string {
  return JSON.stringify(text);
}

function mapKey(key: string, first: boolean): string {
  if (WORD.test(key)) return first ? key : `.${key}`;
  return `[${quoted(key)}]`;
}

/** One key value inside brackets: bare unless it could be misread (brackets, quotes, spaces, a composite's `/`). */
function keyValue(value: string | number, composite: boolean): string {
  const text = String(value);
  const unsafe = text === '' || /[[\]"\s]/.test(text) || (composite && text.includes('/'));
  return unsafe ? quoted(text) : text;
}

function itemName(key: Readonly<Record<string, string | number>>, listKeys: readonly string[] | undefined): string {
  // The list's own key order (containerPort before protocol), defaulted key fields filled in.
  const fields = listKeys && listKeys.some((field) => field in key) ? listKeys : Object.keys(key);
  const values: Array<string | number> = [];
  for (const field of fields) {
    const value = key[field] ?? keyFieldDefault(field);
    if (value !== undefined) values.push(value);
  }
  const composite = values.length > 1;
  return `[${values.map((value) => keyValue(value, composite)).join('/')}]`;
}

/** A pointer's segments: without an object, an all-digit segment is read as a list position. */
function segmentsOfPointer(pointer: string, object: unknown): PathSegment[] {
  const parts = fromPointer(pointer);
  if (object !== undefined) return parts;
  return parts.map((part) => (DIGITS.test(part) ? { index: Number(part) } : part));
}

/**
 * The people-readable form of a field path (a JSON pointer or structured segments). `of` names the
 * kind, so a key the manifest leaves out but the server defaults is shown (`ports[80/TCP]`), and,
 * with an object, a list position is named by the key of the item there. The object's root is ''.
 */
export function fieldPath(path: string | readonly PathSegment[], of?: FieldPathOf): string {
  const segments = typeof path === 'string' ? segmentsOfPointer(path, of?.object) : path;
  let out = '';
  let pattern = '';
  let node: unknown = of?.object;
  for (const segment of segments) {
    const position = typeof segment === 'string' && DIGITS.test(segment) && (Array.isArray(node) || node === undefined);
    if (typeof segment === 'string' && !position) {
      out += mapKey(segment, out === '');
      node = isPlainObject(node) ? node[segment] : undefined;
      pattern += `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      continue;
    }
    const listKeys = of ? listKeysFor(of.group, of.kind, pattern, of.version) : undefined;
    const list = Array.isArray(node) ? node : [];
    const item: PathSegment = position ? { index: Number(segment) } : segment;
    const at = indexOfItem(list, item);
    node = at < 0 ? undefined : list[at];
    const key = typeof item === 'object' && 'key' in item ? item.key : listKeys ? itemKey(node, listKeys) : undefined;
    out += key ? itemName(key, listKeys) : `[${(item as { index: number }).index}]`;
    pattern += '/*';
  }
  return out;
}

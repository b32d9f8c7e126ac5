// kustomize's content-hash name suffix for generated ConfigMaps and Secrets (api/hasher): encode the
// object as Go's json.Marshal would (sorted keys, HTML-safe escapes), sha256, keep 10 hex digits and
// swap the characters that could spell words (0→g, 1→h, 3→k, a→m, e→t).
import { setOwn } from '../model/index.js';
import { createHash } from 'node:crypto';
import { toPlain, type TrackedMap } from './tracked.js';

export function kustomizeHash(object: TrackedMap): string {
  const plain = toPlain(object) as Record<string, unknown>;
  // kustomize's hasher looks the name up as one field called "metadata/name" (kyaml's Lookup does not
  // split paths), which no object has: the name it hashes is always "".
  const name = '';
  const present = (v: unknown): unknown => (v === undefined || v === null ? '' : v);
  const isMap = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
  let encoded: Record<string, unknown>;
  if (plain.kind === 'ConfigMap') {
    encoded = { kind: 'ConfigMap', name, data: present(plain.data) };
    if (isMap(plain.binaryData)) encoded.binaryData = plain.binaryData;
  } else if (plain.kind === 'Secret') {
    encoded = { kind: 'Secret', type: present(plain.type), name, data: present(plain.data) };
    if (isMap(plain.stringData)) encoded.stringData = plain.stringData;
  } else encoded = plain;
  return encodeHash(createHash('sha256').update(goJson(encoded)).digest('hex'));
}

export function encodeHash(hex: string): string {
  const swap: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex.slice(0, 10)].map((c) => swap[c] ?? c).join('');
}

/** JSON as Go's encoding/json writes it: map keys sorted, <, >, &, U+2028 and U+2029 escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) setOwn(out, key, sortKeys((value as Record<string, unknown>)[key]));
  return out;
}

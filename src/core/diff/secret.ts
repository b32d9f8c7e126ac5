// Secrets: Git may write `stringData` (plain) where the cluster keeps `data` (base64), and the agent
// replaces live values with `sha256:<hex>` keyed hashes computed in the cluster, so a value can only be
// compared when live still has it in base64. Values never leave this module unmasked.
import type { KubeObject } from '../model/index.js';
import { isPlainObject, setOwn } from '../model/index.js';

export const MASK = '***';

export function isSecret(obj: KubeObject): boolean {
  return obj.kind === 'Secret' && (obj.apiVersion === 'v1' || obj.apiVersion?.startsWith('v1') === true);
}

/**
 * A copy of a Secret whose `data` and `stringData` values are all MASK (keys kept, so a reader
 * still sees which keys exist); any other object is returned as it is.
 */
export function maskSecretValues<T extends Record<string, unknown>>(object: T): T {
  if (!isSecret(object as unknown as KubeObject)) return object;
  const copy: Record<string, unknown> = { ...object };
  for (const field of ['data', 'stringData']) {
    const values = copy[field];
    if (isPlainObject(values)) copy[field] = Object.fromEntries(Object.keys(values).map((key) => [key, MASK]));
  }
  return copy as T;
}

/** Folds `stringData` into `data` as the API server does (stringData wins). */
export function foldStringData(obj: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(obj.stringData)) return obj;
  const { stringData, ...rest } = obj;
  const data: Record<string, unknown> = { ...(isPlainObject(rest.data) ? rest.data : {}) };
  for (const [key, value] of Object.entries(stringData)) setOwn(data, key, Buffer.from(String(value ?? ''), 'utf8').toString('base64'));
  return { ...rest, data };
}

/** Whether a desired data value equals a live one; a hashed live value cannot be compared, so it matches. */
export function secretValuesEqual(desired: unknown, live: unknown): boolean {
  if (typeof live === 'string' && live.startsWith('sha256:')) return true;
  if (typeof desired !== 'string' || typeof live !== 'string') return desired === live;
  return Buffer.from(desired.replace(/\s+/g, ''), 'base64').equals(Buffer.from(live.replace(/\s+/g, ''), 'base64'));
}

/** True for pointers inside a Secret's values. */
export function isSecretValuePath(pointer: string): boolean {
  return pointer === '/data' || pointer.startsWith('/data/') || pointer === '/stringData' || pointer.startsWith('/stringData/');
}

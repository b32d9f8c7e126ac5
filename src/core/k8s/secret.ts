// Secrets: Git may write `stringData` (plain) where the cluster keeps `data` (base64), and the agent
// replaces live values with `sha256:<hex>` keyed hashes computed in the cluster, so a value can only be
// compared when live still has it in base64. Every reader masks values with secretMask before showing them.
import type { KubeObject, ResourceKey } from '../model/index.js';
import { groupOf, isKubeObject, isPlainObject, setOwn } from '../model/index.js';

/**
 * What is shown in place of a value that comes from a Secret (its own data, a Flux substitution, Helm
 * values from it): where it comes from, never the value (`‹from Secret flux-system/cluster-secret-vars›`).
 */
export function secretMask(secrets: readonly string[]): string {
  return `‹from Secret ${[...new Set(secrets)].join(', ')}›`;
}

/** The mask of one Secret object's own values. */
function ownMask(object: KubeObject): string {
  const { namespace, name } = object.metadata ?? {};
  return secretMask([namespace ? `${namespace}/${name ?? ''}` : (name ?? '')]);
}

/** The mask for a value inside this object, when it is a Secret and the pointer is one of its values. */
export function maskAt(object: KubeObject, pointer: string): string | undefined {
  return isSecret(object) && isSecretValuePath(pointer) ? ownMask(object) : undefined;
}

/** What the agent writes in place of a Secret value: this prefix and a keyed hash. */
export const SECRET_HASH_PREFIX = 'sha256:';

/** Why a Secret made in the cluster is never written as a file. */
export const SECRET_NOT_WRITTEN =
  'a Secret created in the cluster: its values are never written to Git; ' + 'add it through your secrets tooling';

/** The fields of a Secret that hold its values. */
export const SECRET_VALUE_FIELDS = ['data', 'stringData'] as const;

/** Whether an object, or the type a key or listed resource names, is a core Secret. */
export function isSecret(subject: KubeObject | Pick<ResourceKey, 'group' | 'kind'>): boolean {
  const group = isKubeObject(subject) ? groupOf(subject.apiVersion) : subject.group;
  return group === '' && subject.kind === 'Secret';
}

/** A copy of a Secret with every value masked (other objects are returned as they are). */
export function maskSecretValues<T extends Record<string, unknown>>(object: T): T {
  if (!isKubeObject(object) || !isSecret(object)) return object;
  const out: Record<string, unknown> = { ...object };
  for (const field of SECRET_VALUE_FIELDS) {
    const values = out[field];
    const mask = ownMask(object);
    if (isPlainObject(values)) out[field] = Object.fromEntries(Object.keys(values).map((key) => [key, mask]));
  }
  return out as T;
}

/** Folds `stringData` into `data` as the API server does (stringData wins). */
export function foldStringData(obj: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(obj.stringData)) return obj;
  const { stringData, ...rest } = obj;
  const data: Record<string, unknown> = { ...(isPlainObject(rest.data) ? rest.data : {}) };
  for (const [key, value] of Object.entries(stringData)) {
    setOwn(data, key, Buffer.from(String(value ?? ''), 'utf8').toString('base64'));
  }
  return { ...rest, data };
}

/** Whether a desired data value equals a live one; a hashed live value cannot be compared, so it matches. */
export function secretValuesEqual(desired: unknown, live: unknown): boolean {
  if (typeof live === 'string' && live.startsWith(SECRET_HASH_PREFIX)) return true;
  if (typeof desired !== 'string' || typeof live !== 'string') return desired === live;
  return Buffer.from(desired.replace(/\s+/g, ''), 'base64').equals(Buffer.from(live.replace(/\s+/g, ''), 'base64'));
}

/** True for pointers inside a Secret's values. */
export function isSecretValuePath(pointer: string): boolean {
  return SECRET_VALUE_FIELDS.some((field) => pointer === `/${field}` || pointer.startsWith(`/${field}/`));
}

// Secret values never leave the cluster: each value of `data` and `stringData` becomes
// `sha256:<hex>` of an HMAC keyed with the cluster's own key, so a changed value shows as a
// changed hash, while equal values in two clusters (different keys) cannot be matched, and a
// guessed value cannot be confirmed without the key.
import { createHmac } from 'node:crypto';
import { isPlainObject, type KubeObject } from '../core/model/index.js';
import { SECRET_HASH_PREFIX } from '../core/k8s/index.js';

/** The keyed hash of one value's bytes. `data` is hashed decoded, so it equals the `stringData` hash. */
export function hashSecretValue(key: Buffer, value: Buffer): string {
  return SECRET_HASH_PREFIX + createHmac('sha256', key).update(value).digest('hex');
}

/** Returns the Secret with every value replaced by its keyed hash; other fields are kept. */
export function redactSecret(secret: KubeObject, key: Buffer): KubeObject {
  const out: KubeObject = { ...secret };
  if (isPlainObject(secret.data)) {
    out.data = mapValues(secret.data, (value) => hashSecretValue(key, Buffer.from(String(value), 'base64')));
  }
  if (isPlainObject(secret.stringData)) {
    out.stringData = mapValues(secret.stringData, (value) => hashSecretValue(key, Buffer.from(String(value), 'utf8')));
  }
  return out;
}

function mapValues(record: Record<string, unknown>, map: (value: unknown) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) out[name] = map(value);
  return out;
}

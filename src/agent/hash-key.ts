// The per-cluster key for Secret hashes. It lives in a Secret created at install
// (`kubectl -n driftback create secret generic driftback-hash-key --from-literal=key=$(openssl rand -hex 32)`),
// mounted into the agent's Pod as a file; `DRIFTBACK_HASH_KEY` serves local runs.
import { readFile } from 'node:fs/promises';

export const MIN_KEY_BYTES = 16;

export type HashKeyResult = { type: 'key'; key: Buffer } | { type: 'missing' } | { type: 'invalid'; message: string };

export async function loadHashKey(value: string | undefined, file: string | undefined): Promise<HashKeyResult> {
  let text = value;
  if (!text && file) {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      return { type: 'invalid', message: `cannot read the hash key file ${file}: ${(error as Error).message}` };
    }
  }
  if (!text) return { type: 'missing' };
  const key = Buffer.from(text.trim(), 'utf8');
  if (key.length < MIN_KEY_BYTES) {
    return {
      type: 'invalid',
      message: `the hash key is ${key.length} bytes; use at least ${MIN_KEY_BYTES} (e.g. openssl rand -hex 32)`,
    };
  }
  return { type: 'key', key };
}

// Upload tokens: derived per (repository, cluster) from DRIFTBACK_TOKEN_SECRET with an HMAC,
// so there is no token table to leak and a token for one cluster is refused for another.
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'dbk_';

/**
 * Shortest secret accepted, in UTF-8 bytes. A token is an HMAC of public inputs, so one token lets
 * anyone guess the secret offline as fast as they can hash: 32 random bytes put that out of reach.
 */
export const MIN_TOKEN_SECRET_BYTES = 32;

/** Why `secret` cannot derive tokens (with how to make a good one), or undefined when it can. */
export function tokenSecretProblem(secret: string | undefined): string | undefined {
  const how = 'generate one with `openssl rand -hex 32` and set it on the App (and wherever `driftback token` runs)';
  if (!secret) return `DRIFTBACK_TOKEN_SECRET is empty: ${how}`;
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_TOKEN_SECRET_BYTES) {
    return `DRIFTBACK_TOKEN_SECRET is ${bytes} bytes, under the ${MIN_TOKEN_SECRET_BYTES} bytes that keep upload tokens from being guessed: ${how}`;
  }
  return undefined;
}

export function deriveToken(secret: string, repository: string, cluster: string): string {
  const problem = tokenSecretProblem(secret);
  if (problem) throw new Error(problem);
  const mac = createHmac('sha256', secret)
    .update(`driftback-upload\n${repository.toLowerCase()}\n${cluster}`)
    .digest('base64url');
  return PREFIX + mac;
}

/** Constant-time check of a presented token against the one derived for this repository and cluster. */
export function verifyToken(secret: string, presented: string, repository: string, cluster: string): boolean {
  if (tokenSecretProblem(secret) || typeof presented !== 'string') return false;
  const expected = Buffer.from(deriveToken(secret, repository, cluster));
  const given = Buffer.from(presented);
  // timingSafeEqual needs equal lengths; compare against itself to spend the same time.
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(given, expected);
}

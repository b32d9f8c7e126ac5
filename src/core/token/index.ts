// Upload tokens: derived per (repository, cluster) from DRIFTBACK_TOKEN_SECRET with an HMAC,
// so there is no token table to leak and a token for one cluster is refused for another.
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'dbk_';

export function deriveToken(secret: string, repository: string, cluster: string): string {
  if (!secret) throw new Error('DRIFTBACK_TOKEN_SECRET is empty: set it to a long random string');
  const mac = createHmac('sha256', secret).update(`driftback-upload\n${repository.toLowerCase()}\n${cluster}`).digest('base64url');
  return PREFIX + mac;
}

/** Constant-time check of a presented token against the one derived for this repository and cluster. */
export function verifyToken(secret: string, presented: string, repository: string, cluster: string): boolean {
  if (!secret || typeof presented !== 'string') return false;
  const expected = Buffer.from(deriveToken(secret, repository, cluster));
  const given = Buffer.from(presented);
  // timingSafeEqual needs equal lengths; compare against itself to spend the same time.
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(given, expected);
}

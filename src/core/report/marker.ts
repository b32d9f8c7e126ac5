// Every document driftback writes ends in a hidden marker with a key (which document this is) and a
// hash of its content, so the App finds its own comment/issue/PR and skips an update that changes
// nothing.
import { createHash } from 'node:crypto';

export interface Marker {
  key: string;
  hash: string;
}

const KEY_SHAPE = /^[A-Za-z0-9][A-Za-z0-9:/._-]*$/;
const MARKER = /<!-- driftback:([A-Za-z0-9][A-Za-z0-9:/._-]*) hash:([0-9a-f]{16}) -->/g;

/** The first 16 hex digits of the body's SHA-256. */
export function contentHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 16);
}

/** A key made safe for a marker: anything outside [A-Za-z0-9:/._-] becomes `_`. */
export function markerKey(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9:/._-]/g, '_');
  return KEY_SHAPE.test(safe) ? safe : `k${safe}`;
}

/** The body with its marker appended (the hash covers the body as written). */
export function withMarker(key: string, body: string): string {
  return `${body}\n\n<!-- driftback:${markerKey(key)} hash:${contentHash(body)} -->`;
}

/** The last marker in a body, or undefined. Text before it cannot fake it: only the last one counts. */
export function markerOf(body: string | null | undefined): Marker | undefined {
  if (!body) return undefined;
  let found: Marker | undefined;
  for (const match of body.matchAll(MARKER)) found = { key: match[1], hash: match[2] };
  return found;
}

/** The body without its trailing marker: what the hash was computed over. */
export function bodyWithoutMarker(body: string): string {
  return body.replace(/\n\n<!-- driftback:[^\n]* hash:[0-9a-f]{16} -->$/, '');
}

/** True when `body` (as posted) already carries the marker `key` would get for `next`. */
export function isUnchanged(posted: string | null | undefined, key: string, next: string): boolean {
  const marker = markerOf(posted);
  return marker !== undefined && marker.key === markerKey(key) && marker.hash === contentHash(next);
}

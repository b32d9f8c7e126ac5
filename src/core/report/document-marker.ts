// Every document driftback writes ends in a hidden marker `<!-- driftback:<key> hash:<hex> -->`
// with a key (which document this is) and a hash of its content, so the App finds its own
// comment/issue/PR and skips an update that changes nothing. This module is the one place that knows
// the marker's format and its hash; the GitHub edge builds its lookups on `markersIn`.
import { createHash } from 'node:crypto';

export interface Marker {
  key: string;
  hash: string;
}

/** A marker as found in a body: where it sits, and whether it is written exactly as `withMarker` writes one. */
export interface FoundMarker extends Marker {
  start: number;
  end: number;
  /** Single spaces, a marker-safe key and a 16-digit hash: the shape `withMarker` produces. */
  canonical: boolean;
}

const KEY_SHAPE = /^[A-Za-z0-9][A-Za-z0-9:/._-]*$/;
const HASH_SHAPE = /^[0-9a-f]{16}$/;
// Read leniently (spacing, `#`/`@` in keys, any hash length) because callers may stamp their own
// markers; written strictly by `withMarker`.
const MARKER = /<!--\s*driftback:([A-Za-z0-9._:/#@-]+)\s+hash:([0-9a-f]+)\s*-->/g;

/** The first 16 hex digits of the body's SHA-256. */
export function contentHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 16);
}

/** The marker comment for `key` and `hash`, exactly as written (no escaping: pass a safe key). */
export function markerComment(key: string, hash: string): string {
  return `<!-- driftback:${key} hash:${hash} -->`;
}

/** Every marker in a body, in order; a marker quoted inside the body is listed too. */
export function markersIn(body: string | null | undefined): FoundMarker[] {
  if (!body) return [];
  return [...body.matchAll(MARKER)].map((match) => {
    const [text, key, hash] = match;
    return {
      key,
      hash,
      start: match.index,
      end: match.index + text.length,
      canonical: KEY_SHAPE.test(key) && HASH_SHAPE.test(hash) && text === markerComment(key, hash),
    };
  });
}

/** A key made safe for a marker: anything outside [A-Za-z0-9:/._-] becomes `_`. */
export function markerKey(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9:/._-]/g, '_');
  return KEY_SHAPE.test(safe) ? safe : `k${safe}`;
}

/** The body with its marker appended (the hash covers the body as written). */
export function withMarker(key: string, body: string): string {
  return `${body}\n\n${markerComment(markerKey(key), contentHash(body))}`;
}

/** The last canonical marker in a body, or undefined. Text before it cannot fake it: only the last one counts. */
export function markerOf(body: string | null | undefined): Marker | undefined {
  const last = markersIn(body).findLast((marker) => marker.canonical);
  return last && { key: last.key, hash: last.hash };
}

/** The body without its trailing marker: what the hash was computed over. */
export function bodyWithoutMarker(body: string): string {
  const last = markersIn(body).at(-1);
  const trailing =
    last !== undefined &&
    last.canonical &&
    last.end === body.length &&
    body.slice(last.start - 2, last.start) === '\n\n';
  return trailing ? body.slice(0, last.start - 2) : body;
}

/** True when `body` (as posted) already carries the marker `key` would get for `next`. */
export function isUnchanged(posted: string | null | undefined, key: string, next: string): boolean {
  const marker = markerOf(posted);
  return marker !== undefined && marker.key === markerKey(key) && marker.hash === contentHash(next);
}

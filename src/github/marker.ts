// Hidden markers in what the App writes (`<!-- driftback:<key> hash:<hex> -->`): they find the
// App's own comment, issue or PR again, and their hash lets an unchanged update be skipped.
// Kept private to the GitHub edge; the report module renders bodies, this only reads and stamps them.
import { createHash } from 'node:crypto';

export interface Marker {
  key: string;
  hash: string;
}

const MARKER = /<!--\s*driftback:([A-Za-z0-9._:/#@-]+)\s+hash:([0-9a-f]+)\s*-->/g;

export function readMarkers(body: string | null | undefined): Marker[] {
  return [...(body ?? '').matchAll(MARKER)].map((match) => ({ key: match[1], hash: match[2] }));
}

/**
 * The last marker for `key`: the App appends its marker at the end, so one earlier in the body is
 * quoted text (a live value, a manifest line in a code block) and must not pass for the App's own.
 */
export function markerFor(body: string | null | undefined, key: string): Marker | undefined {
  return readMarkers(body).findLast((marker) => marker.key === key);
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * Whether the body already ends in a marker for `key`. Only the end counts: a caller that renders its
 * own marker (with a hash of its choosing) puts it last, while a marker quoted earlier is content.
 */
function isStamped(body: string, key: string): boolean {
  const last = [...body.matchAll(MARKER)].at(-1);
  return last !== undefined && last[1] === key && body.slice(last.index + last[0].length).trim() === '';
}

/** The body with a marker for `key`; a body already stamped for `key` is returned as is. */
export function stampMarker(body: string, key: string): string {
  if (isStamped(body, key)) return body;
  return `${body}\n\n<!-- driftback:${key} hash:${contentHash(body)} -->`;
}

/** Whether `current` already says what `next` says (same marker hash, or same text). */
export function sameContent(current: string | null | undefined, next: string, key: string): boolean {
  const before = markerFor(current, key);
  const after = markerFor(next, key);
  if (before && after) return before.hash === after.hash;
  return (current ?? '') === next;
}

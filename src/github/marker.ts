// The GitHub edge's use of the hidden markers: find the App's own comment, issue or PR by key, stamp
// a body that has no marker yet, and tell an unchanged update from a real one. The format and the
// hash belong to the report module (`src/core/report/document-marker.ts`); this only applies them.
import { contentHash, markerComment, markersIn, type Marker } from '../core/report/document-marker.js';

export { contentHash, type Marker };

export function readMarkers(body: string | null | undefined): Marker[] {
  return markersIn(body).map(({ key, hash }) => ({ key, hash }));
}

/**
 * The last marker for `key`: the App appends its marker at the end, so one earlier in the body is
 * quoted text (a live value, a manifest line in a code block) and must not pass for the App's own.
 */
export function markerFor(body: string | null | undefined, key: string): Marker | undefined {
  return readMarkers(body).findLast((marker) => marker.key === key);
}

/**
 * Whether the body already ends in a marker for `key`. Only the end counts: a caller that renders its
 * own marker (with a hash of its choosing) puts it last, while a marker quoted earlier is content.
 */
function isStamped(body: string, key: string): boolean {
  const last = markersIn(body).at(-1);
  return last !== undefined && last.key === key && body.slice(last.end).trim() === '';
}

/** The body with a marker for `key`; a body already stamped for `key` is returned as is. */
export function stampMarker(body: string, key: string): string {
  if (isStamped(body, key)) return body;
  return `${body}\n\n${markerComment(key, contentHash(body))}`;
}

/** Whether `current` already says what `next` says (same marker hash, or same text). */
export function sameContent(current: string | null | undefined, next: string, key: string): boolean {
  const before = markerFor(current, key);
  const after = markerFor(next, key);
  if (before && after) return before.hash === after.hash;
  return (current ?? '') === next;
}

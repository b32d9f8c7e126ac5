// JSON pointers (RFC 6901) name fields in changes, ignore rules and source maps.
import { ownValue } from './own.js';

export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function toPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => '/' + escapeSegment(s)).join('');
}

export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer} (it must start with "/")`);
  return pointer.slice(1).split('/').map(unescapeSegment);
}

/** Reads the value at a pointer's segments, or undefined. */
export function getAt(value: unknown, segments: ReadonlyArray<string | number>): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (typeof current === 'object' && current !== null) current = ownValue(current, String(segment));
    else return undefined;
  }
  return current;
}

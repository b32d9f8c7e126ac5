// Values and times as people read them in comments, PR bodies, warnings and the CLI: scalars as YAML
// writes them (`8`, `"1"`, `nginx:1.27`), small maps and lists in flow YAML (`{value: "1"}`), never
// escaped JSON; times in UTC to the minute (`2026-12-01 03:10 UTC`), the date left out when it is the
// reference's.
import { stringify } from 'yaml';
import type { PathSegment } from './drift.js';
import { isPlainObject } from './object.js';

/** Inline values longer than this are shown as a block (a YAML diff) instead. */
export const INLINE_VALUE_MAX = 48;

const FLOW = { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 } as const;

/** A value in flow YAML on one line, or undefined when it takes several lines (a multi-line string). */
function flowYaml(value: unknown): string | undefined {
  const text = stringify(value, FLOW).replace(/\n$/, '');
  return text.includes('\n') ? undefined : text;
}

/**
 * A value as short inline text, or undefined when it does not fit `max` characters on one line
 * (show it as a block). `undefined` itself is shown as `(unset)`.
 */
export function inlineValue(value: unknown, max = INLINE_VALUE_MAX): string | undefined {
  if (value === undefined) return '(unset)';
  const text = flowYaml(value);
  return text !== undefined && text.length <= max ? text : undefined;
}

/**
 * A whole env entry as the shell writes it (`env[LEVEL]` → `LEVEL=debug`), or undefined for any other
 * value: an entry with `valueFrom` stays a map, as does anything not at `env[NAME]`.
 */
export function envAssignment(value: unknown, segments: readonly PathSegment[] = []): string | undefined {
  const last = segments[segments.length - 1];
  if (segments[segments.length - 2] !== 'env' || typeof last !== 'object' || !('key' in last)) return undefined;
  if (!isPlainObject(value) || Object.keys(value).sort().join(',') !== 'name,value') return undefined;
  if (typeof value.name !== 'string' || typeof value.value !== 'string') return undefined;
  return `${value.name}=${value.value}`;
}

/** A value on one line, cut to `max` characters with an ellipsis when longer (warnings, CLI lines). */
export function shortValue(value: unknown, max = INLINE_VALUE_MAX): string {
  const inline = inlineValue(value, max);
  if (inline !== undefined) return inline;
  const text = flowYaml(value) ?? stringify(value, FLOW).replace(/\n+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * A timestamp for people, in UTC to the minute, in one format everywhere: `2026-12-01 03:10 UTC`, the
 * date left out (`03:10 UTC`) when it is the reference's. Text that is not a time is returned as it is.
 */
export function showTime(iso: string, reference?: string): string {
  const at = new Date(iso);
  if (!Number.isFinite(at.getTime())) return iso;
  const clock = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
  const day = (date: Date): string =>
    `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  const ref = reference === undefined ? undefined : new Date(reference);
  if (ref && Number.isFinite(ref.getTime()) && day(ref) === day(at)) return clock;
  return `${day(at)} ${clock}`;
}

/** `1 warning`, `3 warnings`. */
export function counted(count: number, word: string, plural = `${word}s`): string {
  return `${count} ${count === 1 ? word : plural}`;
}

/** Drift in its one unit, in every output: `1 object, 4 live changes`. */
export function driftAmount(objects: number, changes: number): string {
  return `${counted(objects, 'object')}, ${counted(changes, 'live change')}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

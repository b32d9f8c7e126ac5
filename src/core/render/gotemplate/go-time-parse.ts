// time.ParseInLocation(layout, value, time.Local) as sprig's toDate calls it, with Local being UTC (Argo
// CD's controller image sets no TZ): layout elements as time/format.go reads them — month and day names
// in any case, `MST` (UTC is UTC; GMT±h its offset; any other abbreviation a zone of that name at offset
// 0, as Go fabricates one when Local does not use it), numeric zones, `.000`/`,000` (exactly that many
// digits), `.999` (any, or none), a fraction after the seconds the layout does not ask for, `002` year
// days, 12-hour clocks — and Go's errors (`cannot parse "x" as "y"`, `day out of range`, `extra text`).
import { civilOf, DAYS, daysFromCivil, MONTHS, tokenAt, type GoTime } from './go-time.js';

export class TimeParseError extends Error {}

interface Fields {
  year: number;
  month: number;
  day: number;
  yday: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  pm: 'AM' | 'PM' | '';
  zoneOffset: number | undefined;
  zoneName: string;
  utc: boolean;
}

/** A bad element: Go's "cannot parse" error names it. */
const BAD = Symbol('bad');
/** An element out of its range: Go's `<what> out of range`. */
class OutOfRange {
  constructor(readonly what: string) {}
}

/** getnum: one or two digits (exactly two when `fixed`). */
function getnum(value: string, fixed: boolean, max = 2): [number, string] {
  const m = (max === 3 ? /^\d{1,3}/ : /^\d{1,2}/).exec(value);
  if (!m || (fixed && m[0].length < max)) throw BAD;
  return [Number(m[0]), value.slice(m[0].length)];
}

function inRange(n: number, low: number, high: number, what: string): number {
  if (n < low || n > high) throw new OutOfRange(what);
  return n;
}

/** lookup: a name from the table, matched without regard to ASCII case. */
function lookup(names: string[], value: string): [number, string] {
  const i = names.findIndex((name) => value.slice(0, name.length).toLowerCase() === name.toLowerCase());
  if (i < 0) throw BAD;
  return [i, value.slice(names[i]!.length)];
}

/** parseNanoseconds: `.` or `,` then digits (at most 9 read); scaled to nanoseconds. */
function nanoseconds(value: string, length: number): number {
  if (value[0] !== '.' && value[0] !== ',') throw BAD;
  const digits = value.slice(1, Math.min(length, 10));
  if (!/^[-+]?\d+$/.test(digits)) throw BAD;
  if (Number(digits) < 0) throw new OutOfRange('fractional second');
  return Number(digits) * 10 ** (9 - digits.length);
}

/** parseSignedOffset / parseGMT: the length of `+h` (hours below 24) after GMT, or 0. */
function signedOffsetLength(value: string): number {
  const m = /^[-+](\d+)/.exec(value);
  return m && Number(m[1]) < 24 ? m[0].length : 0;
}

/** parseTimeZone: the length of a zone abbreviation at the start of value. */
export function timeZoneLength(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) return 3 + signedOffsetLength(value.slice(3));
  if (value[0] === '+' || value[0] === '-') return signedOffsetLength(value);
  const upper = /^[A-Z]{0,6}/.exec(value)![0].length;
  if (upper === 3) return 3;
  if (upper === 4 && (value[3] === 'T' || value.startsWith('WITA'))) return 4;
  if (upper === 5 && value[4] === 'T') return 5;
  return 0;
}

/** A numeric zone (-07, -0700, -07:00, -070000, -07:00:00; Z-forms also take "Z"). */
function numericZone(token: string, value: string, out: Fields): string {
  if (token.startsWith('Z') && value.startsWith('Z')) {
    out.utc = true;
    return value.slice(1);
  }
  const shape = token.slice(1).replace(/\d/g, '9');
  if (value.length < shape.length + 1) throw BAD;
  const text = value.slice(1, shape.length + 1);
  if ([...shape].some((c, i) => (c === ':' ? text[i] !== ':' : !/\d/.test(text[i]!)))) throw BAD;
  const digits = text.replace(/:/g, '').padEnd(6, '0');
  const [h, m, s] = [0, 2, 4].map((i) => Number(digits.slice(i, i + 2))) as [number, number, number];
  if (h > 24) throw new OutOfRange('time zone offset hour');
  if (m > 60) throw new OutOfRange('time zone offset minute');
  if (s > 60) throw new OutOfRange('time zone offset second');
  if (value[0] !== '+' && value[0] !== '-') throw BAD;
  out.zoneOffset = (value[0] === '-' ? -1 : 1) * ((h * 60 + m) * 60 + s);
  return value.slice(shape.length + 1);
}

function zoneName(value: string, out: Fields): string {
  if (value.startsWith('UTC')) {
    out.utc = true;
    return value.slice(3);
  }
  const length = timeZoneLength(value);
  if (length === 0) throw BAD;
  out.zoneName = value.slice(0, length);
  return value.slice(length);
}

/** The seconds element; a fraction the layout does not ask for is read as Go reads it. */
function seconds(token: string, value: string, layoutRest: string, out: Fields): string {
  let rest: string;
  [out.second, rest] = getnum(value, token === '05');
  inRange(out.second, 0, 59, 'second');
  if (!/^[.,]\d/.test(rest)) return rest;
  const next = nextChunk(layoutRest)[1];
  if (next !== undefined && /^[.,]/.test(next)) return rest;
  const length = 1 + /^[.,](\d*)/.exec(rest)![1]!.length;
  out.nanos = nanoseconds(rest, length);
  return rest.slice(length);
}

function fractionElement(token: string, value: string, out: Fields): string {
  if (token[1] === '0') {
    if (value.length < token.length) throw BAD;
    out.nanos = nanoseconds(value, token.length);
    return value.slice(token.length);
  }
  if (!/^[.,]\d/.test(value)) return value; // .999: the fraction may be left out
  const length = 1 + /^[.,](\d*)/.exec(value)![1]!.length;
  out.nanos = nanoseconds(value, length);
  return value.slice(length);
}

/** One layout element read from the value: the value after it. */
function readElement(token: string, value: string, layoutRest: string, out: Fields): string {
  let rest: string;
  switch (token) {
    case '2006':
      if (!/^\d{4}/.test(value)) throw BAD;
      out.year = Number(value.slice(0, 4));
      return value.slice(4);
    case '06':
      [out.year, rest] = getnum(value, true);
      out.year += out.year >= 69 ? 1900 : 2000;
      return rest;
    case 'Jan':
    case 'January':
      [out.month, rest] = lookup(token === 'Jan' ? MONTHS.map((m) => m.slice(0, 3)) : MONTHS, value);
      out.month += 1;
      return rest;
    case 'Mon':
    case 'Monday':
      return lookup(token === 'Mon' ? DAYS.map((d) => d.slice(0, 3)) : DAYS, value)[1];
    case '1':
    case '01':
      [out.month, rest] = getnum(value, token === '01');
      inRange(out.month, 1, 12, 'month');
      return rest;
    default:
      return readClock(token, value, layoutRest, out);
  }
}

function readClock(token: string, value: string, layoutRest: string, out: Fields): string {
  let rest: string;
  switch (token) {
    case '2':
    case '_2':
    case '02':
      [out.day, rest] = getnum(token === '_2' && value[0] === ' ' ? value.slice(1) : value, token === '02');
      return rest;
    case '__2':
    case '002':
      [out.yday, rest] = getnum(token === '__2' ? value.replace(/^ {1,2}/, '') : value, token === '002', 3);
      return rest;
    case '15':
    case '3':
    case '03':
      [out.hour, rest] = getnum(value, token === '03');
      inRange(out.hour, 0, token === '15' ? 23 : 12, 'hour');
      return rest;
    case '4':
    case '04':
      [out.minute, rest] = getnum(value, token === '04');
      inRange(out.minute, 0, 59, 'minute');
      return rest;
    case '5':
    case '05':
      return seconds(token, value, layoutRest, out);
    default:
      return readMarker(token, value, out);
  }
}

function readMarker(token: string, value: string, out: Fields): string {
  if (token === 'PM' || token === 'pm') {
    const marker = value.slice(0, 2);
    if (marker !== (token === 'PM' ? 'AM' : 'am') && marker !== (token === 'PM' ? 'PM' : 'pm')) throw BAD;
    out.pm = marker.toUpperCase() as 'AM' | 'PM';
    return value.slice(2);
  }
  if (token === 'MST') return zoneName(value, out);
  if (/^[.,]/.test(token)) return fractionElement(token, value, out);
  return numericZone(token, value, out);
}

/** nextStdChunk: the literal text before the next element, the element, the layout after it. */
function nextChunk(layout: string): [string, string | undefined, string] {
  for (let i = 0; i < layout.length; i++) {
    const token = tokenAt(layout, i);
    if (token !== undefined) return [layout.slice(0, i), token, layout.slice(i + token.length)];
  }
  return [layout, undefined, ''];
}

/** skip: the layout's literal text; a run of spaces matches any run of spaces. */
function skip(value: string, prefix: string): string {
  let [v, p] = [value, prefix];
  while (p.length > 0) {
    if (p[0] === ' ') {
      if (v.length > 0 && v[0] !== ' ') throw BAD;
      [p, v] = [p.replace(/^ +/, ''), v.replace(/^ +/, '')];
      continue;
    }
    if (v[0] !== p[0]) throw BAD;
    [p, v] = [p.slice(1), v.slice(1)];
  }
  return v;
}

const quote = (text: string) => JSON.stringify(text);

function fail(layout: string, value: string, layoutElem: string, valueElem: string): never {
  throw new TimeParseError(
    `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`,
  );
}

function readAll(layout: string, value: string): Fields {
  const out: Fields = {
    ...{ year: 0, month: -1, day: -1, yday: -1, hour: 0, minute: 0, second: 0, nanos: 0, pm: '' },
    ...{ zoneOffset: undefined, zoneName: '', utc: false },
  };
  let [rest, v] = [layout, value];
  for (;;) {
    const [prefix, token, after] = nextChunk(rest);
    try {
      v = skip(v, prefix);
    } catch {
      fail(layout, value, prefix, v);
    }
    if (token === undefined) break;
    try {
      v = readElement(token, v, after, out);
    } catch (error) {
      if (error instanceof OutOfRange)
        throw new TimeParseError(`parsing time ${quote(value)}: ${error.what} out of range`);
      if (error === BAD) fail(layout, value, token, v);
      throw error;
    }
    rest = after;
  }
  if (v.length > 0) throw new TimeParseError(`parsing time ${quote(value)}: extra text: ${quote(v)}`);
  return out;
}

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (month: number, year: number) => daysFromCivil(year, month + 1, 1) - daysFromCivil(year, month, 1);

/** The year day into month and day, checked against those the value gave. */
function resolveDate(out: Fields, value: string): void {
  const error = (what: string) => new TimeParseError(`parsing time ${quote(value)}: ${what}`);
  if (out.yday < 0) {
    if (out.month < 0) out.month = 1;
    if (out.day < 0) out.day = 1;
  } else {
    if (out.yday < 1 || out.yday > (isLeap(out.year) ? 366 : 365)) throw error('day-of-year out of range');
    const c = civilOf({ seconds: (daysFromCivil(out.year, 1, 1) + out.yday - 1) * 86400, offset: 0 });
    if (out.month >= 0 && out.month !== c.month) throw error('day-of-year does not match month');
    if (out.day >= 0 && out.day !== c.day) throw error('day-of-year does not match day');
    [out.month, out.day] = [c.month, c.day];
  }
  if (out.day < 1 || out.day > daysIn(out.month, out.year)) throw error('day out of range');
}

/** time.ParseInLocation(layout, value, Local) with Local being UTC. */
export function parseTime(layout: string, value: string): GoTime {
  const out = readAll(layout, value);
  if (out.pm === 'PM' && out.hour < 12) out.hour += 12;
  else if (out.pm === 'AM' && out.hour === 12) out.hour = 0;
  resolveDate(out, value);
  const wall = daysFromCivil(out.year, out.month, out.day) * 86400 + out.hour * 3600 + out.minute * 60 + out.second;
  const utc = { seconds: wall, nanos: out.nanos, offset: 0, zone: 'UTC', zoneName: 'UTC' };
  if (out.utc) return utc;
  if (out.zoneOffset !== undefined) {
    const local = out.zoneOffset === 0 && (out.zoneName === '' || out.zoneName === 'UTC');
    if (local) return utc;
    return { ...utc, seconds: wall - out.zoneOffset, offset: out.zoneOffset, zone: out.zoneName };
  }
  if (out.zoneName === '') return utc;
  // A zone Local does not use: Go fabricates one of that name, at GMT±h's offset or 0, on the same wall clock.
  const gmt = /^GMT([-+]\d+)$/.exec(out.zoneName);
  return { ...utc, offset: gmt ? Number(gmt[1]) * 3600 : 0, zone: out.zoneName, zoneName: out.zoneName };
}

// Go's time formatting (time/format.go's layouts: "2006-01-02 15:04:05", "Jan _2", "Z07:00", ".000"…)
// of a Unix time in a zone, and time.ParseDuration, for sprig's date, dateInZone, htmlDate,
// htmlDateInZone and durationRound. "Local" is UTC, as in Argo CD's container; other zones through Intl.
import { TemplateError } from './parser.js';

const MONTHS = [
  ...['January', 'February', 'March', 'April', 'May', 'June'],
  ...['July', 'August', 'September', 'October', 'November', 'December'],
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
  yearDay: number;
  offset: number; // seconds east of UTC
  zone: string; // the abbreviation, or '' where the runtime does not know the one Go's tzdata has
  zoneName: string;
}

/** The zone's offset (seconds) at a Unix time: UTC/Local, or an IANA name Intl knows. */
function offsetAt(seconds: number, zone: string): [number, string, string] {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return [0, 'UTC', zone];
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(
      new Date(seconds * 1000),
    );
  } catch {
    return [0, 'UTC', zone]; // sprig's dateInZone: a zone time.LoadLocation does not know is UTC.
  }
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(name);
  const offset = m?.[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) : 0;
  const abbreviation = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(new Date(seconds * 1000))
    .find((p) => p.type === 'timeZoneName')?.value;
  return [offset, abbreviation && /^[A-Z]{3,5}$/.test(abbreviation) ? abbreviation : '', zone];
}

function civil(seconds: number, zone: string): Civil {
  const [offset, name, zoneName] = offsetAt(seconds, zone);
  const d = new Date((seconds + offset) * 1000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return {
    ...{ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours() },
    ...{ minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay(), offset, zone: name, zoneName },
    yearDay: Math.floor((d.getTime() - start) / 86_400_000) + 1,
  };
}

function zoneAbbreviation(t: Civil): string {
  if (t.zone !== '') return t.zone;
  throw new TemplateError(`the zone abbreviation (MST in the layout) of ${t.zoneName} is not known here; use -07:00`);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Go's numeric zone: "-07:00"-style tokens; Z-forms print "Z" at UTC. */
function zoneText(token: string, offset: number): string {
  if (token.startsWith('Z') && offset === 0) return 'Z';
  const abs = Math.abs(offset);
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor(abs / 60) % 60, abs % 60];
  const sign = offset < 0 ? '-' : '+';
  const body = token.slice(1);
  if (body === '07') return `${sign}${pad(h)}`;
  if (body === '0700') return `${sign}${pad(h)}${pad(m)}`;
  if (body === '07:00') return `${sign}${pad(h)}:${pad(m)}`;
  if (body === '070000') return `${sign}${pad(h)}${pad(m)}${pad(s)}`;
  return `${sign}${pad(h)}:${pad(m)}:${pad(s)}`;
}

const TOKENS = [
  ...['January', 'Jan', 'Monday', 'Mon', 'MST', '2006', '002', '01', '02', '03', '04', '05', '06', '15'],
  ...['__2', '_2', '1', '2', '3', '4', '5', 'PM', 'pm'],
  ...['-070000', '-07:00:00', '-0700', '-07:00', '-07', 'Z070000', 'Z07:00:00', 'Z0700', 'Z07:00', 'Z07'],
];

function tokenValue(token: string, t: Civil): string {
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  const table: Record<string, () => string> = {
    ...{ January: () => MONTHS[t.month - 1]!, Jan: () => MONTHS[t.month - 1]!.slice(0, 3) },
    ...{ Monday: () => DAYS[t.weekday]!, Mon: () => DAYS[t.weekday]!.slice(0, 3), MST: () => zoneAbbreviation(t) },
    ...{ '2006': () => pad(t.year, 4), '002': () => pad(t.yearDay, 3), '01': () => pad(t.month) },
    ...{ '02': () => pad(t.day), '03': () => pad(hour12), '04': () => pad(t.minute), '05': () => pad(t.second) },
    ...{ '06': () => pad(t.year % 100), '15': () => pad(t.hour), __2: () => String(t.yearDay).padStart(3, ' ') },
    ...{ _2: () => String(t.day).padStart(2, ' '), '1': () => String(t.month), '2': () => String(t.day) },
    ...{ '3': () => String(hour12), '4': () => String(t.minute), '5': () => String(t.second) },
    ...{ PM: () => (t.hour >= 12 ? 'PM' : 'AM'), pm: () => (t.hour >= 12 ? 'pm' : 'am') },
  };
  return table[token]?.() ?? zoneText(token, t.offset);
}

/** The layout token at i, as time/format.go nextStdChunk finds it (Jan/Mon only before a non-lowercase letter). */
function tokenAt(layout: string, i: number): string | undefined {
  const frac = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
  if (frac) return frac[0];
  const token = TOKENS.find((t) => layout.startsWith(t, i));
  if ((token === 'Jan' || token === 'Mon') && /^[a-z]/.test(layout.slice(i + 3))) return undefined;
  return token;
}

/** time.Time.Format of a Unix time (seconds) in a zone. */
export function formatUnix(layout: string, seconds: number, zone: string): string {
  const t = civil(seconds, zone);
  let out = '';
  for (let i = 0; i < layout.length;) {
    const token = tokenAt(layout, i);
    if (token === undefined) {
      out += layout[i++];
      continue;
    }
    // A fraction of a whole second: ".000" prints zeros, ".999" prints nothing.
    if (/^[.,]/.test(token)) out += token[1] === '0' ? token[0] + '0'.repeat(token.length - 1) : '';
    else out += tokenValue(token, t);
    i += token.length;
  }
  return out;
}

const UNITS: Record<string, bigint> = { ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: 10n ** 9n };
UNITS.m = 60n * UNITS.s!;
UNITS.h = 3600n * UNITS.s!;

/** sprig durationRound: the largest whole unit (y = 365d, mo = 30d) the duration exceeds, its sign dropped. */
export function durationRound(nanos: bigint): string {
  const abs = nanos < 0n ? -nanos : nanos;
  const day = 24n * UNITS.h!;
  const units: [bigint, string][] = [
    [365n * day, 'y'],
    [30n * day, 'mo'],
    [day, 'd'],
    [UNITS.h!, 'h'],
  ];
  for (const [size, name] of [...units, [UNITS.m!, 'm'], [UNITS.s!, 's']] as [bigint, string][])
    if (abs > size) return `${abs / size}${name}`;
  return '0s';
}

/** time.ParseDuration: nanoseconds, or undefined where Go returns an error. */
export function parseDuration(text: string): bigint | undefined {
  const m = /^([-+]?)(.*)$/.exec(text)!;
  if (m[2] === '0') return 0n;
  if (m[2] === '') return undefined;
  let total = 0n;
  for (const part of m[2]!.matchAll(/(\d*)(?:\.(\d*))?([^\d.]+)|(.+)/g)) {
    const [, whole = '', frac = '', unit = '', rest] = part;
    const scale = UNITS[unit];
    if (rest !== undefined || scale === undefined || (whole === '' && frac === '')) return undefined;
    total += BigInt(whole || '0') * scale + (BigInt(frac || '0') * scale) / 10n ** BigInt(frac.length);
  }
  return m[1] === '-' ? -total : total;
}

const NUMERIC: Record<string, [keyof Parsed, RegExp]> = {
  '2006': ['year', /^\d{4}/],
  '01': ['month', /^\d{2}/],
  '1': ['month', /^\d{1,2}/],
  '02': ['day', /^\d{2}/],
  '2': ['day', /^\d{1,2}/],
  _2: ['day', /^ ?\d{1,2}/],
  '15': ['hour', /^\d{2}/],
  '03': ['hour12', /^\d{2}/],
  '3': ['hour12', /^\d{1,2}/],
  '04': ['minute', /^\d{2}/],
  '4': ['minute', /^\d{1,2}/],
  '05': ['second', /^\d{2}/],
  '5': ['second', /^\d{1,2}/],
};

interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  hour12: number;
  minute: number;
  second: number;
  pm: number;
  offset: number;
}

/** One layout element read from the value: its length in the value. */
function readToken(token: string, text: string, out: Parsed): number {
  const numeric = NUMERIC[token];
  if (numeric) {
    const m = numeric[1].exec(text);
    if (!m) throw new Error(`cannot parse "${text}" as "${token}"`);
    out[numeric[0]] = Number(m[0].trim());
    return m[0].length;
  }
  if (token === 'January' || token === 'Jan') {
    const i = MONTHS.findIndex((name) => text.startsWith(token === 'Jan' ? name.slice(0, 3) : name));
    if (i < 0) throw new Error(`cannot parse "${text}" as "${token}"`);
    out.month = i + 1;
    return token === 'Jan' ? 3 : MONTHS[i]!.length;
  }
  if (token === 'PM' || token === 'pm') {
    const v = text.slice(0, 2).toUpperCase();
    if (v !== 'AM' && v !== 'PM') throw new Error(`cannot parse "${text}" as "${token}"`);
    out.pm = v === 'PM' ? 1 : 0;
    return 2;
  }
  const zone = /^(?:Z|([+-])(\d{2}):?(\d{2})?)/.exec(text);
  if (/^[-Z]07(:?00)?$/.test(token) && zone && (token.startsWith('Z') || zone[0] !== 'Z')) {
    out.offset = zone[1] ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 3600 + Number(zone[3] ?? 0) * 60) : 0;
    return zone[0].length;
  }
  throw new Error(`the layout element "${token}" is not supported in toDate`);
}

/** time.ParseInLocation(layout, value, UTC): a Unix time and the offset read, or Go's error text. */
export function parseTime(layout: string, value: string): [number, number] {
  const out: Parsed = { year: 0, month: 1, day: 1, hour: 0, hour12: -1, minute: 0, second: 0, pm: -1, offset: 0 };
  let j = 0;
  for (let i = 0; i < layout.length;) {
    const token = tokenAt(layout, i);
    if (token === undefined) {
      if (value[j] !== layout[i]) throw new Error(`cannot parse "${value.slice(j)}" as "${layout.slice(i)}"`);
      [i, j] = [i + 1, j + 1];
      continue;
    }
    j += readToken(token, value.slice(j), out);
    i += token.length;
  }
  if (j < value.length) throw new Error(`extra text: "${value.slice(j)}"`);
  if (out.hour12 >= 0) out.hour = (out.hour12 % 12) + (out.pm === 1 ? 12 : 0);
  const ms = Date.UTC(out.year, out.month - 1, out.day, out.hour, out.minute, out.second);
  const back = new Date(ms);
  if (out.month > 12 || back.getUTCDate() !== out.day || out.hour > 23 || out.minute > 59 || out.second > 59)
    throw new Error(`parsing time "${value}": value out of range`);
  return [ms / 1000 - out.offset, out.offset];
}

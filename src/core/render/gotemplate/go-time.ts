// Go's time formatting (time/format.go's layouts: "2006-01-02 15:04:05", "Jan _2", "Z07:00", ".000"…)
// of an instant in a zone, and time.ParseDuration, for sprig's date, dateInZone, htmlDate,
// htmlDateInZone and durationRound. "Local" is UTC, as in Argo CD's container; other zones through Intl.
import { TemplateError } from './parser.js';

export const MONTHS = [
  ...['January', 'February', 'March', 'April', 'May', 'June'],
  ...['July', 'August', 'September', 'October', 'November', 'December'],
];
export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A time.Time: Unix seconds and nanoseconds, and its zone — the offset east of UTC and the
 * abbreviation MST prints (`''`: a zone with no name, printed as -0700; undefined: a zone whose
 * abbreviation is not known here).
 */
export interface GoTime {
  seconds: number;
  nanos: number;
  offset: number;
  zone: string | undefined;
  /** The location's name, for messages. */
  zoneName: string;
}

interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
  yearDay: number;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The wall clock of an instant at an offset. */
export function civilOf(t: Pick<GoTime, 'seconds' | 'offset'>): Civil {
  const local = t.seconds + t.offset;
  const days = Math.floor(local / 86400);
  const rest = local - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  return {
    ...{ year, month, day, hour: Math.floor(rest / 3600), minute: Math.floor(rest / 60) % 60, second: rest % 60 },
    weekday: (((days + 4) % 7) + 7) % 7,
    yearDay: days - daysFromCivil(year, 1, 1) + 1,
  };
}

/** The zone's offset (seconds) and abbreviation at a Unix time: UTC/Local, or an IANA name Intl knows. */
function offsetAt(seconds: number, zone: string): [number, string | undefined] {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return [0, 'UTC'];
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(
      new Date(seconds * 1000),
    );
  } catch {
    return [0, 'UTC']; // sprig's dateInZone: a zone time.LoadLocation does not know is UTC.
  }
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(name);
  const offset = m?.[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) : 0;
  const abbreviation = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(new Date(seconds * 1000))
    .find((p) => p.type === 'timeZoneName')?.value;
  return [offset, abbreviation && /^[A-Z]{3,5}$/.test(abbreviation) ? abbreviation : undefined];
}

/** Time.In(LoadLocation(zone)) of an instant. */
export function inZone(t: Pick<GoTime, 'seconds' | 'nanos'>, zone: string): GoTime {
  const [offset, abbreviation] = offsetAt(t.seconds, zone);
  return { seconds: t.seconds, nanos: t.nanos, offset, zone: abbreviation, zoneName: zone === '' ? 'UTC' : zone };
}

/** MST in a layout: the abbreviation, -0700 for a zone without one. */
function zoneAbbreviation(t: GoTime): string {
  if (t.zone === undefined)
    throw new TemplateError(`the zone abbreviation (MST in the layout) of ${t.zoneName} is not known here; use -07:00`);
  return t.zone === '' ? zoneText('-0700', t.offset) : t.zone;
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

function tokenValue(token: string, c: Civil, t: GoTime): string {
  const hour12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
  const table: Record<string, () => string> = {
    ...{ January: () => MONTHS[c.month - 1]!, Jan: () => MONTHS[c.month - 1]!.slice(0, 3) },
    ...{ Monday: () => DAYS[c.weekday]!, Mon: () => DAYS[c.weekday]!.slice(0, 3), MST: () => zoneAbbreviation(t) },
    ...{ '2006': () => pad(c.year, 4), '002': () => pad(c.yearDay, 3), '01': () => pad(c.month) },
    ...{ '02': () => pad(c.day), '03': () => pad(hour12), '04': () => pad(c.minute), '05': () => pad(c.second) },
    ...{ '06': () => pad(c.year % 100), '15': () => pad(c.hour), __2: () => String(c.yearDay).padStart(3, ' ') },
    ...{ _2: () => String(c.day).padStart(2, ' '), '1': () => String(c.month), '2': () => String(c.day) },
    ...{ '3': () => String(hour12), '4': () => String(c.minute), '5': () => String(c.second) },
    ...{ PM: () => (c.hour >= 12 ? 'PM' : 'AM'), pm: () => (c.hour >= 12 ? 'pm' : 'am') },
  };
  return table[token]?.() ?? zoneText(token, t.offset);
}

/** The layout token at i, as time/format.go nextStdChunk finds it (Jan/Mon only before a non-lowercase letter). */
export function tokenAt(layout: string, i: number): string | undefined {
  const frac = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
  if (frac) return frac[0];
  if (layout.startsWith('_2006', i)) return undefined; // "_" then the year
  const token = TOKENS.find((t) => layout.startsWith(t, i));
  if ((token === 'Jan' || token === 'Mon') && /^[a-z]/.test(layout.slice(i + 3))) return undefined;
  return token;
}

/** A fraction of a second: ".000" prints that many digits, ".999" the digits without trailing zeros. */
function fraction(token: string, nanos: number): string {
  const digits = String(nanos)
    .padStart(9, '0')
    .slice(0, token.length - 1);
  if (token[1] === '0') return token[0] + digits;
  const trimmed = digits.replace(/0+$/, '');
  return trimmed === '' ? '' : token[0] + trimmed;
}

/** time.Time.Format. */
export function formatTime(layout: string, t: GoTime): string {
  const c = civilOf(t);
  let out = '';
  for (let i = 0; i < layout.length;) {
    const token = tokenAt(layout, i);
    if (token === undefined) {
      out += layout[i++];
      continue;
    }
    out += /^[.,]/.test(token) ? fraction(token, t.nanos) : tokenValue(token, c, t);
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

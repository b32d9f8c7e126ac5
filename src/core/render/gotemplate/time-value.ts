// A time.Time as a template sees it (from toDate, mustToDate, dateModify): printed as Time.String, with
// the methods a template can call — Year, Month and Weekday (printed as names, compared as numbers),
// Day, Hour, Minute, Second, Nanosecond, YearDay, Unix, UnixMilli, UnixMicro, UnixNano, Format, String,
// UTC, Local (UTC here), IsZero, Before, After, Equal, Compare, Add (a time.Duration in nanoseconds),
// AddDate, Sub (a time.Duration, printed as Go prints one).
import { civilOf, DAYS, daysFromCivil, formatTime, inZone, MONTHS, type GoTime } from './go-time.js';
import { getter, GoObject, type GoMethod, type Value } from './go-values.js';

const TIMES = new WeakMap<GoObject, GoTime>();
const TIME = 'time.Time';

/** The GoTime of a time.Time value, or undefined for any other value. */
export function timeOf(value: Value): GoTime | undefined {
  return value instanceof GoObject ? TIMES.get(value) : undefined;
}

const BILLION = 1_000_000_000n;
const totalNanos = (t: GoTime) => BigInt(t.seconds) * BILLION + BigInt(t.nanos);

function fromNanos(t: GoTime, nanos: bigint): GoTime {
  const seconds = nanos / BILLION - (nanos % BILLION < 0n ? 1n : 0n);
  return { ...t, seconds: Number(seconds), nanos: Number(nanos - seconds * BILLION) };
}

/** time.Duration.String: `1h2m3.5s`, `1.5ms`, `0s`. */
export function durationString(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  const abs = nanos < 0n ? -nanos : nanos;
  const decimal = (n: bigint, unit: bigint) => {
    const frac = (n % unit)
      .toString()
      .padStart(unit.toString().length - 1, '0')
      .replace(/0+$/, '');
    return `${n / unit}${frac === '' ? '' : `.${frac}`}`;
  };
  if (abs < 1000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${decimal(abs, 1000n)}µs`;
  if (abs < BILLION) return `${sign}${decimal(abs, 1_000_000n)}ms`;
  const [h, m] = [abs / (3600n * BILLION), (abs / (60n * BILLION)) % 60n];
  const s = `${decimal(abs % (60n * BILLION), BILLION)}s`;
  if (h > 0n) return `${sign}${h}h${m}m${s}`;
  return m > 0n ? `${sign}${m}m${s}` : `${sign}${s}`;
}

/** A time.Duration: an int64 printed by its String. */
function durationObject(nanos: bigint): GoObject {
  return new GoObject('time.Duration', durationString(nanos), { String: getter(() => durationString(nanos)) }, nanos);
}

const named = (type: string, name: string, n: number) =>
  new GoObject(type, name, { String: getter(() => name) }, BigInt(n));

/** Time.AddDate: the wall clock moved by years, months and days, normalized as Go's Date does. */
function addDate(t: GoTime, years: bigint, months: bigint, days: bigint): GoTime {
  const c = civilOf(t);
  const month0 = c.month - 1 + Number(months);
  const year = c.year + Number(years) + Math.floor(month0 / 12);
  const month = (((month0 % 12) + 12) % 12) + 1;
  const day = daysFromCivil(year, month, 1) + c.day - 1 + Number(days);
  const wall = day * 86400 + c.hour * 3600 + c.minute * 60 + c.second;
  return { ...t, seconds: wall - t.offset };
}

function clockMethods(t: GoTime): Record<string, GoMethod> {
  const c = civilOf(t);
  const nanos = totalNanos(t);
  return {
    ...{ Year: getter(() => BigInt(c.year)), Day: getter(() => BigInt(c.day)), Hour: getter(() => BigInt(c.hour)) },
    Month: getter(() => named('time.Month', MONTHS[c.month - 1]!, c.month)),
    Weekday: getter(() => named('time.Weekday', DAYS[c.weekday]!, c.weekday)),
    ...{ Minute: getter(() => BigInt(c.minute)), Second: getter(() => BigInt(c.second)) },
    ...{ Nanosecond: getter(() => BigInt(t.nanos)), YearDay: getter(() => BigInt(c.yearDay)) },
    ...{ Unix: getter(() => BigInt(t.seconds)), UnixMilli: getter(() => nanos / 1_000_000n) },
    ...{ UnixMicro: getter(() => nanos / 1000n), UnixNano: getter(() => nanos) },
    IsZero: getter(() => t.seconds === -62135596800 && t.nanos === 0),
  };
}

function timeMethods(t: GoTime): Record<string, GoMethod> {
  const nanos = totalNanos(t);
  const other = (test: (d: bigint) => Value): GoMethod => ({
    params: [TIME],
    call: ([o]) => test(nanos - totalNanos(timeOf(o)!)),
  });
  return {
    ...clockMethods(t),
    Format: { params: ['string'], call: ([layout]) => formatTime(layout as string, t) },
    String: getter(() => timeString(t)),
    UTC: getter(() => timeObject(inZone(t, 'UTC'))),
    Local: getter(() => timeObject(inZone(t, 'Local'))),
    ...{ Before: other((d) => d < 0n), After: other((d) => d > 0n), Equal: other((d) => d === 0n) },
    Compare: other((d) => (d < 0n ? -1n : d > 0n ? 1n : 0n)),
    Sub: other((d) => durationObject(d)),
    Add: { params: ['time.Duration'], call: ([d]) => timeObject(fromNanos(t, nanos + (d as bigint))) },
    AddDate: {
      params: ['int', 'int', 'int'],
      call: ([y, m, d]) => timeObject(addDate(t, y as bigint, m as bigint, d as bigint)),
    },
  };
}

/** Time.String: `2006-01-02 15:04:05.999999999 -0700 MST`. */
function timeString(t: GoTime): string {
  return formatTime('2006-01-02 15:04:05.999999999 -0700 MST', t.zone === undefined ? { ...t, zone: '' } : t);
}

export function timeObject(t: GoTime): GoObject {
  const object = new GoObject(TIME, timeString(t), timeMethods(t));
  TIMES.set(object, t);
  return object;
}

/** Go's zero time (what toDate gives for text its layout does not match). */
export const zeroTime = (): GoObject =>
  timeObject({ seconds: -62135596800, nanos: 0, offset: 0, zone: 'UTC', zoneName: 'UTC' });

/** A time moved by a duration (dateModify's Add). */
export const addNanos = (t: GoTime, nanos: bigint): GoObject => timeObject(fromNanos(t, totalNanos(t) + nanos));

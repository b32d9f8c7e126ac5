// sprig v3.3.0's regexp, hash, encoding and semver functions (regex.go, crypto.go, strings.go,
// semver.go), and the functions whose output differs on every run (random strings and numbers, UUIDs,
// keys and certificates, bcrypt's salt, AES's IV, the current time): a template that calls one cannot
// be rendered to something comparable, so it stops with that reason instead of an invented value.
import { createHash } from 'node:crypto';
import { isReadableRange, parseSemver, satisfiesRange } from '../../charts/semver.js';
import { arity, binary, str, ternaryFn, unary } from './args.js';
import { durationRound, formatTime, inZone, parseDuration, type GoTime } from './go-time.js';
import { parseTime, TimeParseError } from './go-time-parse.js';
import { semverOf } from './semver-value.js';
import { addNanos, timeObject, timeOf, zeroTime } from './time-value.js';
import { UnknownValueError, type TemplateFunction } from './exec.js';
import { compileGoRegexp, findAll, quoteMeta, replaceAll, split } from './go-regexp.js';
import { goType, toInt, type Value } from './go-values.js';
import { TemplateError } from './parser.js';

const VOLATILE = [
  ...['now', 'ago', 'randAlphaNum', 'randAlpha', 'randAscii', 'randNumeric', 'randInt', 'randBytes', 'shuffle'],
  ...['uuidv4', 'bcrypt', 'htpasswd', 'encryptAES', 'genPrivateKey', 'genCA', 'genCAWithKey'],
  ...['genSelfSignedCert', 'genSelfSignedCertWithKey', 'genSignedCert', 'genSignedCertWithKey'],
];

/** Stops the render: what the function returns is different on every run. */
function volatile(name: string): never {
  throw new UnknownValueError(`template uses ${name}, whose output differs on every run`);
}

function regexFunctions(): Record<string, TemplateFunction> {
  const find = (re: Value, s: Value) => findAll(compileGoRegexp(str(re)), str(s), 1)[0]?.groups[0] ?? '';
  const findN = (re: Value, s: Value, n: Value) =>
    findAll(compileGoRegexp(str(re)), str(s), Number(toInt(n))).map((m) => m.groups[0]);
  const replace = (literal: boolean) => (re: Value, s: Value, repl: Value) =>
    replaceAll(compileGoRegexp(str(re)), str(s), str(repl), literal);
  const splitN = (re: Value, s: Value, n: Value) => split(compileGoRegexp(str(re)), str(s), Number(toInt(n)), str(re));
  const match = (re: Value, s: Value) => findAll(compileGoRegexp(str(re)), str(s), 1).length > 0;
  const lenient = (re: Value, s: Value) => {
    try {
      return match(re, s);
    } catch (error) {
      // regexMatch ignores the compile error: an invalid pattern matches nothing.
      if (error instanceof TemplateError) return false;
      throw error;
    }
  };
  return {
    regexMatch: binary('regexMatch', lenient),
    mustRegexMatch: binary('mustRegexMatch', match),
    regexFind: binary('regexFind', find),
    mustRegexFind: binary('mustRegexFind', find),
    regexFindAll: ternaryFn('regexFindAll', findN),
    mustRegexFindAll: ternaryFn('mustRegexFindAll', findN),
    regexReplaceAll: ternaryFn('regexReplaceAll', replace(false)),
    mustRegexReplaceAll: ternaryFn('mustRegexReplaceAll', replace(false)),
    regexReplaceAllLiteral: ternaryFn('regexReplaceAllLiteral', replace(true)),
    mustRegexReplaceAllLiteral: ternaryFn('mustRegexReplaceAllLiteral', replace(true)),
    regexSplit: ternaryFn('regexSplit', splitN),
    mustRegexSplit: ternaryFn('mustRegexSplit', splitN),
    regexQuoteMeta: unary('regexQuoteMeta', (s) => quoteMeta(str(s))),
  };
}

/** hash/adler32. */
function adler32(bytes: Uint8Array): number {
  let [a, b] = [1, 0];
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** encoding/base32 StdEncoding, padded. */
function base32(text: string): string {
  let bits = '';
  for (const byte of new TextEncoder().encode(text)) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += BASE32[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/** sprig base32decode: the decoded text, or Go's error text as the value. */
function base32Decode(text: string): string {
  const body = text.replace(/=+$/, '');
  const bad = [...body].findIndex((c) => !BASE32.includes(c));
  if (bad >= 0 || text.length % 8 !== 0 || [1, 3, 6].includes(body.length % 8))
    return `illegal base32 data at input byte ${bad >= 0 ? bad : body.length}`;
  let bits = '';
  for (const c of body) bits += BASE32.indexOf(c).toString(2).padStart(5, '0');
  const bytes = Uint8Array.from({ length: Math.floor(bits.length / 8) }, (_, i) =>
    parseInt(bits.slice(i * 8, i * 8 + 8), 2),
  );
  return new TextDecoder().decode(bytes);
}

function hashFunctions(): Record<string, TemplateFunction> {
  const hash = (algorithm: string) => (v: Value) => createHash(algorithm).update(str(v), 'utf8').digest('hex');
  return {
    sha1sum: unary('sha1sum', hash('sha1')),
    sha256sum: unary('sha256sum', hash('sha256')),
    sha512sum: unary('sha512sum', hash('sha512')),
    adler32sum: unary('adler32sum', (v) => String(adler32(new TextEncoder().encode(str(v))))),
    b32enc: unary('b32enc', (v) => base32(str(v))),
    b32dec: unary('b32dec', (v) => base32Decode(str(v))),
  };
}

function semverCompare(constraint: string, version: string): boolean {
  if (!isReadableRange(constraint) || constraint.trim() === '')
    throw new TemplateError(`improper constraint: ${constraint}`);
  const parsed = parseSemver(version);
  if (!parsed || !/^v?\d+(\.\d+){0,2}([-+].*)?$/.test(version.trim()))
    throw new TemplateError('Invalid Semantic Version');
  return satisfiesRange(parsed, constraint);
}

/** time.Duration(n * time.Second).String() for sprig duration: `1h0m0s`, `1m30s`, `0s`. */
function durationText(seconds: bigint): string {
  if (seconds === 0n) return '0s';
  const sign = seconds < 0n ? '-' : '';
  const abs = seconds < 0n ? -seconds : seconds;
  const [h, m, s] = [abs / 3600n, (abs / 60n) % 60n, abs % 60n];
  if (h > 0n) return `${sign}${h}h${m}m${s}s`;
  return m > 0n ? `${sign}${m}m${s}s` : `${sign}${s}s`;
}

function timeArg(value: Value): GoTime {
  const t = timeOf(value);
  if (t === undefined) throw new TemplateError(`wrong type for value; expected time.Time; got ${goType(value)}`);
  return t;
}

/** sprig toDate/mustToDate: time.ParseInLocation in Local (UTC); toDate gives the zero time on an error. */
function toDate(must: boolean): TemplateFunction {
  return binary(must ? 'mustToDate' : 'toDate', (layout, text) => {
    try {
      return timeObject(parseTime(str(layout), str(text)));
    } catch (error) {
      if (!(error instanceof TimeParseError)) throw error;
      if (must) throw new TemplateError(error.message);
      return zeroTime();
    }
  });
}

/** sprig dateModify: the time moved by a Go duration; an unreadable duration leaves it (mustDateModify: an error). */
function dateModify(name: string, must: boolean): TemplateFunction {
  return binary(name, (by, date) => {
    const t = timeArg(date);
    const nanos = parseDuration(str(by));
    if (nanos === undefined && must) throw new TemplateError(`time: invalid duration ${JSON.stringify(str(by))}`);
    return nanos === undefined ? date : addNanos(t, nanos);
  });
}

/**
 * sprig's dateInZone takes a time or a Unix time (an int); given anything else — a parameter, which is
 * a string or a float64 — it formats the current time, so the output differs on every run.
 */
function dateOf(name: string, count: number, pick: (args: Value[]) => [Value, string, string]): TemplateFunction {
  return (args) => {
    arity(name, args, count);
    const [value, layout, zone] = pick(args);
    const t = typeof value === 'bigint' ? { seconds: Number(value), nanos: 0 } : timeOf(value);
    if (t === undefined) volatile(`${name} on a value that is not a time (it prints the current time)`);
    return formatTime(layout, inZone(t, zone));
  };
}

export function extraFunctions(): Record<string, TemplateFunction> {
  return {
    ...regexFunctions(),
    ...hashFunctions(),
    semver: unary('semver', (v) => semverOf(str(v))),
    semverCompare: binary('semverCompare', (c, v) => semverCompare(str(c), str(v))),
    ...Object.fromEntries(VOLATILE.map((name) => [name, () => volatile(name)])),
    duration: unary('duration', (v) => durationText(toInt(v))),
    date: dateOf('date', 2, (a) => [a[1], str(a[0]), 'Local']),
    dateInZone: dateOf('dateInZone', 3, (a) => [a[1], str(a[0]), str(a[2])]),
    date_in_zone: dateOf('date_in_zone', 3, (a) => [a[1], str(a[0]), str(a[2])]),
    htmlDate: dateOf('htmlDate', 1, (a) => [a[0], '2006-01-02', 'Local']),
    htmlDateInZone: dateOf('htmlDateInZone', 2, (a) => [a[0], '2006-01-02', str(a[1])]),
    toDate: toDate(false),
    mustToDate: toDate(true),
    dateModify: dateModify('dateModify', false),
    date_modify: dateModify('date_modify', false),
    mustDateModify: dateModify('mustDateModify', true),
    must_date_modify: dateModify('must_date_modify', true),
    unixEpoch: unary('unixEpoch', (v) => String(timeArg(v).seconds)),
    durationRound: unary('durationRound', (v) => durationRound(typeof v === 'string' ? (parseDuration(v) ?? 0n) : 0n)),
  };
}

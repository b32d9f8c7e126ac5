// Go's time layouts as sprig's toDate/mustToDate (time.ParseInLocation in Local) and dateInZone /
// Time.Format read and print them, checked against Go's own test tables: golang/go
// src/time/format_test.go (formatTests, parseTests, rubyTests, parseErrorTests, dayOutOfRangeTests,
// parseTimeZoneTests, secondsTimeZoneOffsetTests, monthOutOfRangeTests and the single-case tests),
// inputs and expected values taken as they are there. One difference is deliberate: Go runs those
// tests with Local set to US Pacific time, where `PST` is Local's own zone at -8h; driftback's Local is
// UTC (Argo CD's controller image sets no TZ), so a value naming `PST` gets Go's fabricated zone of that
// name at offset 0 — the wall clock is the same, the offset is 0 (checked below as such).
import { describe, expect, it } from 'vitest';
import { renderGo } from '../../support/go-template.js';
import { timeZoneLength } from '../../../src/core/render/gotemplate/go-time-parse.js';

const go = (text: string) => renderGo(text);
const q = (text: string) => JSON.stringify(text);

const ANSIC = 'Mon Jan _2 15:04:05 2006';
const UnixDate = 'Mon Jan _2 15:04:05 MST 2006';
const RubyDate = 'Mon Jan 02 15:04:05 -0700 2006';
const RFC822 = '02 Jan 06 15:04 MST';
const RFC850 = 'Monday, 02-Jan-06 15:04:05 MST';
const RFC1123 = 'Mon, 02 Jan 2006 15:04:05 MST';
const RFC1123Z = 'Mon, 02 Jan 2006 15:04:05 -0700';
const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339Nano = '2006-01-02T15:04:05.999999999Z07:00';
const Kitchen = '3:04PM';
const Stamp = 'Jan _2 15:04:05';
const StampMilli = 'Jan _2 15:04:05.000';
const StampMicro = 'Jan _2 15:04:05.000000';
const StampNano = 'Jan _2 15:04:05.000000000';

describe('Time.Format (format_test.go formatTests)', () => {
  // Unix(0, 1233810057012345600) is Thu Feb  4 21:00:57.012345600 PST 2009.
  const time = `(toDate ${q(RFC3339Nano)} "2009-02-05T05:00:57.0123456Z")`;
  it.each([
    ['ANSIC', ANSIC, 'Wed Feb  4 21:00:57 2009'],
    ['UnixDate', UnixDate, 'Wed Feb  4 21:00:57 PST 2009'],
    ['RubyDate', RubyDate, 'Wed Feb 04 21:00:57 -0800 2009'],
    ['RFC822', RFC822, '04 Feb 09 21:00 PST'],
    ['RFC850', RFC850, 'Wednesday, 04-Feb-09 21:00:57 PST'],
    ['RFC1123', RFC1123, 'Wed, 04 Feb 2009 21:00:57 PST'],
    ['RFC1123Z', RFC1123Z, 'Wed, 04 Feb 2009 21:00:57 -0800'],
    ['RFC3339', RFC3339, '2009-02-04T21:00:57-08:00'],
    ['RFC3339Nano', RFC3339Nano, '2009-02-04T21:00:57.0123456-08:00'],
    ['Kitchen', Kitchen, '9:00PM'],
    ['am/pm', '3pm', '9pm'],
    ['AM/PM', '3PM', '9PM'],
    ['two-digit year', '06 01 02', '09 02 04'],
    ['Janet', 'Hi Janet, the Month is January', 'Hi Janet, the Month is February'],
    ['Stamp', Stamp, 'Feb  4 21:00:57'],
    ['StampMilli', StampMilli, 'Feb  4 21:00:57.012'],
    ['StampMicro', StampMicro, 'Feb  4 21:00:57.012345'],
    ['StampNano', StampNano, 'Feb  4 21:00:57.012345600'],
    ['YearDay', 'Jan  2 002 __2 2', 'Feb  4 035  35 4'],
  ])('%s', (_, layout, expected) => {
    expect(go(`{{ dateInZone ${q(layout)} ${time} "America/Los_Angeles" }}`)).toBe(expected);
  });

  it('formats single digits, noon and midnight (TestFormatSingleDigits, TestNoonIs12PM, TestMidnightIs12AM)', () => {
    expect(go('{{ (toDate "2006-01-02 15:04:05.000" "2001-02-03 04:05:06.700").Format "3:4:5" }}')).toBe('4:5:6');
    for (const layout of ['3:04PM', '03:04PM']) {
      expect(go(`{{ (toDate "15:04" "12:00").Format ${q(layout)} }}`)).toBe('12:00PM');
      expect(go(`{{ (toDate "15:04" "00:00").Format ${q(layout)} }}`)).toBe('12:00AM');
    }
  });

  it('formats RFC3339 in fixed zones (rfc3339Formats)', () => {
    for (const value of ['2008-09-17T20:04:26Z', '1994-09-17T20:04:26-05:00', '2000-12-26T01:15:06+04:20'])
      expect(go(`{{ (toDate ${q(RFC3339)} ${q(value)}).Format ${q(RFC3339)} }}`)).toBe(value);
  });
});

// [name, layout, value, hasTZ, hasWD, yearSign, fracDigits] — format_test.go parseTests and rubyTests.
const parseTests: Array<[string, string, string, boolean, boolean, number, number]> = [
  ['ANSIC', ANSIC, 'Thu Feb  4 21:00:57 2010', false, true, 1, 0],
  ['UnixDate', UnixDate, 'Thu Feb  4 21:00:57 PST 2010', true, true, 1, 0],
  ['RubyDate', RubyDate, 'Thu Feb 04 21:00:57 -0800 2010', true, true, 1, 0],
  ['RFC850', RFC850, 'Thursday, 04-Feb-10 21:00:57 PST', true, true, 1, 0],
  ['RFC1123', RFC1123, 'Thu, 04 Feb 2010 21:00:57 PST', true, true, 1, 0],
  ['RFC1123Z', RFC1123Z, 'Thu, 04 Feb 2010 21:00:57 -0800', true, true, 1, 0],
  ['RFC3339', RFC3339, '2010-02-04T21:00:57-08:00', true, false, 1, 0],
  ['custom: "2006-01-02 15:04:05-07"', '2006-01-02 15:04:05-07', '2010-02-04 21:00:57-08', true, false, 1, 0],
  ['ANSIC', ANSIC, 'Thu Feb  4 21:00:57.0 2010', false, true, 1, 1],
  ['UnixDate', UnixDate, 'Thu Feb  4 21:00:57.01 PST 2010', true, true, 1, 2],
  ['RubyDate', RubyDate, 'Thu Feb 04 21:00:57.012 -0800 2010', true, true, 1, 3],
  ['RFC850', RFC850, 'Thursday, 04-Feb-10 21:00:57.0123 PST', true, true, 1, 4],
  ['RFC1123', RFC1123, 'Thu, 04 Feb 2010 21:00:57.01234 PST', true, true, 1, 5],
  ['RFC1123Z', RFC1123Z, 'Thu, 04 Feb 2010 21:00:57.01234 -0800', true, true, 1, 5],
  ['RFC3339', RFC3339, '2010-02-04T21:00:57.012345678-08:00', true, false, 1, 9],
  ['custom: "2006-01-02 15:04:05"', '2006-01-02 15:04:05', '2010-02-04 21:00:57.0', false, false, 1, 0],
  ['ANSIC', ANSIC, 'Thu Feb 4 21:00:57 2010', false, true, 1, 0],
  ['ANSIC', ANSIC, 'Thu      Feb     4     21:00:57     2010', false, true, 1, 0],
  ['ANSIC', ANSIC, 'THU FEB 4 21:00:57 2010', false, true, 1, 0],
  ['ANSIC', ANSIC, 'thu feb 4 21:00:57 2010', false, true, 1, 0],
  ['millisecond:: dot', 'Mon Jan _2 15:04:05.000 2006', 'Thu Feb  4 21:00:57.012 2010', false, true, 1, 3],
  ['microsecond:: dot', 'Mon Jan _2 15:04:05.000000 2006', 'Thu Feb  4 21:00:57.012345 2010', false, true, 1, 6],
  ['nanosecond:: dot', 'Mon Jan _2 15:04:05.000000000 2006', 'Thu Feb  4 21:00:57.012345678 2010', false, true, 1, 9],
  ['millisecond:: comma', 'Mon Jan _2 15:04:05,000 2006', 'Thu Feb  4 21:00:57.012 2010', false, true, 1, 3],
  ['microsecond:: comma', 'Mon Jan _2 15:04:05,000000 2006', 'Thu Feb  4 21:00:57.012345 2010', false, true, 1, 6],
  ['nanosecond:: comma', 'Mon Jan _2 15:04:05,000000000 2006', 'Thu Feb  4 21:00:57.012345678 2010', false, true, 1, 9],
  ['zero1', '2006.01.02.15.04.05.0', '2010.02.04.21.00.57.0', false, false, 1, 1],
  ['zero2', '2006.01.02.15.04.05.00', '2010.02.04.21.00.57.01', false, false, 1, 2],
  [
    'Janet',
    'Hi Janet, the Month is January: Jan _2 15:04:05 2006',
    'Hi Janet, the Month is February: Feb  4 21:00:57 2010',
    false,
    true,
    1,
    0,
  ],
  ['GMT-8', UnixDate, 'Fri Feb  5 05:00:57 GMT-8 2010', true, true, 1, 0],
  ['.9999', '2006-01-02 15:04:05.9999 -0700 MST', '2010-02-04 21:00:57 -0800 PST', true, false, 1, 0],
  ['.999999999', '2006-01-02 15:04:05.999999999 -0700 MST', '2010-02-04 21:00:57 -0800 PST', true, false, 1, 0],
  ['.9999 4', '2006-01-02 15:04:05.9999 -0700 MST', '2010-02-04 21:00:57.0123 -0800 PST', true, false, 1, 4],
  ['.999999999 4', '2006-01-02 15:04:05.999999999 -0700 MST', '2010-02-04 21:00:57.0123 -0800 PST', true, false, 1, 4],
  ['.9999 9', '2006-01-02 15:04:05.9999 -0700 MST', '2010-02-04 21:00:57.012345678 -0800 PST', true, false, 1, 9],
  [
    '.999999999 9',
    '2006-01-02 15:04:05.999999999 -0700 MST',
    '2010-02-04 21:00:57.012345678 -0800 PST',
    true,
    false,
    1,
    9,
  ],
  [',9999', '2006-01-02 15:04:05,9999 -0700 MST', '2010-02-04 21:00:57 -0800 PST', true, false, 1, 0],
  [',999999999', '2006-01-02 15:04:05,999999999 -0700 MST', '2010-02-04 21:00:57 -0800 PST', true, false, 1, 0],
  [',9999 4', '2006-01-02 15:04:05,9999 -0700 MST', '2010-02-04 21:00:57.0123 -0800 PST', true, false, 1, 4],
  [',999999999 4', '2006-01-02 15:04:05,999999999 -0700 MST', '2010-02-04 21:00:57.0123 -0800 PST', true, false, 1, 4],
  [',9999 9', '2006-01-02 15:04:05,9999 -0700 MST', '2010-02-04 21:00:57.012345678 -0800 PST', true, false, 1, 9],
  [
    ',999999999 9',
    '2006-01-02 15:04:05,999999999 -0700 MST',
    '2010-02-04 21:00:57.012345678 -0800 PST',
    true,
    false,
    1,
    9,
  ],
  ['issue 4502', StampNano, 'Feb  4 21:00:57.012345678', false, false, -1, 9],
  ['issue 4502 .999 4', 'Jan _2 15:04:05.999', 'Feb  4 21:00:57.012300000', false, false, -1, 4],
  ['issue 4502 .999 9', 'Jan _2 15:04:05.999', 'Feb  4 21:00:57.012345678', false, false, -1, 9],
  ['issue 4502 .999999999 4', 'Jan _2 15:04:05.999999999', 'Feb  4 21:00:57.0123', false, false, -1, 4],
  ['issue 4502 .999999999 9', 'Jan _2 15:04:05.999999999', 'Feb  4 21:00:57.012345678', false, false, -1, 9],
  ['yday 1', '2006-01-02 002 15:04:05', '2010-02-04 035 21:00:57', false, false, 1, 0],
  ['yday 2', '2006-01 002 15:04:05', '2010-02 035 21:00:57', false, false, 1, 0],
  ['yday 3', '2006-002 15:04:05', '2010-035 21:00:57', false, false, 1, 0],
  ['yday 4', '200600201 15:04:05', '201003502 21:00:57', false, false, 1, 0],
  ['yday 5', '200600204 15:04:05', '201003504 21:00:57', false, false, 1, 0],
  // rubyTests.
  ['RubyDate -0000', RubyDate, 'Thu Feb 04 21:00:57 -0000 2010', false, true, 1, 0],
  ['RubyDate +0000', RubyDate, 'Thu Feb 04 21:00:57 +0000 2010', false, true, 1, 0],
  ['RubyDate +1130', RubyDate, 'Thu Feb 04 21:00:57 +1130 2010', false, true, 1, 0],
];

describe('time.Parse (format_test.go parseTests, rubyTests; checkTime)', () => {
  it.each(parseTests)('%s: %s / %s', (_, layout, value, hasTZ, hasWD, yearSign, fracDigits) => {
    const fields = '{{ $t.Year }} {{ $t.Month }} {{ $t.Day }} {{ $t.Hour }}:{{ $t.Minute }}:{{ $t.Second }}';
    const out = go(
      `{{ $t := mustToDate ${q(layout)} ${q(value)} }}${fields} {{ $t.Nanosecond }} {{ $t.Weekday }} {{ $t.Format "-0700" }}`,
    );
    const [year, month, day, clock, nanos, weekday, offset] = out.split(' ');
    if (yearSign >= 0) expect(year).toBe('2010');
    expect([month, day, clock]).toEqual(['February', '4', '21:0:57']);
    expect(nanos).toBe(String(Number('012345678'.slice(0, fracDigits).padEnd(9, '0'))));
    if (hasWD) expect(weekday).toBe('Thursday');
    // A numeric offset or GMT-8 is -8h as in Go; PST/PDT alone is a zone of that name at 0 (Local is UTC).
    if (hasTZ) expect(offset).toBe(/[-+]\d{2}|GMT-8/.test(value.slice(19)) ? '-0800' : '+0000');
  });

  it('reads a zone abbreviation Local does not use as a zone of that name at offset 0, and UTC as UTC', () => {
    expect(go(`{{ mustToDate ${q(UnixDate)} "Thu Feb  4 21:00:57 PST 2010" }}`)).toBe('2010-02-04 21:00:57 +0000 PST');
    expect(go(`{{ mustToDate ${q(UnixDate)} "Thu Feb  4 21:00:57 UTC 2010" }}`)).toBe('2010-02-04 21:00:57 +0000 UTC');
    expect(go(`{{ mustToDate ${q(RubyDate)} "Thu Feb 04 21:00:57 +0000 2010" }}`)).toBe(
      '2010-02-04 21:00:57 +0000 UTC',
    );
  });

  it('keeps the wall clock of PDT, which Local (UTC) does not use', () => {
    // parseTests' "Thu, 04 Feb 2010 22:00:57 PDT" is 21:00:57 PST only where Local is US Pacific time.
    expect(go(`{{ mustToDate ${q(RFC1123)} "Thu, 04 Feb 2010 22:00:57 PDT" }}`)).toBe('2010-02-04 22:00:57 +0000 PDT');
  });

  it('parses 12PM as noon and 12AM as midnight (Test12PMIsNoon, Test12AMIsMidnight)', () => {
    for (const layout of ['3:04PM', '03:04PM']) {
      expect(go(`{{ (mustToDate ${q(layout)} "12:00PM").Hour }}`)).toBe('12');
      expect(go(`{{ (mustToDate ${q(layout)} "12:00AM").Hour }}`)).toBe('0');
    }
  });

  it('keeps a numeric zone without a name (TestMissingZone, TestMinutesInTimeZone)', () => {
    expect(go(`{{ (mustToDate ${q(RubyDate)} "Thu Feb 02 16:10:03 -0500 2006").Format ${q(UnixDate)} }}`)).toBe(
      'Thu Feb  2 16:10:03 -0500 2006',
    );
    expect(go(`{{ (mustToDate ${q(RubyDate)} "Mon Jan 02 15:04:05 +0123 2006").Format "-07:00:00" }}`)).toBe(
      '+01:23:00',
    );
  });

  it.each([
    ['2006-01-02T15:04:05-070000', '1871-01-01T05:33:02-003408'],
    ['2006-01-02T15:04:05-07:00:00', '1871-01-01T05:33:02-00:34:08'],
    ['2006-01-02T15:04:05-070000', '1871-01-01T05:33:02+003408'],
    ['2006-01-02T15:04:05-07:00:00', '1871-01-01T05:33:02+00:34:08'],
    ['2006-01-02T15:04:05Z070000', '1871-01-01T05:33:02-003408'],
    ['2006-01-02T15:04:05Z07:00:00', '1871-01-01T05:33:02+00:34:08'],
    ['2006-01-02T15:04:05-07', '1871-01-01T05:33:02+01'],
    ['2006-01-02T15:04:05-07', '1871-01-01T05:33:02-02'],
    ['2006-01-02T15:04:05Z07', '1871-01-01T05:33:02-02'],
  ])('reads and prints offsets with seconds (secondsTimeZoneOffsetTests) %s %s', (layout, value) => {
    expect(go(`{{ (mustToDate ${q(layout)} ${q(value)}).Format ${q(layout)} }}`)).toBe(value);
  });

  it('reads a year before its date (TestUnderscoreTwoThousand) and every day of 2020 (TestParseYday)', () => {
    expect(go('{{ mustToDate "15:04_20060102" "14:38_20150618" }}')).toBe('2015-06-18 14:38:00 +0000 UTC');
    const days = Array.from({ length: 365 }, (_, i) => String(i + 1).padStart(3, '0'));
    const template = days.map((d) => `{{ (mustToDate "2006-002" "2020-${d}").YearDay }}`).join(',');
    expect(go(template)).toBe(days.map((d) => String(Number(d))).join(','));
  });
});

describe('time.Parse errors (format_test.go parseErrorTests and the range tests)', () => {
  it.each([
    [ANSIC, 'Feb  4 21:00:60 2010', 'cannot parse'],
    [ANSIC, 'Thu Feb  4 21:00:57 @2010', 'cannot parse'],
    [ANSIC, 'Thu Feb  4 21:00:60 2010', 'second out of range'],
    [ANSIC, 'Thu Feb  4 21:61:57 2010', 'minute out of range'],
    [ANSIC, 'Thu Feb  4 24:00:60 2010', 'hour out of range'],
    ['Mon Jan _2 15:04:05.000 2006', 'Thu Feb  4 23:00:59x01 2010', 'cannot parse'],
    ['Mon Jan _2 15:04:05.000 2006', 'Thu Feb  4 23:00:59.xxx 2010', 'cannot parse'],
    ['Mon Jan _2 15:04:05.000 2006', 'Thu Feb  4 23:00:59.-123 2010', 'fractional second out of range'],
    [StampNano, 'Dec  7 11:22:01.000000', 'cannot parse ".000000" as ".000000000"'],
    [StampNano, 'Dec  7 11:22:01.0000000000', 'extra text: "0"'],
    [RFC3339, '2006-01-02T15:04:05Z07:00', 'parsing time "2006-01-02T15:04:05Z07:00": extra text: "07:00"'],
    [
      RFC3339,
      '2006-01-02T15:04_abc',
      'parsing time "2006-01-02T15:04_abc" as "2006-01-02T15:04:05Z07:00": cannot parse "_abc" as ":"',
    ],
    [
      RFC3339,
      '2006-01-02T15:04:05_abc',
      'parsing time "2006-01-02T15:04:05_abc" as "2006-01-02T15:04:05Z07:00": cannot parse "_abc" as "Z07:00"',
    ],
    [RFC3339, '2006-01-02T15:04:05Z_abc', 'parsing time "2006-01-02T15:04:05Z_abc": extra text: "_abc"'],
    [RFC3339, '2010-02-04T21:00:67.012345678-08:00', 'second out of range'],
    ['_2 Jan 06 15:04 MST', '4 --- 00 00:00 GMT', 'cannot parse'],
    ['_2 January 06 15:04 MST', '4 --- 00 00:00 GMT', 'cannot parse'],
    ['Jan _2 002 2006', 'Feb  4 034 2006', 'day-of-year does not match day'],
    ['Jan _2 002 2006', 'Feb  4 004 2006', 'day-of-year does not match month'],
    // TestStd0xParseError.
    ['01 MST', '0 MST', 'cannot parse "0 MST"'],
    ['01 MST', '1 MST', 'cannot parse "1 MST"'],
    [RFC850, 'Thursday, 04-Feb-1 21:00:57 PST', 'cannot parse "1 21:00:57 PST"'],
    // monthOutOfRangeTests.
    ['01-02', '00-01', 'month out of range'],
    ['01-02', '13-01', 'month out of range'],
  ])('%s / %s stops with %s', (layout, value, message) => {
    const out = go(`{{ mustToDate ${q(layout)} ${q(value)} }}`);
    expect(out).toMatch(/^ERROR: /);
    expect(out).toContain(message);
  });

  it('gives toDate Go zero time where mustToDate stops', () => {
    expect(go('{{ toDate "01-02" "13-01" }}')).toBe('0001-01-01 00:00:00 +0000 UTC');
    expect(go('{{ mustToDate "01-02" "01-01" }}')).toBe('0000-01-01 00:00:00 +0000 UTC');
  });

  it.each([
    ['Thu Jan 99 21:00:57 2010', false],
    ['Thu Jan 31 21:00:57 2010', true],
    ['Thu Jan 32 21:00:57 2010', false],
    ['Thu Feb 28 21:00:57 2012', true],
    ['Thu Feb 29 21:00:57 2012', true],
    ['Thu Feb 29 21:00:57 2010', false],
    ['Thu Mar 31 21:00:57 2010', true],
    ['Thu Mar 32 21:00:57 2010', false],
    ['Thu Apr 30 21:00:57 2010', true],
    ['Thu Apr 31 21:00:57 2010', false],
    ['Thu May 31 21:00:57 2010', true],
    ['Thu May 32 21:00:57 2010', false],
    ['Thu Jun 30 21:00:57 2010', true],
    ['Thu Jun 31 21:00:57 2010', false],
    ['Thu Jul 31 21:00:57 2010', true],
    ['Thu Jul 32 21:00:57 2010', false],
    ['Thu Aug 31 21:00:57 2010', true],
    ['Thu Aug 32 21:00:57 2010', false],
    ['Thu Sep 30 21:00:57 2010', true],
    ['Thu Sep 31 21:00:57 2010', false],
    ['Thu Oct 31 21:00:57 2010', true],
    ['Thu Oct 32 21:00:57 2010', false],
    ['Thu Nov 30 21:00:57 2010', true],
    ['Thu Nov 31 21:00:57 2010', false],
    ['Thu Dec 31 21:00:57 2010', true],
    ['Thu Dec 32 21:00:57 2010', false],
    ['Thu Dec 00 21:00:57 2010', false],
  ])('checks the day of the month (dayOutOfRangeTests) %s', (value, ok) => {
    const out = go(`{{ mustToDate ${q(ANSIC)} ${q(value)} | date "2006-01-02" }}`);
    if (ok) expect(out).toMatch(/^20\d\d-\d\d-\d\d$/);
    else expect(out).toContain('day out of range');
  });
});

describe('zone abbreviations (format_test.go parseTimeZoneTests)', () => {
  it.each([
    ['gmt hi there', 0],
    ['GMT hi there', 3],
    ['GMT+12 hi there', 6],
    ['GMT+00 hi there', 6],
    ['GMT+', 3],
    ['GMT+3', 5],
    ['GMT+a', 3],
    ['GMT+3a', 5],
    ['GMT-5 hi there', 5],
    ['GMT-51 hi there', 3],
    ['ChST hi there', 4],
    ['MeST hi there', 4],
    ['MSDx', 3],
    ['MSDY', 0],
    ['ESAST hi', 5],
    ['ESASTT hi', 0],
    ['ESATY hi', 0],
    ['WITA hi', 4],
    ['+03 hi', 3],
    ['-04 hi', 3],
    ['+00', 3],
    ['-11', 3],
    ['-12', 3],
    ['-23', 3],
    ['-24', 0],
    ['+13', 3],
    ['+14', 3],
    ['+23', 3],
    ['+24', 0],
  ])('%s is %i long (0: not a zone)', (value, length) => {
    expect(timeZoneLength(value)).toBe(length);
  });
});

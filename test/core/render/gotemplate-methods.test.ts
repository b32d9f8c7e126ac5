// text/template's `nil` argument and method calls on the values sprig returns: a *semver.Version's
// methods (Masterminds semver v3 version.go) and a time.Time's, with text/template's errors for a wrong
// number or type of arguments. Cases marked "exec_test.go" are text/template's own
// (golang/go src/text/template/exec_test.go), those marked "semver_test.go" sprig's
// (Masterminds/sprig semver_test.go).
import { describe, expect, it } from 'vitest';
import { renderGo } from '../../support/go-template.js';

const go = renderGo;

describe('nil', () => {
  it.each([
    // exec_test.go "print nil".
    ['{{ print nil }}', '<nil>'],
    ['{{ has "x" nil }}', 'false'],
    ['{{ default "a" nil }}', 'a'],
    ['{{ coalesce nil "b" }}', 'b'],
    ['{{ list 1 nil 2 }}', '[1 <nil> 2]'],
    ['{{ if false }}{{ nil }}{{ end }}ok', 'ok'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it.each([
    // exec_test.go "if nil", "bug14a", "bug14b", "nil[1]", "slice[nil]".
    ['{{ if nil }}TRUE{{ end }}', 'nil is not a command'],
    ['{{ (nil).True }}', 'nil is not a command'],
    ['{{ $x := nil }}{{ $x.anything }}', 'nil is not a command'],
    ['{{ nil }}', 'nil is not a command'],
    ['{{ nil | print }}', 'nil is not a command'],
    ['{{ index nil 1 }}', 'index of untyped nil'],
    ['{{ index .l nil }}', 'cannot index slice/array'],
  ])('%s stops with %s', (template, message) => {
    const out = go(template, { l: [1] });
    expect(out).toMatch(/^ERROR: /);
    expect(out).toContain(message);
  });
});

describe('methods of semver values', () => {
  it.each([
    // semver_test.go TestSemver.
    ['{{ $s := semver "1.2.3-beta.1+c0ff33" }}{{ $s.Prerelease }}', 'beta.1'],
    ['{{ $s := semver "1.2.3-beta.1+c0ff33" }}{{ $s.Major}}', '1'],
    ['{{ semver "1.2.3" | (semver "1.2.3").Compare }}', '0'],
    ['{{ semver "1.2.3" | (semver "1.3.3").Compare }}', '1'],
    ['{{ semver "1.4.3" | (semver "1.2.3").Compare }}', '-1'],
    // The rest follow version.go.
    ['{{ (semver "1.2.3").Compare (semver "1.3.0") }}', '-1'],
    ['{{ (semver "v1.2.3").Original }} {{ semver "v1.2.3" }} {{ (semver "v1.2.3").String }}', 'v1.2.3 1.2.3 1.2.3'],
    ['{{ $v := semver .v }}{{ $v.GreaterThan (semver "1.10.0") }} {{ $v.LessThan (semver "2") }}', 'true true'],
    ['{{ (semver "1.0.0+a").Equal (semver "1.0.0+b") }}', 'true'],
    [
      '{{ (semver "1.0.0").GreaterThanEqual (semver "1.0.0") }} {{ (semver "1.0.0").LessThanEqual (semver "0.9") }}',
      'true false',
    ],
    // Pre-releases: numbers numerically and below words, a longer list above its prefix.
    ['{{ (semver "1.0.0-alpha.10").Compare (semver "1.0.0-alpha.9") }}', '1'],
    ['{{ (semver "1.0.0-alpha.1").Compare (semver "1.0.0-alpha.beta") }}', '-1'],
    ['{{ (semver "1.0.0-alpha").Compare (semver "1.0.0-alpha.1") }}', '-1'],
    ['{{ (semver "1.0.0-rc.1").Compare (semver "1.0.0") }}', '-1'],
    ['{{ (semver "v1.2.3").IncPatch }} {{ (semver "1.2.3-rc.1+m").IncPatch }}', '1.2.4 1.2.3'],
    ['{{ (semver "1.2.3-rc.1").IncMinor }} {{ (semver "1.2.3").IncMajor }}', '1.3.0 2.0.0'],
    ['{{ (semver "1.2.3").IncMajor.Major }}', '2'],
    ['{{ ((semver "1.2.3").SetPrerelease "rc.2").Prerelease }}', 'rc.2'],
    ['{{ (semver "1.2.3").SetMetadata "build.7" }}', '1.2.3+build.7'],
    ['{{ if eq (semver "1.9.0").Minor 9 }}nine{{ end }}', 'nine'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template, { v: '1.10.1' })).toBe(expected);
  });

  it.each([
    ['{{ (semver "1.2.3").Compare }}', 'wrong number of args for Compare: want 1 got 0'],
    ['{{ (semver "1.2.3").Major 1 }}', 'wrong number of args for Major: want 0 got 1'],
    ['{{ (semver "1.2.3").Compare "1.3.0" }}', 'wrong type for value; expected *semver.Version; got string'],
    ['{{ (semver "1.2.3").Compare nil }}', 'error calling Compare: runtime error: invalid memory address'],
    // IncMajor returns a Version value, which has no pointer methods (Compare takes a *Version).
    ['{{ (semver "1.2.3").IncMajor.Compare (semver "1.0.0") }}', "can't evaluate field Compare in type semver.Version"],
    ['{{ (semver "1.2.3").Compare (semver "1.2.3").IncMajor }}', 'expected *semver.Version; got semver.Version'],
    ['{{ (semver "1.2.3").SetPrerelease "01" }}', 'error calling SetPrerelease: version segment starts with 0'],
    ['{{ (semver "1.2.3").SetMetadata "a..b" }}', 'error calling SetMetadata: invalid metadata string'],
    ['{{ .m.key 1 }}', 'key is not a method but has arguments'],
    ['{{ 1 2 }}', "can't give argument to non-function"],
    ['{{ $x := 1 }}{{ $x 2 }}', "can't give argument to non-function"],
    ['{{ $x := 1 }}{{ 3 | $x }}', "can't give argument to non-function"],
  ])('%s stops with %s', (template, message) => {
    const out = go(template, { m: { key: 'v' } });
    expect(out).toMatch(/^ERROR: /);
    expect(out).toContain(message);
  });
});

describe('methods of time values', () => {
  const t = '{{ $t := toDate "2006-01-02T15:04:05.999999999Z07:00" "2024-03-01T17:34:05.25+05:30" }}';
  it.each([
    ['{{ $t.Year }}-{{ $t.Month }}-{{ $t.Day }} {{ $t.Hour }}:{{ $t.Minute }}:{{ $t.Second }}', '2024-March-1 17:34:5'],
    ['{{ $t.Weekday }} {{ $t.YearDay }} {{ $t.Nanosecond }}', 'Friday 61 250000000'],
    ['{{ eq $t.Month 3 }} {{ lt $t.Weekday 6 }} {{ printf "%d" $t.Month }}', 'true true 3'],
    ['{{ $t.Unix }} {{ $t.UnixMilli }}', '1709294645 1709294645250'],
    ['{{ $t.Format "Mon, 02 Jan 2006 15:04:05.000 -0700" }}', 'Fri, 01 Mar 2024 17:34:05.250 +0530'],
    ['{{ $t.UTC }}', '2024-03-01 12:04:05.25 +0000 UTC'],
    ['{{ $t }}', '2024-03-01 17:34:05.25 +0530 +0530'],
    ['{{ ($t.Add 3600000000000).Hour }} {{ $t.AddDate 0 0 -1 | date "2006-01-02" }}', '18 2024-02-29'],
    ['{{ $t.Sub (toDate "2006-01-02" "2024-03-01") }}', '12h4m5.25s'],
    [
      '{{ $t.After (toDate "2006-01-02" "2024-03-01") }} {{ $t.Before (toDate "2006-01-02" "2024-03-01") }}',
      'true false',
    ],
    ['{{ $t.Equal $t.UTC }} {{ $t.IsZero }} {{ (toDate "2006" "x").IsZero }}', 'true false true'],
  ])('%s renders %s', (template, expected) => {
    expect(go(t + template)).toBe(expected);
  });

  it.each([
    ['{{ $t.Format }}', 'wrong number of args for Format: want 1 got 0'],
    ['{{ $t.Format 1 }}', 'wrong type for value; expected string; got int'],
    ['{{ $t.Before "2024" }}', 'wrong type for value; expected time.Time; got string'],
    ['{{ $t.Zone }}', "can't evaluate field Zone in type time.Time"],
  ])('%s stops with %s', (template, message) => {
    const out = go(t + template);
    expect(out).toMatch(/^ERROR: /);
    expect(out).toContain(message);
  });
});

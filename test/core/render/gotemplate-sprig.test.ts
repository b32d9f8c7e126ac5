// sprig's regexp, hash, encoding and semver functions as an ApplicationSet template runs them (sprig
// v3.3.0 on Go's regexp and Masterminds semver): expected values are what Go gives — RE2 syntax and its
// refusals, Go's rules for empty matches in FindAll/ReplaceAll/Split, `$name` expansion — and the
// published digests of the inputs. Functions whose output differs on every run stop the render.
import { describe, expect, it } from 'vitest';
import { renderGo } from '../../support/go-template.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { expandApplicationSet } from '../../../src/core/render/appset-expand.js';

const go = renderGo;

describe('regexp functions, with Go regexp semantics', () => {
  it.each([
    ['{{ regexMatch "^[a-z]+-[0-9]+$" "web-01" }}', 'true'],
    ['{{ regexFind "[0-9]+" "release-2024-x" }}', '2024'],
    ['{{ regexFindAll "[0-9]+" "a1b22c333" -1 }}', '[1 22 333]'],
    ['{{ regexFindAll "[0-9]+" "a1b22c333" 2 }}', '[1 22]'],
    ['{{ regexFindAll "x" "abc" -1 }}', '[]'],
    // An empty match right after a match is not a match (Go), unlike JavaScript's matchAll.
    ['{{ regexFindAll "a*" "baaac" -1 | len }}', '3'],
    ['{{ regexReplaceAll "a*" "baaac" "X" }}', 'XbXcX'],
    ['{{ regexReplaceAll "(?P<env>[a-z]+)-(\\\\d+)" "prod-12" "${2}.$env" }}', '12.prod'],
    // `$1x` is the group named "1x" (none): empty, as in Go.
    ['{{ regexReplaceAll "(\\\\w+)" "ab" "$1x" }}', ''],
    ['{{ regexReplaceAll "b" "abc" "$$" }}', 'a$c'],
    ['{{ regexReplaceAllLiteral "a" "banana" "$1" }}', 'b$1n$1n$1'],
    ['{{ regexSplit "z+" "pizza" -1 }}', '[pi a]'],
    ['{{ regexSplit "" "abc" -1 }}', '[a b c]'],
    ['{{ regexSplit "a" "banana" 2 }}', '[b nana]'],
    ['{{ regexSplit "a" "banana" 0 }}', '[]'],
    ['{{ regexQuoteMeta "1.2.3*" }}', '1\\.2\\.3\\*'],
    // Flags and classes as RE2 reads them.
    ['{{ regexFind "(?i)PROD" "my-prod-app" }}', 'prod'],
    ['{{ regexFind "(?i:p)ROD" "pROD PROD prod" }}', 'pROD'],
    ['{{ regexFind "a.c" "a\\nc abc" }}', 'abc'],
    ['{{ regexFind "a.c" "a\\rc" | len }}', '3'],
    ['{{ regexFind "(?s)a.c" "a\\nc" | len }}', '3'],
    ['{{ regexFind "^b" "a\\nb" }}|{{ regexFind "(?m)^b" "a\\nb" }}', '|b'],
    ['{{ regexFind "a$" "a\\n" }}|{{ regexFind "(?m)a$" "a\\n" }}', '|a'],
    ['{{ regexFind "\\\\s+" "a\\u00a0 b" | len }}', '1'],
    ['{{ regexFind "(?U)a+" "aaa" }}|{{ regexFind "(?U)a+?" "aaa" }}', 'a|aaa'],
    ['{{ regexFind "[[:upper:]][[:digit:]]+" "xA12" }}', 'A12'],
    ['{{ regexFind "\\\\p{Greek}+" "abc αβγ" }}', 'αβγ'],
    ['{{ regexFind "\\\\PL+" "ab12cd" }}', '12'],
    ['{{ regexFind "a{,2}" "a{,2}" }}', 'a{,2}'],
    ['{{ regexFind "\\\\Qa.b\\\\E+" "a.bbb" }}', 'a.bbb'],
    ['{{ regexFind "\\\\x{3b1}\\\\x41" "αA" }}', 'αA'],
    ['{{ regexFind "\\\\101" "A" }}', 'A'],
    ['{{ regexFind "[\\\\d.-]+" "v1.2-3x" }}', '1.2-3'],
    ['{{ regexFind "\\\\bapp\\\\b" "my app" }}', 'app'],
    // regexMatch ignores a pattern that does not compile; the must- form fails.
    ['{{ regexMatch "(" "x" }}', 'false'],
  ])('%s → %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it.each([
    ['{{ mustRegexMatch "(" "x" }}', 'error parsing regexp: missing closing ): `(`'],
    ['{{ regexFind "(a)\\\\1" "aa" }}', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['{{ mustRegexMatch "foo(?=bar)" "foobar" }}', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['{{ mustRegexMatch "foo(?!bar)" "foobar" }}', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['{{ mustRegexMatch "(?<=a)b" "ab" }}', 'error parsing regexp: invalid named capture: `(?<=a)b`'],
    ['{{ mustRegexMatch "a{1001}" "a" }}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['{{ mustRegexMatch "a**" "a" }}', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['{{ mustRegexMatch "*a" "a" }}', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['{{ mustRegexMatch "[a" "a" }}', 'error parsing regexp: missing closing ]: `[a`'],
    ['{{ mustRegexMatch "[z-a]" "a" }}', 'error parsing regexp: invalid character class range: `z-a`'],
    ['{{ mustRegexMatch "a)" "a" }}', 'error parsing regexp: unexpected ): `a)`'],
    ['{{ mustRegexMatch "\\\\Z" "a" }}', 'error parsing regexp: invalid escape sequence: `\\Z`'],
    ['{{ mustRegexMatch "\\\\p{Nope}" "a" }}', 'error parsing regexp: invalid character class range: `\\p{Nope}`'],
  ])('%s is refused as Go refuses it', (template, message) => {
    expect(go(template)).toContain(message);
  });

  it('matches in linear time: a pattern that makes a backtracking engine run for ever is answered at once', () => {
    const text = `${'a'.repeat(5000)}c`;
    expect(go(`{{ regexMatch "(a+)+b" .text }}|{{ regexMatch "(a|aa)*c$" .text }}`, { text })).toBe('false|true');
  });
});

describe('hashes, encodings and semver', () => {
  it.each([
    ['{{ sha1sum "hello" }}', 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d'],
    ['{{ sha256sum "hello" }}', '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
    [
      '{{ sha512sum "" }}',
      'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
    ],
    ['{{ adler32sum "Wikipedia" }}', '300286872'],
    ['{{ .name | sha256sum | trunc 8 }}', '2c26b46b'],
    ['{{ b32enc "hello" }}|{{ b32enc "a" }}', 'NBSWY3DP|ME======'],
    ['{{ b32dec "NBSWY3DP" }}|{{ b32dec "ME======" }}', 'hello|a'],
    ['{{ b32dec "NBSWY3D!" }}', 'illegal base32 data at input byte 7'],
    ['{{ semver "v1.2" }}', '1.2.0'],
    [
      '{{ $v := semver "1.4.2-rc.1+build.5" }}{{ $v.Major }}.{{ $v.Minor }}|{{ $v.Prerelease }}|{{ $v.Metadata }}',
      '1.4|rc.1|build.5',
    ],
    [
      '{{ semverCompare "^1.2" "1.9.0" }} {{ semverCompare ">=2.0.0" "1.9.0" }} {{ semverCompare "~1.2" "1.3.0" }}',
      'true false false',
    ],
    ['{{ semverCompare ">=1.0.0" "1.1.0-beta" }} {{ semverCompare ">=1.1.0-alpha" "1.1.0-beta" }}', 'false true'],
  ])('%s → %s', (template, expected) => {
    expect(go(template, { name: 'foo' })).toBe(expected);
  });

  it('refuses what Masterminds semver refuses', () => {
    expect(go('{{ semver "one" }}')).toContain('error calling semver: Invalid Semantic Version');
    expect(go('{{ semverCompare "bad!" "1.0.0" }}')).toContain('improper constraint: bad!');
    expect(go('{{ (semver "1.0.0").Nope }}')).toContain("can't evaluate field Nope in type *semver.Version");
  });
});

describe('functions whose output differs on every run', () => {
  it.each(['now', 'uuidv4', 'randAlphaNum 8', 'randInt 1 9', 'genCA "x" 365', 'bcrypt "p"', 'shuffle "abc"'])(
    '{{ %s }} stops the render with the reason',
    (call) => {
      const name = call.split(' ')[0];
      expect(go(`x-{{ ${call} }}`)).toBe(`ERROR: template uses ${name}, whose output differs on every run`);
    },
  );

  it('date of a parameter formats the current time in sprig, so it stops the render too', () => {
    expect(go('{{ date "2006-01-02" .when }}', { when: '2024-01-01' })).toBe(
      'ERROR: template uses date on a value that is not a time (it prints the current time), whose output differs on every run',
    );
    expect(go('{{ now | date "2006-01-02" }}')).toBe('ERROR: template uses now, whose output differs on every run');
  });

  it('duration prints Go durations', () => {
    expect(go('{{ duration 90 }}|{{ duration 3600 }}|{{ duration "0" }}|{{ duration -5 }}')).toBe(
      '1m30s|1h0m0s|0s|-5s',
    );
  });

  it('is fine in a branch that is not taken', () => {
    expect(go('{{ if false }}{{ uuidv4 }}{{ end }}ok')).toBe('ok');
  });

  it('leaves the ApplicationSet not rendered, with the reason', () => {
    const appset = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'apps', namespace: 'argocd' },
      spec: {
        goTemplate: true,
        generators: [{ list: { elements: [{ name: 'web' }] } }],
        template: {
          metadata: { name: '{{ .name }}', annotations: { deployedAt: '{{ now | date "2006-01-02" }}' } },
          spec: { project: 'default', source: { repoURL: 'https://x/y.git', path: 'apps' }, destination: {} },
        },
      },
    } as unknown as KubeObject;
    expect(expandApplicationSet(appset, { files: new Map(), live: [], isThisRepository: () => true })).toEqual({
      ok: false,
      reason: 'template uses now, whose output differs on every run',
    });
  });
});

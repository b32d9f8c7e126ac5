// sprig v3.3.0's list and dict functions as an ApplicationSet template runs them: expected values are
// what Go gives (reflect.DeepEqual comparisons, Go's slice bounds, mergo's merge of nested maps, GNU
// seq's output), and the errors sprig's must* variants raise on a value that is not a list or map.
import { describe, expect, it } from 'vitest';
import { renderGo } from '../../support/go-template.js';

const go = renderGo;

describe('list functions', () => {
  it.each([
    ['{{ list 1 2 1 "a" "a" 1.0 | uniq }}', '[1 2 a 1]'],
    ['{{ list 1 "" 0 false "x" (list) (dict) | compact }}', '[1 x]'],
    ['{{ without (list 1 2 3 2) 2 }}', '[1 3]'],
    ['{{ without (list 1 2 3) 1 3 }}', '[2]'],
    // An int is not a float64: reflect.DeepEqual compares types too.
    ['{{ has 2 (list 1 2) }}', 'true'],
    ['{{ has 2.0 (list 1 2) }}', 'false'],
    ['{{ has "x" .none }}', 'false'],
    ['{{ has (list 1) (list (list 1) 2) }}', 'true'],
    ['{{ slice (list 1 2 3 4 5) 1 3 }}', '[2 3]'],
    ['{{ slice (list 1 2 3 4 5) 3 }}', '[4 5]'],
    ['{{ slice (list 1 2 3) }}', '[1 2 3]'],
    ['{{ concat (list 1 2) (list 3) (list) }}', '[1 2 3]'],
    ['{{ append (list 1) 2 }} {{ prepend (list 1) 0 }}', '[1 2] [0 1]'],
    ['{{ rest (list 1 2 3) }} {{ initial (list 1 2 3) }} {{ reverse (list 1 2 3) }}', '[2 3] [1 2] [3 2 1]'],
    ['{{ until 4 }} {{ until -3 }} {{ until 0 }}', '[0 1 2 3] [0 -1 -2] []'],
    [
      '{{ untilStep 3 12 3 }} {{ untilStep 5 0 -2 }} {{ untilStep 0 5 -1 }} {{ untilStep 0 5 0 }}',
      '[3 6 9] [5 3 1] [] []',
    ],
    [
      '{{ seq 3 }}|{{ seq -2 }}|{{ seq 2 5 }}|{{ seq 5 2 }}|{{ seq 0 2 7 }}|{{ seq 7 -3 1 }}|{{ seq 7 2 1 }}',
      '1 2 3|1 0 -1 -2|2 3 4 5|5 4 3 2|0 2 4 6|7 4 1|',
    ],
    ['{{ range $i := until 3 }}{{ $i }}{{ end }}', '012'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it.each([
    ['{{ uniq "abc" }}', 'Cannot find uniq on type string'],
    ['{{ mustUniq 3 }}', 'Cannot find uniq on type int'],
    ['{{ mustCompact (dict) }}', 'Cannot compact on type map'],
    ['{{ mustWithout "a" "a" }}', 'Cannot find without on type string'],
    ['{{ mustHas 1 "123" }}', 'Cannot find has on type string'],
    ['{{ mustSlice "abc" 1 }}', 'list should be type of slice or array but string'],
    ['{{ slice (list 1 2 3) 2 5 }}', 'slice index out of range'],
    ['{{ slice (list 1 2 3) 2 1 }}', 'slice index out of range'],
    ['{{ concat (list 1) "x" }}', 'Cannot concat type string as list'],
    ['{{ mustPush "x" 1 }}', 'Cannot push on type string'],
    ['{{ mustReverse 1.5 }}', 'Cannot find reverse on type float64'],
    ['{{ until 100000000 }}', 'more than 100000 items'],
    // Parameters are float64: until takes an int, and text/template refuses the call.
    ['{{ until .n }}', 'wrong type for value; expected int; got float64'],
    ['{{ seq 1 .n }}', 'wrong type for value; expected int; got float64'],
    ['{{ seq 1 100000000 }}', 'more than 100000 items'],
  ])('%s stops with %s', (template, message) => {
    expect(go(template, { n: 3 })).toMatch(/^ERROR: /);
    expect(go(template, { n: 3 })).toContain(message);
  });
});

describe('dict functions', () => {
  const params = { a: { x: 1, nested: { p: 'keep', q: '' } }, b: { x: 2, y: 'new', nested: { q: 'fill', r: 'add' } } };
  it.each([
    ['{{ pick .a "x" "missing" }}', 'map[x:1]'],
    ['{{ omit .b "x" "nested" }}', 'map[y:new]'],
    // merge keeps what the first map has and fills what is missing or empty, nested maps too.
    ['{{ merge (deepCopy .a) .b }}', 'map[nested:map[p:keep q:fill r:add] x:1 y:new]'],
    ['{{ mergeOverwrite (deepCopy .a) .b }}', 'map[nested:map[p:keep q:fill r:add] x:2 y:new]'],
    // mergeOverwrite writes empty values over set ones (sprig's documented `key: false` example).
    ['{{ mergeOverwrite (dict "key" true "k2" "v") (dict "key" false) }}', 'map[k2:v key:false]'],
    ['{{ merge (dict "l" (list 1)) (dict "l" (list 2) "m" (list 3)) }}', 'map[l:[1] m:[3]]'],
    // merge changes its first map, as Go's does; deepCopy leaves the original alone.
    ['{{ $d := dict "a" 1 }}{{ $_ := merge $d (dict "b" 2) }}{{ $d }}', 'map[a:1 b:2]'],
    [
      '{{ $c := deepCopy .a }}{{ $_ := set $c.nested "p" "changed" }}{{ .a.nested.p }} {{ $c.nested.p }}',
      'keep changed',
    ],
    ['{{ unset (dict "a" 1 "b" 2) "a" }}', 'map[b:2]'],
    ['{{ pluck "x" .a .b (dict) }}', '[1 2]'],
    ['{{ dig "nested" "r" "none" .b }} {{ dig "nested" "z" "none" .b }}', 'add none'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template, params)).toBe(expected);
  });

  it.each([
    ['{{ mustMerge "x" (dict) }}', 'expected map[string]interface {}; got string'],
    ['{{ mergeOverwrite (dict) (list) }}', 'expected map[string]interface {}; got []interface {}'],
    ['{{ pick (list) "a" }}', 'expected map[string]interface {}'],
    ['{{ omit (dict) 1 }}', 'expected string; got int'],
  ])('%s stops with %s', (template, message) => {
    expect(go(template)).toContain(message);
  });
});

describe('urlParse and urlJoin, with net/url semantics', () => {
  it.each([
    [
      '{{ urlParse "https://user:p%40ss@git.example.com:8443/org/repo.git?ref=main#readme" | toJson }}',
      '{"fragment":"readme","host":"git.example.com:8443","hostname":"git.example.com","opaque":"","path":"/org/repo.git","query":"ref=main","scheme":"https","userinfo":"user:p%40ss"}',
    ],
    ['{{ (urlParse "HTTP://[::1]:80/a%20b").hostname }} {{ (urlParse "HTTP://[::1]:80/a%20b").path }}', '::1 /a b'],
    ['{{ (urlParse "HTTP://x").scheme }}', 'http'],
    ['{{ (urlParse "mailto:ops@example.com").opaque }}', 'ops@example.com'],
    ['{{ (urlParse "git@github.com:org/repo").path }}', 'ERROR'],
    ['{{ (urlParse "charts/app").path }}', 'charts/app'],
    [
      '{{ urlJoin (dict "scheme" "https" "host" "example.com" "path" "a b/c?" "query" "x=1" "fragment" "top") }}',
      'https://example.com/a%20b/c%3F?x=1#top',
    ],
    ['{{ urlJoin (dict "host" "example.com" "path" "rel") }}', '//example.com/rel'],
    ['{{ urlJoin (dict "path" "a:b") }}', './a:b'],
    ['{{ urlJoin (dict "scheme" "mailto" "opaque" "ops@example.com") }}', 'mailto:ops@example.com'],
    ['{{ urlJoin (dict "scheme" "https" "host" "h" "userinfo" "me:s%40cret") }}', 'https://me:s%40cret@h'],
    ['{{ urlParse "https://u@h/p?q#f" | urlJoin }}', 'https://u@h/p?q#f'],
  ])('%s renders %s', (template, expected) => {
    const out = go(template);
    if (expected === 'ERROR') expect(out).toMatch(/^ERROR: .*first path segment in URL cannot contain colon/);
    else expect(out).toBe(expected);
  });

  it.each([
    ['{{ urlParse "https://h/%zz" }}', 'unable to parse url: parse "https://h/%zz": invalid URL escape "%zz"'],
    ['{{ urlParse "https://h:port/" }}', 'invalid port ":port" after host'],
    ['{{ urlParse ":x" }}', 'missing protocol scheme'],
    ['{{ urlParse 3 }}', 'expected string; got int'],
    ['{{ urlJoin (dict "host" 3) }}', 'unable to parse host key, must be of type string, but int found'],
    ['{{ urlJoin "x" }}', 'expected map[string]interface {}; got string'],
  ])('%s stops with %s', (template, message) => {
    expect(go(template)).toMatch(/^ERROR: /);
    expect(go(template)).toContain(message);
  });
});

describe('date formatting of a Unix time, with Go layouts', () => {
  // 1709294645 is 2024-03-01T12:04:05Z, a Friday.
  it.each([
    ['{{ date "2006-01-02 15:04:05" 1709294645 }}', '2024-03-01 12:04:05'],
    ['{{ date "Mon Jan _2 3:4:5 PM MST 06 002" 1709294645 }}', 'Fri Mar  1 12:4:5 PM UTC 24 061'],
    ['{{ date "Monday, 02-January-2006 Z07:00 -0700 .000|.999" 1709294645 }}', 'Friday, 01-March-2024 Z +0000 .000|'],
    ['{{ date "Janet 1/2" 1709294645 }}', 'Janet 3/1'],
    ['{{ htmlDate 0 }}', '1970-01-01'],
    ['{{ dateInZone "2006-01-02 15:04 -07:00" 1709294645 "Asia/Kolkata" }}', '2024-03-01 17:34 +05:30'],
    ['{{ dateInZone "15:04 MST" 1709294645 "America/New_York" }}', '07:04 EST'],
    ['{{ dateInZone "15:04 MST" 1720000000 "America/New_York" }}', '05:46 EDT'],
    // A zone Go cannot load is UTC in sprig's dateInZone.
    ['{{ dateInZone "15:04 Z07:00" 1709294645 "Nowhere/City" }}', '12:04 Z'],
    ['{{ htmlDateInZone 1709294645 "Pacific/Kiritimati" }}', '2024-03-02'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it.each([
    ['{{ durationRound "2h10m5s" }}', '2h'],
    ['{{ durationRound "-49h" }}', '2d'],
    ['{{ durationRound "1.5h" }}', '1h'],
    ['{{ durationRound "800h" }}', '1mo'],
    ['{{ durationRound "9000h" }}', '1y'],
    ['{{ durationRound "61s" }}', '1m'],
    ['{{ durationRound "1s" }}', '0s'],
    ['{{ durationRound "soon" }}', '0s'],
    // An int from a template is not an int64 in Go: sprig reads it as no duration.
    ['{{ durationRound 3600 }}', '0s'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('stops where the zone abbreviation Go would print is not known, rather than inventing one', () => {
    expect(go('{{ dateInZone "15:04 MST" 1709294645 "Asia/Kolkata" }}')).toContain(
      'the zone abbreviation (MST in the layout) of Asia/Kolkata is not known here',
    );
  });

  it('stops on a wrong number of arguments', () => {
    expect(go('{{ date "2006" }}')).toContain('wrong number of args for date: want 2 got 1');
  });
});

describe('toDate, dateModify and unixEpoch', () => {
  it.each([
    ['{{ toDate "2006-01-02" "2024-03-01" }}', '2024-03-01 00:00:00 +0000 UTC'],
    ['{{ toDate "2006-01-02 15:04:05" "2024-03-01 12:04:05" | unixEpoch }}', '1709294645'],
    ['{{ toDate "2006-01-02T15:04:05Z07:00" "2024-03-01T17:34:05+05:30" }}', '2024-03-01 17:34:05 +0530 +0530'],
    ['{{ toDate "2006-01-02T15:04:05Z07:00" "2024-03-01T17:34:05+05:30" | unixEpoch }}', '1709294645'],
    ['{{ toDate "Jan 2, 2006 3:04 PM" "Mar 1, 2024 1:04 PM" | date "2006-01-02 15:04" }}', '2024-03-01 13:04'],
    // toDate of text the layout does not match is Go's zero time.
    ['{{ toDate "2006-01-02" "March 1" }}', '0001-01-01 00:00:00 +0000 UTC'],
    ['{{ toDate "2006-01-02" "2024-03-01" | dateModify "-1.5h" | date "2006-01-02 15:04" }}', '2024-02-29 22:30'],
    ['{{ toDate "2006-01-02" "2024-03-01" | dateModify "soon" | date "2006-01-02" }}', '2024-03-01'],
    [
      '{{ dateInZone "2006-01-02 15:04 MST" (toDate "2006-01-02" "2024-03-01") "America/New_York" }}',
      '2024-02-29 19:00 EST',
    ],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it.each([
    ['{{ mustToDate "2006-01-02" "2024-02-30" }}', 'out of range'],
    ['{{ mustToDate "2006-01-02" "2024-03-01x" }}', 'extra text'],
    ['{{ toDate "2006-01-02" "2024-03-01" | mustDateModify "soon" }}', 'time: invalid duration "soon"'],
    ['{{ unixEpoch 5 }}', 'expected time.Time; got int'],
  ])('%s stops with %s', (template, message) => {
    expect(go(template)).toMatch(/^ERROR: /);
    expect(go(template)).toContain(message);
  });
});

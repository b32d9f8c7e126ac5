// urlParse/urlJoin and merge/mergeOverwrite checked with the upstream tables they rest on: Go's
// golang/go src/net/url/url_test.go (urltests with the parse and its round trip, stringURLTests,
// TestParseErrors, TestInvalidUserPassword, TestRejectControlCharacters), sprig's url_test.go and
// dict_test.go (TestMerge, TestMergeOverwrite), and dario.cat/mergo's map tests (issue202_test.go,
// issue123_test.go, issue143_test.go, pr81_test.go, mergo_test.go TestJSONMaps with its testdata).
// Inputs and expected values are taken as written there. A round trip here is urlJoin of urlParse: Go's
// RawPath, RawFragment and ForceQuery are not in sprig's dict, so those cases check the parse only.
import { describe, expect, it } from 'vitest';
import { renderGo } from '../../support/go-template.js';

// [in, scheme, opaque, userinfo (User.String()), host, path, query, fragment, round trip ('' = in, null = parse only)]
type UrlCase = [string, string, string, string, string, string, string, string, string | null];
const urltests: UrlCase[] = [
  ['http://www.google.com', 'http', '', '', 'www.google.com', '', '', '', ''],
  ['http://www.google.com/', 'http', '', '', 'www.google.com', '/', '', '', ''],
  ['http://www.google.com/file%20one%26two', 'http', '', '', 'www.google.com', '/file one&two', '', '', null],
  ['http://www.google.com/#file%20one%26two', 'http', '', '', 'www.google.com', '/', '', 'file one&two', null],
  ['ftp://webmaster@www.google.com/', 'ftp', '', 'webmaster', 'www.google.com', '/', '', '', ''],
  ['ftp://john%20doe@www.google.com/', 'ftp', '', 'john%20doe', 'www.google.com', '/', '', '', ''],
  ['http://www.google.com/?', 'http', '', '', 'www.google.com', '/', '', '', null],
  ['http://www.google.com/?foo=bar?', 'http', '', '', 'www.google.com', '/', 'foo=bar?', '', ''],
  ['http://www.google.com/?q=go+language', 'http', '', '', 'www.google.com', '/', 'q=go+language', '', ''],
  ['http://www.google.com/?q=go%20language', 'http', '', '', 'www.google.com', '/', 'q=go%20language', '', ''],
  ['http://www.google.com/a%20b?q=c+d', 'http', '', '', 'www.google.com', '/a b', 'q=c+d', '', ''],
  ['http:www.google.com/?q=go+language', 'http', 'www.google.com/', '', '', '', 'q=go+language', '', ''],
  ['http:%2f%2fwww.google.com/?q=go+language', 'http', '%2f%2fwww.google.com/', '', '', '', 'q=go+language', '', ''],
  [
    'mailto:/webmaster@golang.org',
    'mailto',
    '',
    '',
    '',
    '/webmaster@golang.org',
    '',
    '',
    'mailto:///webmaster@golang.org',
  ],
  ['mailto:webmaster@golang.org', 'mailto', 'webmaster@golang.org', '', '', '', '', '', ''],
  ['/foo?query=http://bad', '', '', '', '', '/foo', 'query=http://bad', '', ''],
  ['//foo', '', '', '', 'foo', '', '', '', ''],
  ['//user@foo/path?a=b', '', '', 'user', 'foo', '/path', 'a=b', '', ''],
  ['///threeslashes', '', '', '', '', '///threeslashes', '', '', ''],
  ['http://user:password@google.com', 'http', '', 'user:password', 'google.com', '', '', '', ''],
  [
    'http://j@ne:password@google.com',
    'http',
    '',
    'j%40ne:password',
    'google.com',
    '',
    '',
    '',
    'http://j%40ne:password@google.com',
  ],
  [
    'http://jane:p@ssword@google.com',
    'http',
    '',
    'jane:p%40ssword',
    'google.com',
    '',
    '',
    '',
    'http://jane:p%40ssword@google.com',
  ],
  [
    'http://j@ne:password@google.com/p@th?q=@go',
    'http',
    '',
    'j%40ne:password',
    'google.com',
    '/p@th',
    'q=@go',
    '',
    'http://j%40ne:password@google.com/p@th?q=@go',
  ],
  ['http://www.google.com/?q=go+language#foo', 'http', '', '', 'www.google.com', '/', 'q=go+language', 'foo', ''],
  [
    'http://www.google.com/?q=go+language#foo&bar',
    'http',
    '',
    '',
    'www.google.com',
    '/',
    'q=go+language',
    'foo&bar',
    '',
  ],
  [
    'http://www.google.com/?q=go+language#foo%26bar',
    'http',
    '',
    '',
    'www.google.com',
    '/',
    'q=go+language',
    'foo&bar',
    null,
  ],
  ['file:///home/adg/rabbits', 'file', '', '', '', '/home/adg/rabbits', '', '', ''],
  ['file:///C:/FooBar/Baz.txt', 'file', '', '', '', '/C:/FooBar/Baz.txt', '', '', ''],
  ['MaIlTo:webmaster@golang.org', 'mailto', 'webmaster@golang.org', '', '', '', '', '', 'mailto:webmaster@golang.org'],
  ['a/b/c', '', '', '', '', 'a/b/c', '', '', ''],
  ['http://%3Fam:pa%3Fsword@google.com', 'http', '', '%3Fam:pa%3Fsword', 'google.com', '', '', '', ''],
  ['http://192.168.0.1/', 'http', '', '', '192.168.0.1', '/', '', '', ''],
  ['http://192.168.0.1:8080/', 'http', '', '', '192.168.0.1:8080', '/', '', '', ''],
  ['http://[fe80::1]/', 'http', '', '', '[fe80::1]', '/', '', '', ''],
  ['http://[fe80::1]:8080/', 'http', '', '', '[fe80::1]:8080', '/', '', '', ''],
  ['http://[fe80::1%25en0]/', 'http', '', '', '[fe80::1%en0]', '/', '', '', ''],
  ['http://[fe80::1%25en0]:8080/', 'http', '', '', '[fe80::1%en0]:8080', '/', '', '', ''],
  [
    'http://[fe80::1%25%65%6e%301-._~]/',
    'http',
    '',
    '',
    '[fe80::1%en01-._~]',
    '/',
    '',
    '',
    'http://[fe80::1%25en01-._~]/',
  ],
  [
    'http://[fe80::1%25%65%6e%301-._~]:8080/',
    'http',
    '',
    '',
    '[fe80::1%en01-._~]:8080',
    '/',
    '',
    '',
    'http://[fe80::1%25en01-._~]:8080/',
  ],
  [
    'http://rest.rsc.io/foo%2fbar/baz%2Fquux?alt=media',
    'http',
    '',
    '',
    'rest.rsc.io',
    '/foo/bar/baz/quux',
    'alt=media',
    '',
    null,
  ],
  ['mysql://a,b,c/bar', 'mysql', '', '', 'a,b,c', '/bar', '', '', ''],
  ["scheme://!$&'()*+,;=hello!:1/path", 'scheme', '', '', "!$&'()*+,;=hello!:1", '/path', '', '', ''],
  ["http://host/!$&'()*+,;=:@[hello]", 'http', '', '', 'host', "/!$&'()*+,;=:@[hello]", '', '', null],
  ['http://example.com/oid/[order_id]', 'http', '', '', 'example.com', '/oid/[order_id]', '', '', null],
  ['http://192.168.0.2:8080/foo', 'http', '', '', '192.168.0.2:8080', '/foo', '', '', ''],
  ['http://192.168.0.2:/foo', 'http', '', '', '192.168.0.2:', '/foo', '', '', ''],
  [
    'http://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080/foo',
    'http',
    '',
    '',
    '2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080',
    '/foo',
    '',
    '',
    '',
  ],
  [
    'http://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:/foo',
    'http',
    '',
    '',
    '2b01:e34:ef40:7730:8e70:5aff:fefe:edac:',
    '/foo',
    '',
    '',
    '',
  ],
  [
    'http://[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:8080/foo',
    'http',
    '',
    '',
    '[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:8080',
    '/foo',
    '',
    '',
    '',
  ],
  [
    'http://[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:/foo',
    'http',
    '',
    '',
    '[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:',
    '/foo',
    '',
    '',
    '',
  ],
  [
    'http://hello.世界.com/foo',
    'http',
    '',
    '',
    'hello.世界.com',
    '/foo',
    '',
    '',
    'http://hello.%E4%B8%96%E7%95%8C.com/foo',
  ],
  [
    'http://hello.%e4%b8%96%e7%95%8c.com/foo',
    'http',
    '',
    '',
    'hello.世界.com',
    '/foo',
    '',
    '',
    'http://hello.%E4%B8%96%E7%95%8C.com/foo',
  ],
  ['http://hello.%E4%B8%96%E7%95%8C.com/foo', 'http', '', '', 'hello.世界.com', '/foo', '', '', ''],
  ['http://example.com//foo', 'http', '', '', 'example.com', '//foo', '', '', ''],
  ['myscheme://authority<"hi">/foo', 'myscheme', '', '', 'authority<"hi">', '/foo', '', '', ''],
  [
    'tcp://[2020::2020:20:2020:2020%25Windows%20Loves%20Spaces]:2020',
    'tcp',
    '',
    '',
    '[2020::2020:20:2020:2020%Windows Loves Spaces]:2020',
    '',
    '',
    '',
    '',
  ],
  [
    'magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn',
    'magnet',
    '',
    '',
    '',
    '',
    'xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn',
    '',
    '',
  ],
  ['mailto:?subject=hi', 'mailto', '', '', '', '', 'subject=hi', '', ''],
];

describe('urlParse and urlJoin (url_test.go urltests)', () => {
  it.each(urltests)('%s', (input, scheme, opaque, userinfo, host, path, query, fragment, roundtrip) => {
    const parsed = renderGo('{{ urlParse .in | toJson }}', { in: input });
    const fields = JSON.parse(parsed) as Record<string, string>;
    expect({ ...fields, hostname: undefined }).toEqual({
      ...{ scheme, opaque, userinfo, host, path, query, fragment },
      hostname: undefined,
    });
    if (roundtrip !== null) expect(renderGo('{{ urlParse .in | urlJoin }}', { in: input })).toBe(roundtrip || input);
  });

  it.each([
    [{ scheme: 'http', host: 'www.google.com', path: 'search' }, 'http://www.google.com/search'],
    [{ path: 'this:that' }, './this:that'],
    [{ path: 'here/this:that' }, 'here/this:that'],
    [{ scheme: 'http', host: 'www.google.com', path: 'this:that' }, 'http://www.google.com/this:that'],
  ])('urlJoin %j is %s (stringURLTests)', (dict, expected) => {
    expect(renderGo('{{ urlJoin .d }}', { d: dict })).toBe(expected);
  });

  it.each([
    ['http://[::1]', false],
    ['http://[::1]:80', false],
    ['http://[::1]:namedport', true],
    ['http://x:namedport', true],
    ['http://[::1]/', false],
    ['http://[::1]a', true],
    ['http://[::1]%23', true],
    ['http://[::1%25en0]', false],
    ['http://[::1]:', false],
    ['http://x:', false],
    ['http://[::1]:%38%30', true],
    ['http://[::1%25%41]', false],
    ['http://[%10::1]', true],
    ['http://[::1]/%48', false],
    ['http://%41:8080/', true],
    ['mysql://x@y(z:123)/foo', true],
    ['mysql://x@y(1.2.3.4:123)/foo', true],
    [' http://foo.com', true],
    ['ht tp://foo.com', true],
    ['ahttp://foo.com', false],
    ['1http://foo.com', true],
    ['http://[]%20%48%54%54%50%2f%31%2e%31%0a%4d%79%48%65%61%64%65%72%3a%20%31%32%33%0a%0a/', true],
    ['http://a b.com/', true],
    ['cache_object://foo', true],
    ['cache_object:foo', true],
    ['cache_object:foo/bar', true],
    ['cache_object/:foo/bar', false],
    // TestInvalidUserPassword, TestRejectControlCharacters.
    ['http://user^:passwo^rd@foo.com/', true],
    ['http://foo.com/?foo\nbar', true],
    ['http\r://foo.com/', true],
    ['http://foo\x7f.com/', true],
    ['http://foo.com/ctl\x80', false],
  ])('urlParse %j refuses it: %s (TestParseErrors)', (input, refused) => {
    const out = renderGo('{{ urlParse .in | len }}', { in: input });
    if (refused) expect(out).toMatch(/^ERROR: .*unable to parse url/);
    else expect(out).toBe('8');
  });

  it('names the reason as Go does', () => {
    expect(renderGo('{{ urlParse .in }}', { in: 'http://user^:passwo^rd@foo.com/' })).toContain(
      'net/url: invalid userinfo',
    );
    expect(renderGo('{{ urlParse .in }}', { in: 'http://foo.com/?foo\nbar' })).toContain(
      'net/url: invalid control character in URL',
    );
  });
});

describe('urlParse and urlJoin (sprig url_test.go)', () => {
  it.each([
    [
      'proto://auth@host:80/path?query#fragment',
      ['fragment', 'host:80', 'host', '', '/path', 'query', 'proto', 'auth'],
    ],
    ['proto://host:80/path', ['', 'host:80', 'host', '', '/path', '', 'proto', '']],
    ['something', ['', '', '', '', 'something', '', '', '']],
    ['proto://user:passwor%20d@host:80/path', ['', 'host:80', 'host', '', '/path', '', 'proto', 'user:passwor%20d']],
    ['proto://host:80/pa%20th?key=val%20ue', ['', 'host:80', 'host', '', '/pa th', 'key=val%20ue', 'proto', '']],
  ])('urlParse %s', (input, values) => {
    const keys = ['fragment', 'host', 'hostname', 'opaque', 'path', 'query', 'scheme', 'userinfo'];
    expect(JSON.parse(renderGo('{{ urlParse .in | toJson }}', { in: input }))).toEqual(
      Object.fromEntries(keys.map((key, i) => [key, values[i]])),
    );
  });

  it.each([
    [
      '{{ urlJoin (dict "fragment" "fragment" "host" "host:80" "path" "/path" "query" "query" "scheme" "proto") }}',
      'proto://host:80/path?query#fragment',
    ],
    [
      '{{ urlJoin (dict "fragment" "fragment" "host" "host:80" "path" "/path" "scheme" "proto" "userinfo" "ASDJKJSD") }}',
      'proto://ASDJKJSD@host:80/path#fragment',
    ],
    ['{{ index ( urlParse "proto://auth@host:80/path?query#fragment" ) "host" }}', 'host:80'],
  ])('%s renders %s', (template, expected) => {
    expect(renderGo(template)).toBe(expected);
  });
});

const mergeInput = () => ({
  src2: { h: 10, i: 'i', j: 'j' },
  src1: { a: 1, b: 2, d: { e: 'four' }, g: [6, 7], i: 'aye', j: 'jay', k: { l: false } },
  dst: { a: 'one', c: 3, d: { f: 5 }, g: [8, 9], i: 'eye', k: { l: true } },
});
const merged = (template: string, params: Record<string, unknown>) => JSON.parse(renderGo(template, params)) as unknown;

describe('merge and mergeOverwrite (sprig dict_test.go, mergo map tests)', () => {
  it('merges as sprig TestMerge expects', () => {
    expect(merged('{{ merge .dst .src1 .src2 | toJson }}', mergeInput())).toEqual({
      ...{ a: 'one', b: 2, c: 3, d: { e: 'four', f: 5 }, g: [8, 9], h: 10, i: 'eye', j: 'jay' },
      k: { l: true },
    });
  });

  it('overwrites as sprig TestMergeOverwrite expects', () => {
    expect(merged('{{ mergeOverwrite .dst .src1 .src2 | toJson }}', mergeInput())).toEqual({
      ...{ a: 1, b: 2, c: 3, d: { e: 'four', f: 5 }, g: [6, 7], h: 10, i: 'i', j: 'j' },
      k: { l: false },
    });
  });

  it.each([
    ['slice override string', { x: 456, y: 'foo' }, { x: '123', y: [1, 2, 3] }, { x: '123', y: [1, 2, 3] }],
    ['string override slice', { x: 456, y: [1, 2, 3] }, { x: '123', y: 'foo' }, { x: '123', y: 'foo' }],
    ['map override string', { x: 456, y: 'foo' }, { x: '123', y: { a: true } }, { x: '123', y: { a: true } }],
    ['string override map', { x: 456, y: { a: true } }, { x: '123', y: 'foo' }, { x: '123', y: 'foo' }],
    ['map override map', { x: 456, y: { a: 10 } }, { x: '123', y: { a: true } }, { x: '123', y: { a: true } }],
    [
      'map override map with merge',
      { x: 456, y: { a: 10, b: 100 } },
      { x: '123', y: { a: true } },
      { x: '123', y: { a: true, b: 100 } },
    ],
    // issue123_test.go: nil in the source overwrites.
    [
      'nil overwrites (issue 123)',
      { col1: 2, col2: 3, col3: 3 },
      { col1: null, col2: 4, col3: null },
      { col1: null, col2: 4, col3: null },
    ],
    // pr81_test.go: nested maps merged under override.
    [
      'multiple layers (pr 81)',
      { k1: { 'k1.1': 'v1' } },
      { k1: { 'k1.1': 'v2', 'k1.2': 'v3' } },
      { k1: { 'k1.1': 'v2', 'k1.2': 'v3' } },
    ],
    // issue143_test.go with WithOverride.
    [
      'string over map (issue 143)',
      { properties: { field1: { type: 'text' } } },
      { properties: { field1: 'wrong' } },
      { properties: { field1: 'wrong' } },
    ],
  ])('mergeOverwrite: %s (issue202_test.go and others)', (_, dst, src, want) => {
    expect(merged('{{ mergeOverwrite .dst .src | toJson }}', { dst, src })).toEqual(want);
  });

  it('keeps a map the source would replace with a string without override (issue143_test.go)', () => {
    const dst = { properties: { field1: { type: 'text' } } };
    expect(merged('{{ merge .dst .src | toJson }}', { dst, src: { properties: { field1: 'wrong' } } })).toEqual(dst);
  });

  it('adds the fields the destination lacks (mergo_test.go TestJSONMaps, testdata/thing.json and license.json)', () => {
    const thing = {
      fields: {
        id: 'int',
        name: 'string',
        parent: 'ref datu:thing',
        status: 'enum(draft, public, private)',
        author: 'updater',
      },
    };
    const license = { import: './thing.json', fields: { site: 'string', author: 'updater' } };
    const out = merged('{{ merge .license .thing | toJson }}', { license, thing }) as typeof license & typeof thing;
    expect(Object.keys(out.fields)).toHaveLength(5 + 2 - 1);
    expect(out.fields.id).toBe('int');
  });
});

// sprig functions checked with sprig's own test cases (Masterminds/sprig crypto_test.go, list_test.go,
// defaults_test.go, dict_test.go; templates and expected output as written there), and `values`, whose
// order Go leaves random: it renders only where the order cannot show.
import { createCipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderGo } from '../../support/go-template.js';

const go = renderGo;
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/custom-cert/${name}`, import.meta.url), 'utf8');
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('derivePassword (crypto_test.go TestDerivePassword)', () => {
  it.each([
    ['{{derivePassword 1 "long" "password" "user" "example.com"}}', 'ZedaFaxcZaso9*'],
    ['{{derivePassword 2 "long" "password" "user" "example.com"}}', 'Fovi2@JifpTupx'],
    ['{{derivePassword 1 "maximum" "password" "user" "example.com"}}', 'pf4zS1LjCg&LjhsZ7T2~'],
    ['{{derivePassword 1 "medium" "password" "user" "example.com"}}', 'ZedJuz8$'],
    ['{{derivePassword 1 "basic" "password" "user" "example.com"}}', 'pIS54PLs'],
    ['{{derivePassword 1 "short" "password" "user" "example.com"}}', 'Zed5'],
    ['{{derivePassword 1 "pin" "password" "user" "example.com"}}', '6685'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('returns sprig text for an unknown template, refuses a wrong argument, and bounds the cost', () => {
    expect(go('{{derivePassword 1 "huge" "p" "u" "s"}}')).toBe('cannot find password template huge');
    expect(go('{{derivePassword "1" "long" "p" "u" "s"}}')).toContain('expected uint32; got string');
    const six = Array.from({ length: 6 }, (_, i) => `{{derivePassword ${i} "pin" "p" "u" "s"}}`).join('');
    expect(go(six)).toContain('template runs more than 200000 steps');
  });
});

describe('decryptAES (crypto_test.go TestEncryptDecryptAES)', () => {
  // sprig's encryptAES: AES-256-CBC, key = password zero-padded to 32 bytes, PKCS#7 padding, IV first.
  const encrypt = (password: string, plaintext: string, iv: Buffer) => {
    const key = Buffer.alloc(32);
    Buffer.from(password).copy(key);
    const cipher = createCipheriv('aes-256-cbc', key, iv);
    return Buffer.concat([iv, cipher.update(plaintext), cipher.final()]).toString('base64');
  };

  it.each([
    ['plaintext', Buffer.alloc(16, 7)],
    ['sixteen bytes!!!', Buffer.from('0123456789abcdef')],
    ['', Buffer.alloc(16, 1)],
  ])('decrypts what encryptAES made of %j', (plaintext, iv) => {
    const crypt = encrypt('secretkey', plaintext, iv);
    expect(go(`{{ ${JSON.stringify(crypt)} | decryptAES "secretkey" }}`)).toBe(plaintext);
  });

  it('keeps encryptAES refused (its IV is random) and stops on text that is not a ciphertext', () => {
    expect(go('{{ "plaintext" | encryptAES "secretkey" }}')).toContain('differs on every run');
    expect(go('{{ "" | decryptAES "k" }}|')).toBe('|');
    expect(go('{{ "AAAA" | decryptAES "k" }}')).toContain('slice bounds out of range [:16] with capacity 3');
    expect(go('{{ "%%%%" | decryptAES "k" }}')).toContain('illegal base64 data at input byte 0');
    expect(go(`{{ ${JSON.stringify(b64('x'.repeat(20)))} | decryptAES "k" }}`)).toContain('input not full blocks');
  });
});

describe('buildCustomCert (crypto_test.go TestBuildCustomCert)', () => {
  const cert = fixture('cert.pem');

  it.each(['ec-key.pem', 'pkcs8-key.pem'])('gives back the certificate and key (%s)', (keyFile) => {
    const key = fixture(keyFile);
    const template = `{{- $ca := buildCustomCert ${JSON.stringify(b64(cert))} ${JSON.stringify(b64(key))} }}`;
    expect(go(`${template}{{- $ca.Cert }}`)).toBe(cert);
    expect(go(`${template}{{- $ca.Key }}`)).toBe(key);
  });

  it('stops on a certificate or key that does not parse', () => {
    const key = JSON.stringify(b64(fixture('ec-key.pem')));
    expect(go(`{{ (buildCustomCert ${JSON.stringify(b64('fail'))} ${key}).Cert }}`)).toContain(
      'unable to decode certificate',
    );
    expect(go(`{{ (buildCustomCert "not base64!" ${key}).Cert }}`)).toContain('unable to decode base64 certificate');
    const garbled = cert.replace(/\n([A-Za-z0-9+/]{8})/, '\nAAAAAAAA');
    expect(go(`{{ (buildCustomCert ${JSON.stringify(b64(garbled))} ${key}).Cert }}`)).toContain(
      'error parsing certificate',
    );
    expect(go(`{{ (buildCustomCert ${JSON.stringify(b64(cert))} ${JSON.stringify(b64(cert))}).Cert }}`)).toContain(
      'error parsing private key: no private key data in PEM block of type CERTIFICATE',
    );
  });
});

describe('list functions (list_test.go)', () => {
  it.each([
    // TestChunk, TestMustChunk.
    ['{{ tuple 1 2 3 4 5 6 7 | chunk 3 | len }}', '3'],
    ['{{ tuple | chunk 3 | len }}', '0'],
    ['{{ range ( tuple 1 2 3 4 5 6 7 8 9 | chunk 3 ) }}{{. | join "-"}}|{{end}}', '1-2-3|4-5-6|7-8-9|'],
    ['{{ range ( tuple 1 2 3 4 5 6 7 8 | chunk 3 ) }}{{. | join "-"}}|{{end}}', '1-2-3|4-5-6|7-8|'],
    ['{{ range ( tuple 1 2 | chunk 3 ) }}{{. | join "-"}}|{{end}}', '1-2|'],
    ['{{ tuple 1 2 3 4 5 6 7 | mustChunk 3 | len }}', '3'],
    ['{{ tuple | mustChunk 3 | len }}', '0'],
    ['{{ range ( tuple 1 2 3 4 5 6 7 8 9 | mustChunk 3 ) }}{{. | join "-"}}|{{end}}', '1-2-3|4-5-6|7-8-9|'],
    ['{{ range ( tuple 1 2 3 4 5 6 7 8 | mustChunk 3 ) }}{{. | join "-"}}|{{end}}', '1-2-3|4-5-6|7-8|'],
    ['{{ range ( tuple 1 2 | mustChunk 3 ) }}{{. | join "-"}}|{{end}}', '1-2|'],
    // TestFirst, TestMustFirst, TestLast, TestMustLast.
    ['{{ list 1 2 3 | first }}', '1'],
    ['{{ list | first }}', '<no value>'],
    ['{{ regexSplit "/src/" "foo/src/bar" -1 | first }}', 'foo'],
    ['{{ list 1 2 3 | mustFirst }}', '1'],
    ['{{ list | mustFirst }}', '<no value>'],
    ['{{ regexSplit "/src/" "foo/src/bar" -1 | mustFirst }}', 'foo'],
    ['{{ list 1 2 3 | last }}', '3'],
    ['{{ list | last }}', '<no value>'],
    ['{{ regexSplit "/src/" "foo/src/bar" -1 | last }}', 'bar'],
    ['{{ list 1 2 3 | mustLast }}', '3'],
    ['{{ list | mustLast }}', '<no value>'],
    ['{{ regexSplit "/src/" "foo/src/bar" -1 | mustLast }}', 'bar'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it.each([
    ['{{ mustFirst "x" }}', 'Cannot find first on type string'],
    ['{{ last 3 }}', 'Cannot find last on type int'],
    ['{{ mustChunk 2 "x" }}', 'Cannot chunk type string'],
    ['{{ chunk 0 (list 1) }}', 'makeslice: len out of range'],
  ])('%s stops with %s', (template, message) => {
    expect(go(template)).toMatch(/^ERROR: /);
    expect(go(template)).toContain(message);
  });
});

describe('JSON functions (defaults_test.go)', () => {
  const top = { bool: true, string: 'test', number: 42 };
  it.each([
    // TestFromJson.
    ['{{.Input | fromJson}}', { Input: '{"foo": 55}' }, 'map[foo:55]'],
    ['{{(.Input | fromJson).foo}}', { Input: '{"foo": 55}' }, '55'],
    // TestToJson, TestToPrettyJson, TestToRawJson (the parameters' numbers are float64 here: 42 prints 42).
    ['{{.Top | toJson}}', { Top: top }, '{"bool":true,"number":42,"string":"test"}'],
    ['{{.Top | toPrettyJson}}', { Top: top }, '{\n  "bool": true,\n  "number": 42,\n  "string": "test"\n}'],
    [
      '{{.Top | toRawJson}}',
      { Top: { ...top, html: '<HEAD>' } },
      '{"bool":true,"html":"<HEAD>","number":42,"string":"test"}',
    ],
    [
      '{{.Top | mustToJson}} {{.Top | mustToRawJson}}',
      { Top: { h: '<&>' } },
      '{"h":"\\u003c\\u0026\\u003e"} {"h":"<&>"}',
    ],
    ['{{.Top | mustToPrettyJson}}', { Top: [] }, '[]'],
    ['{{ fromJson "nope" }}', {}, '<no value>'],
    ['{{ semver "1.2.3" | toJson }}', {}, '"1.2.3"'],
  ])('%s renders %s', (template, params, expected) => {
    expect(go(template, params)).toBe(expected);
  });

  it('stops on text that is not JSON under mustFromJson', () => {
    expect(go('{{ mustFromJson "nope" }}')).toMatch(/^ERROR: .*error calling mustFromJson/);
  });
});

describe('values (dict_test.go TestValues): only where the order cannot show', () => {
  it.each([
    ['{{- $d := dict "a" 1 "b" 2 }}{{ values $d | sortAlpha | join "," }}', '1,2'],
    ['{{- $d := dict "a" "first" "b" 2 }}{{ values $d | sortAlpha | join "," }}', '2,first'],
    ['{{ values .d | len }} {{ has "x" (values .d) }} {{ empty (values .d) }}', '2 true false'],
    ['{{ if values .d }}some{{ end }} {{ typeOf (values .d) }}', 'some []interface {}'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template, { d: { a: 'x', b: 'y' } })).toBe(expected);
  });

  it.each([
    ['{{ values .d }}', 'template prints the result of values'],
    ['{{ range values .d }}{{ . }}{{ end }}', 'template ranges over the result of values'],
    ['{{ values .d | first }}', 'template passes the result of values to first'],
    ['{{ values .d | join "," }}', 'template passes the result of values to join'],
    ['{{ values "x" }}', 'expected map[string]interface {}; got string'],
  ])('%s stops: %s', (template, message) => {
    expect(go(template, { d: { a: 'x', b: 'y' } })).toContain(message);
  });
});

describe('paths, types and small functions (functions_test.go, reflect_test.go, strings_test.go)', () => {
  it.each([
    // TestOsBase … TestOsExt (the Linux cases), TestIsAbs, TestClean, TestExt.
    ['{{ osBase "foo/bar" }}', 'bar'],
    ['{{ osDir "foo/bar/baz" }}', 'foo/bar'],
    ['{{ osIsAbs "/foo" }} {{ osIsAbs "foo" }}', 'true false'],
    ['{{ osClean "/foo/../foo/../bar" }}', '/bar'],
    ['{{ osExt "/foo/bar/baz.txt" }}', '.txt'],
    ['{{ isAbs "/foo" }} {{ isAbs "foo" }}', 'true false'],
    ['{{ clean "/foo/../foo/../bar" }}', '/bar'],
    ['{{ ext "/foo/bar/baz.txt" }}', '.txt'],
    // TestToStrings, TestTypeIsLike, TestKindOf (slice), TestUntitle.
    ['{{ $s := list 1 2 3 | toStrings }}{{ index $s 1 | kindOf }}', 'string'],
    ['{{ list 1 .value 2 | toStrings }}', '[1 2]'],
    ['{{if typeIsLike "string" .s}}t{{else}}f{{end}}', 't'],
    ['{{if typeIs "string" .s}}t{{else}}f{{end}} {{ typeIs "string" 1 }}', 't false'],
    ['{{ kindOf .l }} {{ kindOf .value }}', 'slice invalid'],
    ['{{ untitle "First Try" }}', 'first try'],
    // The rest follow the Go functions sprig names: strings.Trim, goutils DeleteWhiteSpace, reflect.DeepEqual.
    ['{{ hello }}', 'Hello!'],
    ['{{ nospace "h e\\tl\\nlo" }}', 'hello'],
    ['{{ trimall "$" "$5.00$" }}', '5.00'],
    ['{{ deepEqual (list 1 2) (list 1 2) }} {{ deepEqual (list 1 2) (list 1 2.0) }}', 'true false'],
    ['{{ clean "" }} {{ clean "a//b/./c/.." }} {{ ext "a.b/c" }}', '. a/b '],
  ])('%s renders %s', (template, expected) => {
    expect(go(template, { value: null, s: 'foo', l: ['hello'] })).toBe(expected);
  });
});

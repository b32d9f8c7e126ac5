// How codify writes a changed string: the node's own quoting kept while YAML can hold the value in
// it, double quotes with escapes once it cannot (control characters have no place unescaped in
// plain, single-quoted or block scalars, and YAML 1.1 readers break lines at NEL, U+2028, U+2029).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatBlockScalar, formatInlineScalar, type ScalarStyle } from '../../../src/core/codify/scalar-format.js';
import { setScalarAt } from '../../../src/core/codify/yaml-edit.js';

/** True when `text` holds a character YAML readers refuse (or break lines at) outside an escape. */
function holdsUnescaped(text: string): boolean {
  return [...text].some((char) => {
    const code = char.codePointAt(0)!;
    const c0 = code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
    return c0 || (code >= 0x7f && code <= 0x9f) || [0x2028, 0x2029, 0xfeff].includes(code);
  });
}

describe('formatInlineScalar', () => {
  const cases: Array<{ value: string; style: ScalarStyle; written: string }> = [
    { value: 'plain text', style: 'QUOTE_SINGLE', written: "'plain text'" },
    { value: "it's", style: 'QUOTE_SINGLE', written: "'it''s'" },
    { value: 'café ✓ 😀', style: 'QUOTE_SINGLE', written: "'café ✓ 😀'" },
    { value: 'bell\x07', style: 'QUOTE_SINGLE', written: '"bell\\u0007"' },
    { value: 'nul\0byte', style: 'QUOTE_SINGLE', written: '"nul\\u0000byte"' },
    { value: 'esc\x1b[0m', style: 'QUOTE_SINGLE', written: '"esc\\u001b[0m"' },
    { value: 'del\x7f', style: 'QUOTE_SINGLE', written: '"del\\u007f"' },
    { value: 'c1\x85next', style: 'QUOTE_SINGLE', written: '"c1\\u0085next"' },
    { value: 'line\u2028sep', style: 'QUOTE_SINGLE', written: '"line\\u2028sep"' },
    { value: 'bom\ufeff', style: 'QUOTE_SINGLE', written: '"bom\\ufeff"' },
    { value: 'vertical\x0btab', style: 'PLAIN', written: '"vertical\\u000btab"' },
    { value: 'form\x0cfeed', style: 'PLAIN', written: '"form\\ffeed"' },
    { value: 'para\u2029graph', style: 'PLAIN', written: '"para\\u2029graph"' },
    { value: 'bell\x07', style: 'QUOTE_DOUBLE', written: '"bell\\u0007"' },
    { value: 'plain', style: 'PLAIN', written: 'plain' },
  ];
  for (const { value, style, written } of cases) {
    it(`${JSON.stringify(value)} in ${style} is written ${written}`, () => {
      const text = formatInlineScalar(value, style);
      expect(text).toBe(written);
      expect(holdsUnescaped(text)).toBe(false);
      for (const version of ['1.1', '1.2'] as const) expect(parse(`k: ${text}`, { version }).k).toBe(value);
    });
  }
});

describe('formatBlockScalar', () => {
  it('keeps a block for printable text and gives it up for a control character', () => {
    expect(formatBlockScalar('a: 1\nb: 2\n', 2)).toBe('|\n  a: 1\n  b: 2\n');
    expect(formatBlockScalar('a: 1\nbell: \x07\n', 2)).toBeUndefined();
    expect(formatBlockScalar('a: 1\nsep: \u2028\n', 2)).toBeUndefined();
  });
});

describe('setScalarAt with a control character', () => {
  const text = "apiVersion: v1\nkind: ConfigMap\ndata:\n  greeting: 'hello' # kept\n  other: 'x'\n";
  const at = text.indexOf("'hello'");

  it('writes double quotes with an escape on that line only', () => {
    const result = setScalarAt(text, [at, at + 7], 'hello\x07');
    expect(result.ok && result.text).toBe(
      'apiVersion: v1\nkind: ConfigMap\ndata:\n  greeting: "hello\\u0007" # kept\n  other: \'x\'\n',
    );
  });

  it('keeps single quotes when the new value allows them', () => {
    const result = setScalarAt(text, [at, at + 7], "it's");
    expect(result.ok && result.text).toBe(text.replace("'hello'", "'it''s'"));
  });

  it('gives up a block scalar for double quotes when the value holds a control character', () => {
    const block = 'data:\n  config: |\n    a: 1\n  other: x\n';
    const start = block.indexOf('|');
    const end = block.indexOf('  other');
    const result = setScalarAt(block, [start, end], 'a: 1\nb: \x1b\n');
    expect(result.ok && result.text).toBe('data:\n  config: "a: 1\\nb: \\u001b\\n"\n  other: x\n');
  });
});

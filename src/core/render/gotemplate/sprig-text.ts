// sprig v3.3.0's string functions built on goutils v1.1.1 (abbrev, abbrevboth, initials, wrap, wrapWith,
// swapcase) and xstrings v1.5.0 (camelcase is ToPascalCase; snakecase, kebabcase), and plural and splitn
// (strings.go). goutils counts bytes where it says so (abbrev, initials, wrap), as Go does.
import { arity } from './args.js';
import type { TemplateFunction } from './exec.js';
import { goType, type Value } from './go-values.js';
import { lowerWords } from './word-case.js';
import { TemplateError } from './parser.js';

const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;
const isSpace = (c: string) => GO_SPACE.test(c);
const isUpper = (c: string) => /^\p{Lu}$/u.test(c);
const isLower = (c: string) => /^\p{Ll}$/u.test(c);
const isTitle = (c: string) => /^\p{Lt}$/u.test(c);

/** unicode.ToUpper / ToLower: a one-rune mapping, else the rune unchanged (ß stays ß). */
function single(c: string, mapped: string): string {
  return [...mapped].length === 1 ? mapped : c;
}
const toUpper = (c: string) => single(c, c.toUpperCase());
const toLower = (c: string) => single(c, c.toLowerCase());
/** unicode.ToTitle: upper case, but the digraphs' title forms. */
const TITLE: Record<string, string> = { ǆ: 'ǅ', ǅ: 'ǅ', Ǆ: 'ǅ', ǉ: 'ǈ', ǈ: 'ǈ', Ǉ: 'ǈ', ǌ: 'ǋ', ǋ: 'ǋ', Ǌ: 'ǋ' };
const toTitle = (c: string) => TITLE[c] ?? ({ ǳ: 'ǲ', ǲ: 'ǲ', Ǳ: 'ǲ' } as Record<string, string>)[c] ?? toUpper(c);

const encode = (s: string) => Buffer.from(s, 'utf8');
const decode = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** An int parameter: text/template refuses any other type. */
function intArg(value: Value): number {
  if (typeof value === 'bigint') return Number(value);
  throw new TemplateError(`wrong type for value; expected int; got ${goType(value)}`);
}

/** A string parameter: text/template refuses any other type. */
function stringArg(value: Value): string {
  if (typeof value === 'string') return value;
  throw new TemplateError(`wrong type for value; expected string; got ${goType(value)}`);
}

/** goutils AbbreviateFull, on bytes: `...` and the text cut to maxWidth around offset. */
function abbreviateFull(text: string, offset: number, maxWidth: number): string {
  const b = encode(text);
  if (b.length === 0 || maxWidth < 4) return '';
  if (b.length <= maxWidth) return text;
  let at = Math.min(offset, b.length);
  if (b.length - at < maxWidth - 3) at = b.length - (maxWidth - 3);
  if (at <= 4) return decode(b.subarray(0, maxWidth - 3)) + '...';
  if (maxWidth < 7) return '';
  if (at + maxWidth - 3 < b.length) return '...' + abbreviateFull(decode(b.subarray(at)), 0, maxWidth - 3);
  return '...' + decode(b.subarray(b.length - (maxWidth - 3)));
}

/** goutils Initials: the first byte of every whitespace-separated word, each byte read as a rune. */
function initials(text: string): string {
  let out = '';
  let gap = true;
  for (const byte of encode(text)) {
    const c = String.fromCharCode(byte);
    if (isSpace(c)) gap = true;
    else if (gap) {
      out += c;
      gap = false;
    }
  }
  return out;
}

/** goutils WrapCustom, on bytes: lines broken at the last space within wrapLength. */
function wrapCustom(text: string, wrapLength: number, newLine: string, wrapLong: boolean): string {
  const b = encode(text);
  const nl = newLine === '' ? '\n' : newLine;
  const width = Math.max(1, wrapLength);
  const parts: string[] = [];
  let offset = 0;
  while (b.length - offset > width) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const space = b.subarray(offset, width + offset + 1).lastIndexOf(0x20);
    if (space >= 0) {
      parts.push(decode(b.subarray(offset, offset + space)), nl);
      offset += space + 1;
    } else if (wrapLong) {
      parts.push(decode(b.subarray(offset, offset + width)), nl);
      offset += width;
    } else {
      const next = b.indexOf(0x20, width + offset);
      if (next < 0) {
        parts.push(decode(b.subarray(offset)));
        offset = b.length;
      } else {
        parts.push(decode(b.subarray(offset, next)), nl);
        offset = next + 1;
      }
    }
  }
  parts.push(decode(b.subarray(offset)));
  return parts.join('');
}

/** goutils SwapCase: upper and title to lower; lower to title after a space or at the start, else upper. */
function swapCase(text: string): string {
  let space = true;
  let out = '';
  for (const c of text) {
    if (isUpper(c) || isTitle(c)) {
      out += toLower(c);
      space = false;
    } else if (isLower(c)) {
      out += space ? toTitle(c) : toUpper(c);
      space = false;
    } else {
      out += c;
      space = isSpace(c);
    }
  }
  return out;
}

const isConnector = (c: string) => c === '-' || c === '_' || isSpace(c);

/** xstrings ToPascalCase: connectors between words dropped, each word's first letter upper-cased. */
function pascalCase(text: string): string {
  const runes = [...text];
  let out = '';
  let i = 0;
  while (i < runes.length && isConnector(runes[i]!)) out += runes[i++];
  if (i >= runes.length) return out;
  let firstUpper = isUpper(runes[i]!);
  let r0 = toUpper(runes[i++]!);
  for (; i < runes.length; i++) {
    const r1 = r0;
    r0 = runes[i]!;
    if (isConnector(r0) && isConnector(r1)) {
      out += r1;
      continue;
    }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0);
      r0 = toUpper(r0);
    } else {
      if (firstUpper) {
        if (isUpper(r0)) r0 = toLower(r0);
        else firstUpper = false;
      }
      out += r1;
    }
  }
  return out + r0;
}

export function textFunctions(): Record<string, TemplateFunction> {
  const fn =
    (name: string, count: number, body: (...args: Value[]) => Value): TemplateFunction =>
    (args) => {
      arity(name, args, count);
      return body(...args);
    };
  return {
    abbrev: fn('abbrev', 2, (w, s) => (intArg(w) < 4 ? stringArg(s) : abbreviateFull(stringArg(s), 0, intArg(w)))),
    abbrevboth: fn('abbrevboth', 3, (l, r, s) => {
      const [left, right, text] = [intArg(l), intArg(r), stringArg(s)];
      return right < 4 || (left > 0 && right < 7) ? text : abbreviateFull(text, left, right);
    }),
    initials: fn('initials', 1, (s) => initials(stringArg(s))),
    wrap: fn('wrap', 2, (w, s) => wrapCustom(stringArg(s), intArg(w), '', false)),
    wrapWith: fn('wrapWith', 3, (w, sep, s) => wrapCustom(stringArg(s), intArg(w), stringArg(sep), true)),
    swapcase: fn('swapcase', 1, (s) => swapCase(stringArg(s))),
    camelcase: fn('camelcase', 1, (s) => pascalCase(stringArg(s))),
    snakecase: fn('snakecase', 1, (s) => lowerWords(stringArg(s), '_')),
    kebabcase: fn('kebabcase', 1, (s) => lowerWords(stringArg(s), '-')),
    plural: fn('plural', 3, (one, many, n) => (intArg(n) === 1 ? stringArg(one) : stringArg(many))),
    splitn: fn('splitn', 3, (sep, n, s) =>
      Object.fromEntries(splitN(stringArg(s), stringArg(sep), intArg(n)).map((part, i) => [`_${i}`, part])),
    ),
  };
}

/** strings.SplitN: at most n parts (all when n < 0, none when 0); an empty separator splits runes. */
function splitN(text: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  const all = sep === '' ? [...text] : text.split(sep);
  if (n < 0 || all.length <= n) return all;
  return [...all.slice(0, n - 1), all.slice(n - 1).join(sep)];
}

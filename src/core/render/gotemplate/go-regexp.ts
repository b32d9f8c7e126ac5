// Go's regexp (RE2 syntax, Perl flags, as regexp.Compile reads it) run on JavaScript's engine: the
// pattern is translated so every construct means what it means in Go — `.` does not match `\n` only,
// `\s` is ASCII, `^`/`$` are text edges unless `(?m)`, flags `(?imsU)` apply where Go applies them,
// `(?P<name>…)` groups — and what RE2 rejects (backreferences, lookaround, possessive and atomic
// groups, repeat counts over 1000) is rejected with Go's message. Matching is leftmost-first in both;
// FindAll, ReplaceAll, Split and Expand follow Go's rules for empty matches and `$name` templates.
import { UnknownValueError } from './exec.js';
import { TemplateError } from './parser.js';

export interface GoRegexp {
  regex: RegExp;
  /** Capture group names by group number (Go's SubexpNames); '' for an unnamed group. */
  names: string[];
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

type Atom = { text: string; kind: 'atom' | 'assert' | 'quantified' | 'bar' };

interface Frame {
  flags: Flags;
  atoms: Atom[];
  open: string;
}

const MAX_REPEAT = 1000;

function fail(code: string, text: string): never {
  throw new TemplateError(`error parsing regexp: ${code}: \`${text}\``);
}

function hex(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

/** One code point as a JavaScript (v-mode) pattern atom; both cases under `(?i)`. */
function literal(cp: number, flags: Flags): string {
  const ch = String.fromCodePoint(cp);
  const variants = new Set([ch, ch.toLowerCase(), ch.toUpperCase()].filter((c) => [...c].length === 1));
  if (flags.i && variants.size > 1) return `[${[...variants].map((c) => hex(c.codePointAt(0)!)).join('')}]`;
  return /[A-Za-z0-9_]/.test(ch) ? ch : hex(cp);
}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\u{0}-\\u{7f}',
  blank: '\\t ',
  cntrl: '\\u{0}-\\u{1f}\\u{7f}',
  digit: '0-9',
  graph: '\\u{21}-\\u{7e}',
  lower: 'a-z',
  print: '\\u{20}-\\u{7e}',
  punct: '\\u{21}-\\u{2f}\\u{3a}-\\u{40}\\u{5b}-\\u{60}\\u{7b}-\\u{7e}',
  space: '\\t\\n\\u{b}\\f\\r\\u{20}',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const SPACE = '[\\t\\n\\f\\r\\u{20}]';
const NOT_SPACE = '[^\\t\\n\\f\\r\\u{20}]';

/** `\p{Greek}`, `\pL`, `\P{Lu}`, `\p{^Greek}`: Go's categories and scripts as JavaScript properties. */
function unicodeClass(chars: string[], at: number): { text: string; next: number } {
  const negated = chars[at] === 'P';
  let name: string;
  let next: number;
  if (chars[at + 1] === '{') {
    const close = chars.indexOf('}', at + 2);
    if (close < 0) fail('invalid character class range', chars.slice(at - 1).join(''));
    name = chars.slice(at + 2, close).join('');
    next = close + 1;
  } else {
    name = chars[at + 1] ?? '';
    next = at + 2;
  }
  const not = negated !== name.startsWith('^');
  name = name.replace(/^\^/, '');
  const property = /^[A-Z][a-z]?$/.test(name) || name === 'Any' ? name : `Script=${name}`;
  try {
    new RegExp(`\\p{${property}}`, 'v');
  } catch {
    fail('invalid character class range', `\\${chars.slice(at, next).join('')}`);
  }
  return { text: `\\${not ? 'P' : 'p'}{${property}}`, next };
}

/** An escape outside or inside a class: its pattern text and where the pattern goes on. */
function escape(chars: string[], at: number, flags: Flags, inClass: boolean): { text: string; next: number } {
  const c = chars[at];
  const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
  if (c === undefined) fail('trailing backslash at end of expression', '');
  if (c in simple) return { text: literal(simple[c]!, flags), next: at + 1 };
  if ('dDwW'.includes(c)) return { text: `\\${c}`, next: at + 1 };
  if (c === 's' || c === 'S')
    return { text: inClass ? `[${c === 's' ? SPACE : NOT_SPACE}]` : c === 's' ? SPACE : NOT_SPACE, next: at + 1 };
  if (c === 'p' || c === 'P') return unicodeClass(chars, at);
  if (!inClass && (c === 'b' || c === 'B')) return { text: `\\${c}`, next: at + 1 };
  if (!inClass && c === 'A') return { text: '(?<![\\s\\S])', next: at + 1 };
  if (!inClass && c === 'z') return { text: '(?![\\s\\S])', next: at + 1 };
  if (c === 'x') return hexEscape(chars, at, flags);
  if (/[0-7]/.test(c) && (c === '0' || /[0-7]/.test(chars[at + 1] ?? ''))) {
    let digits = c;
    while (digits.length < 3 && /[0-7]/.test(chars[at + digits.length] ?? '')) digits += chars[at + digits.length];
    return { text: literal(parseInt(digits, 8), flags), next: at + digits.length };
  }
  const cp = c.codePointAt(0)!;
  if (cp < 0x80 && !/[A-Za-z0-9_]/.test(c)) return { text: literal(cp, flags), next: at + 1 };
  return fail('invalid escape sequence', `\\${c}`);
}

function hexEscape(chars: string[], at: number, flags: Flags): { text: string; next: number } {
  if (chars[at + 1] === '{') {
    const close = chars.indexOf('}', at + 2);
    const digits = close < 0 ? '' : chars.slice(at + 2, close).join('');
    if (!/^[0-9A-Fa-f]{1,8}$/.test(digits) || parseInt(digits, 16) > 0x10ffff)
      fail('invalid escape sequence', `\\x${chars.slice(at + 1, close + 1).join('')}`);
    return { text: literal(parseInt(digits, 16), flags), next: close + 1 };
  }
  const digits = chars.slice(at + 1, at + 3).join('');
  if (!/^[0-9A-Fa-f]{2}$/.test(digits)) fail('invalid escape sequence', `\\x${digits}`);
  return { text: literal(parseInt(digits, 16), flags), next: at + 3 };
}

/** The other-case counterpart of the ASCII letters in a range, for `(?i)`. */
function foldedRange(lo: number, hi: number): string {
  const out: string[] = [];
  const part = (a: number, b: number, shift: number) => {
    const [from, to] = [Math.max(lo, a), Math.min(hi, b)];
    if (from <= to) out.push(`${hex(from + shift)}-${hex(to + shift)}`);
  };
  part(0x61, 0x7a, -32);
  part(0x41, 0x5a, 32);
  return out.join('');
}

function classAtom(chars: string[], at: number, flags: Flags): { text: string; cp?: number; next: number } {
  if (chars[at] === '[' && chars[at + 1] === ':') {
    const close = chars.indexOf(']', at + 2);
    const name = close < 0 ? '' : chars.slice(at + 2, close).join('');
    const match = /^(\^?)([a-z]+):$/.exec(name);
    if (match && POSIX[match[2]!] !== undefined)
      return { text: match[1] ? `[^${POSIX[match[2]!]}]` : POSIX[match[2]!]!, next: close + 1 };
  }
  if (chars[at] === '\\') {
    const escaped = escape(chars, at + 1, { ...flags, i: false }, true);
    const single = /^\\u\{([0-9a-f]+)\}$|^([A-Za-z0-9_])$/.exec(escaped.text);
    const cp = single ? (single[1] ? parseInt(single[1], 16) : single[2]!.codePointAt(0)!) : undefined;
    return { text: escaped.text, cp, next: escaped.next };
  }
  const cp = chars[at]!.codePointAt(0)!;
  return { text: /[A-Za-z0-9_]/.test(chars[at]!) ? chars[at]! : hex(cp), cp, next: at + 1 };
}

/** A bracketed class from `[` at `at`: its JavaScript (v-mode) class and where the pattern goes on. */
function parseClass(chars: string[], at: number, flags: Flags): { text: string; next: number } {
  let i = at + 1;
  const negated = chars[i] === '^';
  if (negated) i++;
  const items: string[] = [];
  for (let first = true; first || chars[i] !== ']'; first = false) {
    if (i >= chars.length) fail('missing closing ]', chars.slice(at).join(''));
    const lo = classAtom(chars, i, flags);
    i = lo.next;
    if (lo.cp !== undefined && chars[i] === '-' && chars[i + 1] !== ']' && i + 1 < chars.length) {
      const hi = classAtom(chars, i + 1, flags);
      if (hi.cp === undefined || hi.cp < lo.cp)
        fail('invalid character class range', chars.slice(i - 1, hi.next).join(''));
      items.push(`${hex(lo.cp)}-${hex(hi.cp)}`);
      if (flags.i) items.push(foldedRange(lo.cp, hi.cp));
      i = hi.next;
    } else {
      items.push(lo.cp !== undefined && flags.i ? literal(lo.cp, flags).replace(/^\[|\]$/g, '') : lo.text);
    }
  }
  return { text: `[${negated ? '^' : ''}${items.join('')}]`, next: i + 1 };
}

/** `{n}`, `{n,}`, `{n,m}` at `at`, or undefined when the brace is a literal (as Go reads it). */
function repeatCount(chars: string[], at: number): { min: number; max: number; next: number } | undefined {
  const close = chars.indexOf('}', at);
  const match = close < 0 ? null : /^(\d+)(,(\d*))?$/.exec(chars.slice(at + 1, close).join(''));
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : match[3] === '' ? -1 : Number(match[3]);
  if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min))
    fail('invalid repeat count', chars.slice(at, close + 1).join(''));
  return { min, max, next: close + 1 };
}

/** `(?flags)` / `(?flags:` at `at` (after the `(`): the new flags, whether a group opens, where it goes on. */
function flagGroup(chars: string[], at: number, flags: Flags): { flags: Flags; group: boolean; next: number } {
  const out = { ...flags };
  let on = true;
  let saw = false;
  let i = at + 1;
  for (; i < chars.length; i++) {
    const c = chars[i]!;
    if ('imsU'.includes(c)) {
      out[c as keyof Flags] = on;
      saw = true;
    } else if (c === '-' && on) {
      on = false;
      saw = false;
    } else if ((c === ':' || c === ')') && (on || saw)) return { flags: out, group: c === ':', next: i + 1 };
    else break;
  }
  return fail('invalid or unsupported Perl syntax', chars.slice(at - 1, i + 1).join(''));
}

interface Parser {
  chars: string[];
  stack: Frame[];
  names: string[];
  /** Whether each open group holds a repetition or an alternation (for the nesting bound). */
  busy: boolean[];
}

function frame(parser: Parser): Frame {
  return parser.stack[parser.stack.length - 1]!;
}

/**
 * A repetition applied to the last atom. A repeated group that itself repeats or alternates is
 * refused: on a backtracking engine it can run for ever, where RE2 runs in linear time.
 */
function repeat(parser: Parser, op: string, at: number, next: number): number {
  const { atoms, flags } = frame(parser);
  const last = atoms[atoms.length - 1];
  const lazy = parser.chars[next] === '?';
  const text = parser.chars.slice(at, next + (lazy ? 1 : 0)).join('');
  if (!last || last.kind === 'bar') fail('missing argument to repetition operator', text);
  if (last.kind === 'quantified') fail('invalid nested repetition operator', `${last.text.slice(-1)}${text}`);
  if (last.kind === 'atom' && last.text.startsWith('(') && last.text.endsWith('#'))
    throw new UnknownValueError(
      `regexp ${parser.chars.join('')}: a repeated group that repeats or alternates inside is not run (it can take exponential time here)`,
    );
  const body = last.kind === 'assert' ? `(?:${last.text})` : last.text.replace(/#$/, '');
  atoms[atoms.length - 1] = { text: `${body}${op}${lazy !== flags.U ? '?' : ''}`, kind: 'quantified' };
  parser.busy[parser.busy.length - 1] = true;
  return next + (lazy ? 1 : 0);
}

function openGroup(parser: Parser, at: number): number {
  const { chars } = parser;
  const flags = frame(parser).flags;
  if (chars[at + 1] !== '?') {
    parser.names.push('');
    parser.stack.push({ flags: { ...flags }, atoms: [], open: '(' });
    parser.busy.push(false);
    return at + 1;
  }
  const named = chars[at + 2] === 'P' && chars[at + 3] === '<' ? at + 4 : chars[at + 2] === '<' ? at + 3 : -1;
  if (named >= 0) {
    const close = chars.indexOf('>', named);
    const name = close < 0 ? '' : chars.slice(named, close).join('');
    if (!/^[\p{L}\p{N}_]+$/u.test(name))
      fail('invalid named capture', chars.slice(at, close < 0 ? undefined : close + 1).join(''));
    if (parser.names.includes(name)) fail('duplicate capture group name', name);
    parser.names.push(name);
    parser.stack.push({ flags: { ...flags }, atoms: [], open: '(' });
    parser.busy.push(false);
    return close + 1;
  }
  const group = flagGroup(chars, at + 1, flags);
  if (!group.group) frame(parser).flags = group.flags;
  else {
    parser.stack.push({ flags: group.flags, atoms: [], open: '(?:' });
    parser.busy.push(false);
  }
  return group.next;
}

function closeGroup(parser: Parser): void {
  if (parser.stack.length === 1) fail('unexpected )', parser.chars.join(''));
  const done = parser.stack.pop()!;
  const busy = parser.busy.pop()!;
  // A trailing `#` marks a group that repeats or alternates inside (see repeat); it is not pattern text.
  const inner = done.atoms.map((a) => a.text.replace(/#$/, '')).join('');
  frame(parser).atoms.push({ text: `${done.open}${inner})${busy ? '#' : ''}`, kind: 'atom' });
  if (busy) parser.busy[parser.busy.length - 1] = true;
}

function quoted(parser: Parser, at: number): number {
  const { chars } = parser;
  let end = chars.findIndex((c, i) => i > at && c === '\\' && chars[i + 1] === 'E');
  if (end < 0) end = chars.length;
  for (const c of chars.slice(at + 1, end))
    frame(parser).atoms.push({ text: literal(c.codePointAt(0)!, frame(parser).flags), kind: 'atom' });
  return Math.min(end + 2, chars.length);
}

function step(parser: Parser, at: number): number {
  const { chars } = parser;
  const c = chars[at]!;
  const { flags, atoms } = frame(parser);
  if (c === '(') return openGroup(parser, at);
  if (c === ')') closeGroup(parser);
  else if (c === '|') {
    atoms.push({ text: '|', kind: 'bar' });
    parser.busy[parser.busy.length - 1] = true;
  } else if (c === '*' || c === '+' || c === '?') return repeat(parser, c, at, at + 1);
  else if (c === '{' && repeatCount(chars, at)) {
    const count = repeatCount(chars, at)!;
    const op = count.min === count.max ? `{${count.min}}` : `{${count.min},${count.max < 0 ? '' : count.max}}`;
    return repeat(parser, op, at, count.next);
  } else if (c === '^') atoms.push({ text: flags.m ? '(?<![^\\n])' : '(?<![\\s\\S])', kind: 'assert' });
  else if (c === '$') atoms.push({ text: flags.m ? '(?![^\\n])' : '(?![\\s\\S])', kind: 'assert' });
  else if (c === '.') atoms.push({ text: flags.s ? '[\\s\\S]' : '[^\\n]', kind: 'atom' });
  else if (c === '[') {
    const cls = parseClass(chars, at, flags);
    atoms.push({ text: cls.text, kind: 'atom' });
    return cls.next;
  } else if (c === '\\' && chars[at + 1] === 'Q') return quoted(parser, at + 1);
  else if (c === '\\') {
    const escaped = escape(chars, at + 1, flags, false);
    atoms.push({ text: escaped.text, kind: /^\\[bB]$|^\(\?<?!/.test(escaped.text) ? 'assert' : 'atom' });
    return escaped.next;
  } else atoms.push({ text: literal(c.codePointAt(0)!, flags), kind: 'atom' });
  return at + 1;
}

/** regexp.Compile: the pattern as Go reads it, or Go's parse error. */
export function compileGoRegexp(pattern: string): GoRegexp {
  const flags: Flags = { i: false, m: false, s: false, U: false };
  const parser: Parser = { chars: [...pattern], stack: [{ flags, atoms: [], open: '' }], names: [''], busy: [false] };
  for (let at = 0; at < parser.chars.length;) at = step(parser, at);
  if (parser.stack.length > 1) fail('missing closing )', pattern);
  const source = parser.stack[0]!.atoms.map((a) => a.text.replace(/#$/, '')).join('');
  try {
    return { regex: new RegExp(source, 'gv'), names: parser.names };
  } catch (error) {
    throw new TemplateError(`error parsing regexp: ${(error as Error).message}`);
  }
}

/** The match at or after `from`, searching the whole text (so `^`, `\b` see what is before). */
function execAt(re: GoRegexp, text: string, from: number): RegExpExecArray | null {
  re.regex.lastIndex = from;
  return re.regex.exec(text);
}

function width(text: string, at: number): number {
  const cp = text.codePointAt(at);
  return cp !== undefined && cp > 0xffff ? 2 : 1;
}

/** Regexp.FindAllStringSubmatch's matches (n < 0: all): an empty match right after a match is skipped. */
export function findAll(re: GoRegexp, text: string, n: number): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  let prevEnd = -1;
  for (let pos = 0; (n < 0 || out.length < n) && pos <= text.length;) {
    const match = execAt(re, text, pos);
    if (!match) break;
    const end = match.index + match[0].length;
    let accept = true;
    if (end === pos) {
      if (match.index === prevEnd) accept = false;
      pos += pos < text.length ? width(text, pos) : 1;
    } else pos = end;
    prevEnd = end;
    if (accept) out.push(match);
  }
  return out;
}

/** Regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`; a name takes every word character after `$`. */
function expand(re: GoRegexp, template: string, match: RegExpExecArray): string {
  let out = '';
  let rest = template;
  for (let dollar = rest.indexOf('$'); dollar >= 0; dollar = rest.indexOf('$')) {
    out += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      rest = rest.slice(1);
      continue;
    }
    const m = /^(?:\{([\p{L}\p{N}_]+)\}|([\p{L}\p{N}_]+))/u.exec(rest);
    if (!m) {
      out += '$';
      continue;
    }
    rest = rest.slice(m[0].length);
    const name = m[1] ?? m[2]!;
    const num = /^(0|[1-9]\d{0,7})$/.test(name) ? Number(name) : -1;
    const group = num >= 0 ? num : re.names.indexOf(name);
    if (group >= 0 && group < match.length) out += match[group] ?? '';
  }
  return out + rest;
}

/** Regexp.ReplaceAllString (`$` expanded) or ReplaceAllLiteralString. */
export function replaceAll(re: GoRegexp, text: string, repl: string, literalText: boolean): string {
  let out = '';
  let lastEnd = 0;
  for (let pos = 0; pos <= text.length;) {
    const match = execAt(re, text, pos);
    if (!match) break;
    const end = match.index + match[0].length;
    out += text.slice(lastEnd, match.index);
    if (end > lastEnd || match.index === 0) out += literalText ? repl : expand(re, repl, match);
    lastEnd = end;
    const step = pos < text.length ? width(text, pos) : 1;
    pos = pos + step > end ? pos + step : end;
  }
  return out + text.slice(lastEnd);
}

/** Regexp.Split: n > 0 at most n parts, n == 0 none, n < 0 all. */
export function split(re: GoRegexp, text: string, n: number, pattern: string): string[] {
  if (n === 0) return [];
  if (pattern.length > 0 && text.length === 0) return [''];
  const parts: string[] = [];
  let begin = 0;
  let end = 0;
  for (const match of findAll(re, text, n)) {
    if (n > 0 && parts.length === n - 1) break;
    end = match.index;
    if (match.index + match[0].length !== 0) parts.push(text.slice(begin, end));
    begin = match.index + match[0].length;
  }
  if (end !== text.length) parts.push(text.slice(begin));
  return parts;
}

/** regexp.QuoteMeta. */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

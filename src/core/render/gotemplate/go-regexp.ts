// Go's regexp as sprig's regexp functions use it: RE2 syntax and Go's parse errors (core/patterns,
// linear time, so no pattern can make a render run for ever), and Go's rules where they differ from
// JavaScript's: FindAll and ReplaceAll skip an empty match right after a match, Split's edge cases,
// and Expand's `$name` (every word character after `$` is the name: `$1x` is the group "1x").
import { compileFinder, quoteRe2, type Finder, type RegexMatch } from '../../patterns/index.js';
import { TemplateError } from './parser.js';

/** regexp.Compile: the pattern as Go reads it, or Go's parse error. */
export function compileGoRegexp(pattern: string): Finder {
  const compiled = compileFinder(pattern);
  if (!compiled.ok) throw new TemplateError(compiled.message);
  return compiled.finder;
}

function width(text: string, at: number): number {
  const cp = text.codePointAt(at);
  return cp !== undefined && cp > 0xffff ? 2 : 1;
}

/** Regexp.FindAllStringSubmatch's matches (n < 0: all): an empty match right after a match is skipped. */
export function findAll(re: Finder, text: string, n: number): RegexMatch[] {
  const out: RegexMatch[] = [];
  let prevEnd = -1;
  for (let pos = 0; (n < 0 || out.length < n) && pos <= text.length;) {
    const match = re.find(text, pos);
    if (!match) break;
    const end = match.end;
    let accept = true;
    if (end === pos) {
      if (match.start === prevEnd) accept = false;
      pos += pos < text.length ? width(text, pos) : 1;
    } else pos = end;
    prevEnd = end;
    if (accept) out.push(match);
  }
  return out;
}

/** Regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`; a name takes every word character after `$`. */
function expand(re: Finder, template: string, match: RegexMatch): string {
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
    if (group >= 0 && group < match.groups.length) out += match.groups[group] ?? '';
  }
  return out + rest;
}

/** Regexp.ReplaceAllString (`$` expanded) or ReplaceAllLiteralString. */
export function replaceAll(re: Finder, text: string, repl: string, literalText: boolean): string {
  let out = '';
  let lastEnd = 0;
  for (let pos = 0; pos <= text.length;) {
    const match = re.find(text, pos);
    if (!match) break;
    const end = match.end;
    out += text.slice(lastEnd, match.start);
    if (end > lastEnd || match.start === 0) out += literalText ? repl : expand(re, repl, match);
    lastEnd = end;
    const step = pos < text.length ? width(text, pos) : 1;
    pos = pos + step > end ? pos + step : end;
  }
  return out + text.slice(lastEnd);
}

/** Regexp.Split: n > 0 at most n parts, n == 0 none, n < 0 all. */
export function split(re: Finder, text: string, n: number, pattern: string): string[] {
  if (n === 0) return [];
  if (pattern.length > 0 && text.length === 0) return [''];
  const parts: string[] = [];
  let begin = 0;
  let end = 0;
  for (const match of findAll(re, text, n)) {
    if (n > 0 && parts.length === n - 1) break;
    end = match.start;
    if (match.end !== 0) parts.push(text.slice(begin, end));
    begin = match.end;
  }
  if (end !== text.length) parts.push(text.slice(begin));
  return parts;
}

/** regexp.QuoteMeta. */
export const quoteMeta = quoteRe2;

// fmt.Sprintf, Sprint and Sprintln for the verbs templates use: %v %s %d %q %t %f %e %g %x %X %c %%, with
// flags `-`, `+`, `0`, ` ` and width / precision; a verb that does not fit its operand prints as fmt
// prints it (`%!d(string=a)`), and so do a missing operand and extra ones.
import { formatFloat, GoObject, goType, printValue, type Value } from './go-values.js';

/** strconv.Quote: Go's double-quoted string, escapes for control characters. */
export function goQuote(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (QUOTE_ESCAPES[c]) out += QUOTE_ESCAPES[c];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

const QUOTE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

interface Spec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  space: boolean;
  width?: number;
  precision?: number;
}

function bad(verb: string, value: Value): string {
  if (value === undefined || value === null) return `%!${verb}(<nil>)`;
  return `%!${verb}(${goType(value)}=${printValue(value, false)})`;
}

function signed(text: string, spec: Spec): string {
  return !text.startsWith('-') && spec.plus ? `+${text}` : !text.startsWith('-') && spec.space ? ` ${text}` : text;
}

function number(verb: string, given: Value, spec: Spec): string {
  // A value of integer kind with a String method (time.Month) prints its number under %d.
  const value = given instanceof GoObject && given.int !== undefined ? given.int : given;
  if (verb === 'd' || verb === 'x' || verb === 'X' || verb === 'c') {
    if (typeof value !== 'bigint') return verb === 'x' || verb === 'X' ? hex(verb, value) : bad(verb, value);
    if (verb === 'c') return String.fromCodePoint(Number(value));
    const text = verb === 'd' ? value.toString() : value.toString(16);
    return signed(verb === 'X' ? text.toUpperCase() : text, spec);
  }
  if (typeof value !== 'number') return bad(verb, value);
  if (verb === 'f' || verb === 'F') return signed(value.toFixed(spec.precision ?? 6), spec);
  if (verb === 'e') {
    const text = value.toExponential(spec.precision ?? 6);
    return signed(text.replace(/e([+-])(\d)$/, 'e$10$2'), spec);
  }
  return signed(formatFloat(value), spec);
}

function hex(verb: string, value: Value): string {
  if (typeof value !== 'string') return bad(verb, value);
  const text = [...new TextEncoder().encode(value)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return verb === 'X' ? text.toUpperCase() : text;
}

function formatOne(verb: string, value: Value, spec: Spec): string {
  switch (verb) {
    case 'v':
      return typeof value === 'number' || typeof value === 'bigint'
        ? signed(printValue(value, false), spec)
        : printValue(value, false);
    case 's':
      if (typeof value === 'string') return spec.precision !== undefined ? value.slice(0, spec.precision) : value;
      return typeof value === 'object' && value !== null ? printValue(value, false) : bad(verb, value);
    case 'q':
      return typeof value === 'string' ? goQuote(value) : bad(verb, value);
    case 't':
      return typeof value === 'boolean' ? String(value) : bad(verb, value);
    case 'T':
      return value === undefined || value === null ? '<nil>' : goType(value);
    default:
      return 'dxXcfFeEgG'.includes(verb)
        ? number(verb, value, spec)
        : `%!${verb}(${goType(value)}=${printValue(value, false)})`;
  }
}

function pad(text: string, spec: Spec, numeric: boolean): string {
  if (spec.width === undefined || text.length >= spec.width) return text;
  if (spec.minus) return text.padEnd(spec.width, ' ');
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.test(text) ? text[0]! : '';
    return sign + text.slice(sign.length).padStart(spec.width - sign.length, '0');
  }
  return text.padStart(spec.width, ' ');
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly Value[]): string {
  let out = '';
  let next = 0;
  const directive = /%([-+0 #]*)(\d+)?(?:\.(\d*))?([a-zA-Z%])?/y;
  for (let i = 0; i < format.length;) {
    if (format[i] !== '%') {
      const stop = format.indexOf('%', i);
      out += format.slice(i, stop < 0 ? undefined : stop);
      i = stop < 0 ? format.length : stop;
      continue;
    }
    directive.lastIndex = i;
    const match = directive.exec(format)!;
    i = directive.lastIndex;
    const [, flags = '', width, precision, verb] = match;
    if (verb === undefined) return `${out}%!(NOVERB)`;
    if (verb === '%') {
      out += '%';
      continue;
    }
    const spec: Spec = {
      ...{
        minus: flags.includes('-'),
        plus: flags.includes('+'),
        zero: flags.includes('0'),
        space: flags.includes(' '),
      },
      ...(width !== undefined ? { width: Number(width) } : {}),
      ...(precision !== undefined ? { precision: Number(precision || '0') } : {}),
    };
    if (next >= args.length) out += `%!${verb}(MISSING)`;
    else out += pad(formatOne(verb, args[next++], spec), spec, 'dxXfFeEgGv'.includes(verb));
  }
  if (next < args.length)
    out += `%!(EXTRA ${args
      .slice(next)
      .map((value) => `${goType(value)}=${printValue(value, false)}`)
      .join(', ')})`;
  return out;
}

/** fmt.Sprint: a space between operands when neither is a string. */
export function sprint(args: readonly Value[]): string {
  let out = '';
  args.forEach((value, i) => {
    if (i > 0 && typeof value !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += printValue(value, false);
  });
  return out;
}

/** fmt.Sprintln: spaces between every operand, and a newline. */
export function sprintln(args: readonly Value[]): string {
  return `${args.map((value) => printValue(value, false)).join(' ')}\n`;
}

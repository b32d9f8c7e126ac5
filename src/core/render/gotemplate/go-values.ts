// Go values as the template engine sees them, held in JavaScript: a string, an int (bigint), a float64
// (number — every number of generator parameters is one: they come through JSON), a bool, nil (null), a
// map (plain object), a slice (array); `undefined` is Go's invalid value (a missing map key), printed
// `<no value>`. Printing follows fmt's `%v`; truth and comparison follow text/template's funcs.go.
import { TemplateError } from './parser.js';

/** A Go map: a plain object (parameters and what templates build), never a Go value with methods. */
export function isMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

export type Value = unknown;

/** Go's `%v` of a float64: strconv 'g' with the shortest digits, an exponent below 1e-4 and from 1e6. */
export function formatFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const exponential = value.toExponential();
  const [mantissa, exp] = exponential.split('e') as [string, string];
  const power = Number(exp);
  // Shortest digits decide with precision 6 (strconv ftoa.go %g): 1e+06, 123456, 0.0001, 1e-05.
  if (power < -4 || power >= 6)
    return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  return String(value);
}

/** A method of a Go value: its parameters' Go types (text/template checks them) and its body. */
export interface GoMethod {
  params: readonly string[];
  call: (args: Value[]) => Value;
}

/**
 * A Go value with methods or struct fields (a *semver.Version, a time.Time, a time.Month): `.Name`
 * calls the method with the arguments given; printed by its String. `int` is set for a value of
 * integer kind (time.Month, time.Weekday), which `eq` and `lt` compare as its number.
 */
export class GoObject {
  constructor(
    readonly type: string,
    readonly text: string,
    readonly methods: Readonly<Record<string, GoMethod>>,
    readonly int?: bigint,
  ) {}
}

/** A method without parameters. */
export const getter = (call: () => Value): GoMethod => ({ params: [], call });

/**
 * sprig `values`: a map's values in Go's random map iteration order. Only what cannot observe the
 * order (len, has, sortAlpha, empty, truth) may use it; anything else stops the render.
 */
export class UnorderedList {
  constructor(readonly items: readonly Value[]) {}
}

/** fmt's `%v`: maps as `map[k:v]` with sorted keys, slices as `[a b]`, nil as `<nil>`. */
export function printValue(value: Value, top = true): string {
  if (value === undefined) return top ? '<no value>' : '<nil>';
  if (value === null) return top ? '<no value>' : '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return formatFloat(value);
  if (value instanceof GoObject) return value.text;
  if (value instanceof UnorderedList) return printValue([...value.items], top);
  if (Array.isArray(value)) return `[${value.map((item) => printValue(item, false)).join(' ')}]`;
  if (isMap(value)) {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((key) => `${key}:${printValue(value[key], false)}`).join(' ')}]`;
  }
  return String(value);
}

/** text/template's truth: false, zero, nil and empty strings, slices and maps are false. */
export function truth(value: Value): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value !== '';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof UnorderedList) return value.items.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  if (value instanceof GoObject && value.int !== undefined) return value.int !== 0n;
  return true;
}

type BasicKind = 'bool' | 'int' | 'float' | 'string' | 'nil' | 'other';

function kindOf(value: Value): BasicKind {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'float';
  if (typeof value === 'string') return 'string';
  if (value === null || value === undefined) return 'nil';
  if (value instanceof GoObject && value.int !== undefined) return 'int';
  return 'other';
}

/** The number of an integer-kind value (a time.Month compares as its number). */
const basic = (value: Value): Value => (value instanceof GoObject && value.int !== undefined ? value.int : value);

/** funcs.go eq: arg1 equals any of the others; values of different basic kinds cannot be compared. */
export function equal(arg1: Value, ...others: Value[]): boolean {
  if (others.length === 0) throw new TemplateError('missing argument for comparison');
  const k1 = kindOf(arg1);
  for (const arg of others) {
    const k2 = kindOf(arg);
    if (k1 === 'other' || k2 === 'other') {
      if (k1 !== k2 && k1 !== 'nil' && k2 !== 'nil') throw new TemplateError('incompatible types for comparison');
      throw new TemplateError('non-comparable types');
    }
    if (k1 !== k2) {
      if (k1 === 'nil' || k2 === 'nil') continue;
      throw new TemplateError('incompatible types for comparison');
    }
    if (basic(arg1) === basic(arg) || k1 === 'nil') return true;
  }
  return false;
}

/** funcs.go lt: ints, floats and strings of one kind. */
export function less(a: Value, b: Value): boolean {
  const ka = kindOf(a);
  if (ka !== kindOf(b)) throw new TemplateError('incompatible types for comparison');
  if (ka !== 'int' && ka !== 'float' && ka !== 'string') throw new TemplateError('invalid type for comparison');
  return (basic(a) as number) < (basic(b) as number);
}

/** A Go int from a value an int-taking function received (sprig's toInt64 / cast). */
export function toInt(value: Value): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.trunc(value)) : 0n;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^[-+]?\d+$/.test(text)) return BigInt(text);
    const float = Number(text);
    return text !== '' && Number.isFinite(float) ? BigInt(Math.trunc(float)) : 0n;
  }
  return 0n;
}

/** sprig's strval: a string as is, anything else as `%v` prints it. */
export function stringOf(value: Value): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '<nil>';
  return printValue(value, false);
}

/** sprig's empty: nil, zero, false, and empty strings, slices and maps. */
export function isEmpty(value: Value): boolean {
  return !truth(value);
}

/** A parameter whose value cannot be known here (a cluster Secret's values): using it stops the render. */
export class UnknownParam {
  constructor(readonly why: string) {}
}

/** Go's name of a value's type, for messages. */
export function goType(value: Value): string {
  if (value instanceof GoObject) return value.type;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value) || value instanceof UnorderedList) return '[]interface {}';
  if (isMap(value)) return 'map[string]interface {}';
  return 'interface {}';
}

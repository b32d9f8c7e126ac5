// sprig v3.3.0's float functions (functions.go, numeric.go): arguments read as spf13/cast's ToFloat64
// reads them; addf, subf, mulf, divf computed as shopspring/decimal computes them (exact decimals of the
// shortest float text, division to 16 places) and returned as float64; and all, any, fail, biggest,
// toDecimal.
import { arity } from './args.js';
import type { TemplateFunction } from './exec.js';
import { goType, isEmpty, printValue, toInt, type Value } from './go-values.js';
import { TemplateError } from './parser.js';

/** cast.ToFloat64: numbers and bools as numbers, a string parsed (0 when it is not a number). */
function toFloat(value: Value): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const text = value.replace(/_/g, '');
    return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || /^[+-]?(inf|infinity|nan)$/i.test(text)
      ? Number(text.replace(/inf(inity)?/i, 'Infinity').replace(/nan/i, 'NaN'))
      : 0;
  }
  return 0;
}

/** A decimal: coefficient × 10^exp. */
interface Decimal {
  c: bigint;
  exp: number;
}

/** decimal.NewFromFloat: the shortest text that reads back as the float, exactly. */
function fromFloat(value: number): Decimal {
  if (!Number.isFinite(value)) throw new TemplateError(`Cannot create a Decimal from ${printValue(value)}`);
  const [mantissa, e] = value.toExponential().split('e') as [string, string];
  const [whole, fraction = ''] = mantissa.split('.') as [string, string?];
  return { c: BigInt(whole + fraction), exp: Number(e) - fraction.length };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp);
  return [a.c * 10n ** BigInt(a.exp - exp), b.c * 10n ** BigInt(b.exp - exp), exp];
}

/** decimal.Div: DivRound to 16 places, half away from zero. */
function divide(a: Decimal, b: Decimal): Decimal {
  if (b.c === 0n) throw new TemplateError('decimal division by 0');
  // a/b × 10^16 with one more digit to round on.
  const shift = 17 + a.exp - b.exp;
  const num = shift >= 0 ? a.c * 10n ** BigInt(shift) : a.c;
  const den = shift >= 0 ? b.c : b.c * 10n ** BigInt(-shift);
  const q = num / den;
  const rounded = (q + (q < 0n ? -5n : 5n)) / 10n;
  return { c: rounded, exp: -16 };
}

const OPS: Record<string, (a: Decimal, b: Decimal) => Decimal> = {
  add: (a, b) => ((x, y, exp) => ({ c: x + y, exp }))(...align(a, b)),
  sub: (a, b) => ((x, y, exp) => ({ c: x - y, exp }))(...align(a, b)),
  mul: (a, b) => ({ c: a.c * b.c, exp: a.exp + b.exp }),
  div: divide,
};

/** execDecimalOp: the first value combined with each of the others, as a float64. */
function decimalOp(op: string, first: Value, rest: Value[]): number {
  const result = rest.reduce<Decimal>((total, v) => OPS[op]!(total, fromFloat(toFloat(v))), fromFloat(toFloat(first)));
  return Number(`${result.c}e${result.exp}`);
}

/** numeric.go round: to `places` decimals, up from `roundOn` (0.5 unless given). */
function round(args: Value[]): number {
  if (args.length < 2) throw new TemplateError(`wrong number of args for round: want at least 2 got ${args.length}`);
  if (typeof args[1] !== 'bigint')
    throw new TemplateError(`wrong type for value; expected int; got ${goType(args[1])}`);
  const roundOn = args.length > 2 ? toFloat(args[2]) : 0.5;
  const pow = Math.pow(10, Number(args[1]));
  const digit = pow * toFloat(args[0]);
  const fraction = digit - Math.trunc(digit);
  return (fraction >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

/** numeric.go toDecimal: the value's text read as an octal int64, 0 when it is not one. */
function toDecimal(value: Value): bigint {
  const text = value === null || value === undefined ? '<nil>' : printValue(value);
  if (!/^[+-]?[0-7]+$/.test(text)) return 0n;
  const digits = BigInt(`0o${text.replace(/^[+-]/, '')}`);
  const n = text.startsWith('-') ? -digits : digits;
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : 0n;
}

function atLeast(name: string, args: Value[], count: number): void {
  if (args.length < count)
    throw new TemplateError(`wrong number of args for ${name}: want at least ${count} got ${args.length}`);
}

export function floatFunctions(): Record<string, TemplateFunction> {
  const variadic =
    (name: string, op: string): TemplateFunction =>
    (args) => {
      atLeast(name, args, 1);
      return decimalOp(op, args[0], args.slice(1));
    };
  const fold =
    (name: string, pick: (a: number, b: number) => number): TemplateFunction =>
    (args) => {
      atLeast(name, args, 1);
      return args.slice(1).reduce<number>((a, b) => pick(a, toFloat(b)), toFloat(args[0]));
    };
  const one =
    (name: string, fn: (v: Value) => Value): TemplateFunction =>
    (args) => {
      arity(name, args, 1);
      return fn(args[0]);
    };
  return {
    add1f: one('add1f', (v) => decimalOp('add', v, [1n])),
    addf: (args) => decimalOp('add', 0, args),
    subf: variadic('subf', 'sub'),
    mulf: variadic('mulf', 'mul'),
    divf: variadic('divf', 'div'),
    maxf: fold('maxf', Math.max),
    minf: fold('minf', Math.min),
    biggest: (args) => {
      atLeast('biggest', args, 1);
      return args.slice(1).reduce<bigint>((a, b) => (toInt(b) > a ? toInt(b) : a), toInt(args[0]));
    },
    ceil: one('ceil', (v) => Math.ceil(toFloat(v))),
    floor: one('floor', (v) => Math.floor(toFloat(v))),
    round,
    toDecimal: one('toDecimal', toDecimal),
    all: (args) => args.every((v) => !isEmpty(v)),
    any: (args) => args.some((v) => !isEmpty(v)),
    fail: one('fail', (v) => {
      if (typeof v !== 'string') throw new TemplateError(`wrong type for value; expected string; got ${goType(v)}`);
      throw new TemplateError(v);
    }),
  };
}

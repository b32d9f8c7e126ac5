// Argument handling shared by the template functions: arity checks as text/template reports them,
// and sprig's conversions of an argument to a string or a list of strings.
import type { TemplateFunction } from './exec.js';
import { TemplateError } from './parser.js';
import { stringOf, type Value } from './go-values.js';

export function arity(name: string, args: Value[], count: number): void {
  if (args.length !== count)
    throw new TemplateError(`wrong number of args for ${name}: want ${count} got ${args.length}`);
}

/** An argument as a string: nil is empty, anything else as sprig's strval prints it. */
export function str(value: Value): string {
  return value === undefined || value === null ? '' : stringOf(value);
}

/** sprig strslice: a list's items as strings (nil left out), anything else as one string. */
export function strings(value: Value): string[] {
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).map(stringOf);
  return value === undefined || value === null ? [] : [stringOf(value)];
}

export const unary =
  (name: string, fn: (value: Value) => Value): TemplateFunction =>
  (args) => {
    arity(name, args, 1);
    return fn(args[0]);
  };
export const binary =
  (name: string, fn: (a: Value, b: Value) => Value): TemplateFunction =>
  (args) => {
    arity(name, args, 2);
    return fn(args[0], args[1]);
  };
export const ternaryFn =
  (name: string, fn: (a: Value, b: Value, c: Value) => Value): TemplateFunction =>
  (args) => {
    arity(name, args, 3);
    return fn(args[0], args[1], args[2]);
  };

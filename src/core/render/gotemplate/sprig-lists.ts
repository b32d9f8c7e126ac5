// sprig v3.3.0's list and dict functions (list.go, dict.go, numeric.go's until/untilStep/seq, defaults.go's
// deepCopy), with Go semantics: items compared with reflect.DeepEqual (an int is never a float64), a
// value that is not a list refused with sprig's message, merge/mergeOverwrite changing and returning
// their first map as mergo does. Lists a template builds are bounded.
import { binary, str, ternaryFn, unary } from './args.js';
import type { TemplateFunction } from './exec.js';
import { goType, isEmpty, isMap, toInt, UnorderedList, type Value } from './go-values.js';
import { TemplateError } from './parser.js';

/** The most items until/untilStep/seq build: a template cannot allocate without bound. */
const MAX_ITEMS = 100_000;

/** An int parameter: text/template refuses any other type (a float64 parameter too). */
function intArg(value: Value): bigint {
  if (typeof value === 'bigint') return value;
  throw new TemplateError(`wrong type for value; expected int; got ${goType(value)}`);
}

/** A string parameter: text/template refuses any other type. */
function stringArg(value: Value): string {
  if (typeof value === 'string') return value;
  throw new TemplateError(`wrong type for value; expected string; got ${goType(value)}`);
}

/** reflect's Kind name of a value, as sprig's messages print it. */
function kindName(value: Value): string {
  if (Array.isArray(value)) return 'slice';
  if (isMap(value)) return 'map';
  if (value === null || value === undefined) return 'invalid';
  return goType(value);
}

/** The list argument, or sprig's error (`Cannot <what> on type <kind>`). */
function listOf(value: Value, what: string): Value[] {
  if (Array.isArray(value)) return value;
  throw new TemplateError(`Cannot ${what} on type ${kindName(value)}`);
}

/** reflect.DeepEqual on template values: an int and a float64 are never equal. */
function deepEqual(a: Value, b: Value): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isMap(a) || isMap(b)) {
    if (!isMap(a) || !isMap(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return typeof a === typeof b && a === b;
}

const inList = (list: Value[], item: Value) => list.some((other) => deepEqual(item, other));

function uniq(list: Value): Value[] {
  const out: Value[] = [];
  for (const item of listOf(list, 'find uniq')) if (!inList(out, item)) out.push(item);
  return out;
}

/** sprig slice: list[start:end] as Go slices it, an index out of range an error. */
function slice(args: Value[]): Value {
  if (args.length === 0) throw new TemplateError('wrong number of args for slice: want at least 1 got 0');
  if (!Array.isArray(args[0]))
    throw new TemplateError(`list should be type of slice or array but ${kindName(args[0])}`);
  const list = args[0];
  if (list.length === 0) return null;
  const start = args.length > 1 ? Number(toInt(args[1])) : 0;
  const end = args.length > 2 ? Number(toInt(args[2])) : list.length;
  if (start < 0 || end < start || end > list.length)
    throw new TemplateError(`reflect: slice index out of range: [${start}:${end}] of length ${list.length}`);
  return list.slice(start, end);
}

/** list.go mustFirst / mustLast: the item, nil for an empty list; nil itself has no type to ask. */
function ends(list: Value, which: 'first' | 'last'): Value {
  if (list === null || list === undefined)
    throw new TemplateError('runtime error: invalid memory address or nil pointer dereference');
  const items = listOf(list, `find ${which}`);
  if (items.length === 0) return null;
  return which === 'first' ? items[0] : items[items.length - 1];
}

/** list.go mustChunk: lists of `size` items, the last one shorter. */
function chunk(size: bigint, list: Value): Value[][] {
  if (!Array.isArray(list)) throw new TemplateError(`Cannot chunk type ${kindName(list)}`);
  const items = list;
  if (size <= 0n) throw new TemplateError('runtime error: makeslice: len out of range');
  const out: Value[][] = [];
  for (let i = 0; i < items.length; i += Number(size)) out.push(items.slice(i, i + Number(size)));
  return out;
}

function concat(args: Value[]): Value[] {
  return args.flatMap((list) => {
    if (!Array.isArray(list)) throw new TemplateError(`Cannot concat type ${kindName(list)} as list`);
    return list;
  });
}

/** numeric.go untilStep: start, start+step, … short of stop; a step pointing away gives nothing. */
function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const out: bigint[] = [];
  const down = stop < start;
  if (down ? step >= 0n : step <= 0n) return out;
  for (let i = start; down ? i > stop : i < stop; i += step) {
    if (out.length >= MAX_ITEMS) throw new TemplateError(`the list would have more than ${MAX_ITEMS} items`);
    out.push(i);
  }
  return out;
}

/** numeric.go seq: GNU seq's `seq LAST`, `seq FIRST LAST`, `seq FIRST INCREMENT LAST`, space-separated. */
function seq(args: Value[]): string {
  const n = args.map(intArg);
  let list: bigint[] = [];
  if (n.length === 1) list = untilStep(1n, n[0]! + (n[0]! < 1n ? -1n : 1n), n[0]! < 1n ? -1n : 1n);
  else if (n.length === 2) {
    const step = n[1]! < n[0]! ? -1n : 1n;
    list = untilStep(n[0]!, n[1]! + step, step);
  } else if (n.length === 3) {
    const down = n[2]! < n[0]!;
    if (down && n[1]! > 0n) return '';
    list = untilStep(n[0]!, n[2]! + (down ? -1n : 1n), n[1]!);
  }
  return list.join(' ');
}

function dictOf(value: Value, name: string): Record<string, Value> {
  if (isMap(value)) return value;
  throw new TemplateError(`${name}: wrong type for value; expected map[string]interface {}; got ${goType(value)}`);
}

/** mergo.Merge on map[string]interface{}: nested maps merged, a key taken when missing or empty (or always, overwriting). */
function mergeInto(dst: Record<string, Value>, src: Record<string, Value>, overwrite: boolean): void {
  for (const [key, value] of Object.entries(src)) {
    const has = Object.hasOwn(dst, key);
    const current = dst[key];
    if (value === null || value === undefined) {
      if (overwrite) dst[key] = null;
      continue;
    }
    if (isMap(value) && isMap(current)) {
      mergeInto(current, value, overwrite);
      if (!isEmpty(current)) continue;
    }
    if (overwrite || !has || isEmpty(current)) dst[key] = value;
  }
}

function merge(name: string, overwrite: boolean): TemplateFunction {
  return (args) => {
    if (args.length === 0) throw new TemplateError(`wrong number of args for ${name}: want at least 1 got 0`);
    const dst = dictOf(args[0], name);
    for (const src of args.slice(1)) mergeInto(dst, dictOf(src, name), overwrite);
    return dst;
  };
}

function pickOmit(name: string, keep: boolean): TemplateFunction {
  return (args) => {
    if (args.length === 0) throw new TemplateError(`wrong number of args for ${name}: want at least 1 got 0`);
    const dict = dictOf(args[0], name);
    const keys = new Set(args.slice(1).map(stringArg));
    return Object.fromEntries(Object.entries(dict).filter(([key]) => keys.has(key) === keep));
  };
}

function deepCopy(value: Value): Value {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (isMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepCopy(v)]));
  return value;
}

/** A function and its must* variant: in a template both stop with the same error. */
function withMust(name: string, fn: TemplateFunction): Record<string, TemplateFunction> {
  return { [name]: fn, [`must${name[0]!.toUpperCase()}${name.slice(1)}`]: fn };
}

function listFunctions(): Record<string, TemplateFunction> {
  const push = binary('append', (l, v) => [...listOf(l, 'push'), v]);
  return {
    ...withMust('uniq', unary('uniq', uniq)),
    ...withMust(
      'compact',
      unary('compact', (l) => listOf(l, 'compact').filter((v) => !isEmpty(v))),
    ),
    ...withMust('without', (args) => {
      if (args.length === 0) throw new TemplateError('wrong number of args for without: want at least 1 got 0');
      return listOf(args[0], 'find without').filter((item) => !inList(args.slice(1), item));
    }),
    ...withMust(
      'has',
      binary('has', (needle, l) => l !== null && l !== undefined && inList(listOf(l, 'find has'), needle)),
    ),
    ...withMust('slice', slice),
    ...withMust('push', push),
    ...withMust('append', push),
    ...withMust(
      'prepend',
      binary('prepend', (l, v) => [v, ...listOf(l, 'prepend')]),
    ),
    ...withMust(
      'rest',
      unary('rest', (l) => (listOf(l, 'find rest').length === 0 ? null : (l as Value[]).slice(1))),
    ),
    ...withMust(
      'initial',
      unary('initial', (l) => (listOf(l, 'find initial').length === 0 ? null : (l as Value[]).slice(0, -1))),
    ),
    ...withMust(
      'reverse',
      unary('reverse', (l) => [...listOf(l, 'find reverse')].reverse()),
    ),
    concat,
    until: unary('until', (n) => untilStep(0n, intArg(n), intArg(n) < 0n ? -1n : 1n)),
    untilStep: ternaryFn('untilStep', (a, b, c) => untilStep(intArg(a), intArg(b), intArg(c))),
    seq,
  };
}

export function collectionFunctions(): Record<string, TemplateFunction> {
  return {
    ...listFunctions(),
    ...withMust(
      'first',
      unary('first', (l) => ends(l, 'first')),
    ),
    ...withMust(
      'last',
      unary('last', (l) => ends(l, 'last')),
    ),
    ...withMust(
      'chunk',
      binary('chunk', (size, l) => chunk(intArg(size), l)),
    ),
    ...withMust('merge', merge('merge', false)),
    ...withMust('mergeOverwrite', merge('mergeOverwrite', true)),
    pick: pickOmit('pick', true),
    omit: pickOmit('omit', false),
    set: ternaryFn('set', (d, k, v) => Object.assign(dictOf(d, 'set'), { [str(k)]: v })),
    unset: binary('unset', (d, k) => {
      const dict = dictOf(d, 'unset');
      delete dict[str(k)];
      return dict;
    }),
    pluck: (args) =>
      args.slice(1).flatMap((d) => (isMap(d) && Object.hasOwn(d, str(args[0])) ? [d[str(args[0])]] : [])),
    values: unary('values', (d) => new UnorderedList(Object.values(dictOf(d, 'values')))),
    deepEqual: binary('deepEqual', deepEqual),
    deepCopy: unary('deepCopy', deepCopy),
    mustDeepCopy: unary('mustDeepCopy', deepCopy),
  };
}

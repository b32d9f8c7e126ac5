// The functions an ApplicationSet template can call (applicationset/utils/utils.go): text/template's
// builtins, the sprig functions templates use (Masterminds/sprig v3 GenericFuncMap; `env`, `expandenv`
// and `getHostByName` are removed there), and Argo CD's own `normalize`, `slugify`, `toYaml`,
// `fromYaml`, `fromYamlArray`. A sprig function not listed here is refused by name, never guessed.
import { parse } from 'yaml';
import { emitDocument } from '../go-yaml-emit.js';
import type { TemplateFunction } from './exec.js';
import { TemplateError } from './parser.js';
import { binary, str, strings, ternaryFn, unary } from './args.js';
import { goQuote, sprint, sprintf, sprintln } from './printf.js';
import { extraFunctions } from './sprig-extra.js';
import { collectionFunctions } from './sprig-lists.js';
import { urlFunctions } from './go-url.js';
import { jsonFunctions, toJson } from './sprig-json.js';
import { cryptoFunctions } from './sprig-crypto.js';
import { textFunctions } from './sprig-text.js';
import { floatFunctions } from './sprig-float.js';
import { equal, goType, isEmpty, isMap, less, stringOf, toInt, truth, type Value } from './go-values.js';

/** Argo CD's SanitizeName (applicationset/utils/template_functions.go): a DNS-1123-ish name. */
export function sanitizeName(name: string): string {
  const lowered = name.toLowerCase().replace(/[^-a-z0-9.]/g, '-');
  return lowered.slice(0, 253).replace(/^[-.]+|[-.]+$/g, '');
}

/** utils.go SlugifyName: `slugify [maxSize [smartTruncate]] name` — gosimple/slug Make of the sanitized name. */
function slugify(args: Value[]): string {
  const name = args.length > 0 ? args[args.length - 1] : '';
  const maxSize = args.length > 1 ? Number(toInt(args[0])) : 50;
  const smart = args.length > 2 ? truth(args[1]) : true;
  if (typeof name !== 'string') throw new TemplateError('slugify: the name is not a string');
  let slug = sanitizeName(name).trim();
  if (!smart && slug.length >= maxSize) slug = slug.slice(0, maxSize);
  slug = slug
    .replace(/[^a-zA-Z0-9\-_]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  if (maxSize <= 0 || !smart || slug.length <= maxSize) return slug;
  for (let i = maxSize; i >= 0; i--) if (slug[i] === '-') return slug.slice(0, i);
  return slug.slice(0, maxSize);
}

/** strings.Replace(s, old, new, -1): an empty `old` matches before every character and at the end. */
function replaceAll(text: string, old: string, by: string): string {
  if (old !== '') return text.split(old).join(by);
  return by + [...text].join(by) + (text === '' ? '' : by);
}

/**
 * utils.go toYAML: sigs.k8s.io/yaml Marshal — the value through JSON, written by go-yaml v2 (its key
 * order, quoting of strings that read as another type, folding past column 80) — the final newline cut.
 */
function toYaml(value: Value): string {
  return emitDocument(JSON.parse(toJson(value))).replace(/\n$/, '');
}

/** sigs.k8s.io/yaml Unmarshal: YAML 1.1 read through JSON, so numbers are float64. */
function fromYaml(text: Value, want: 'map' | 'list'): Value {
  let parsed: unknown;
  try {
    parsed = parse(str(text), { version: '1.1' }) as unknown;
  } catch (error) {
    throw new TemplateError(`error converting YAML to JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (parsed === null || parsed === undefined) return want === 'map' ? {} : [];
  if (want === 'map' ? !isMap(parsed) : !Array.isArray(parsed))
    throw new TemplateError(`cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value`);
  return JSON.parse(JSON.stringify(parsed)) as Value;
}

function index(args: Value[]): Value {
  if (args.length === 0) throw new TemplateError('wrong number of args for index: want at least 1 got 0');
  let item = args[0];
  for (const key of args.slice(1)) {
    if (item === undefined || item === null) throw new TemplateError('index of untyped nil');
    if (Array.isArray(item)) {
      if (typeof key !== 'bigint') throw new TemplateError(`cannot index slice/array with type ${goType(key)}`);
      if (key < 0n || key >= BigInt(item.length)) throw new TemplateError(`index out of range: ${key}`);
      item = item[Number(key)];
    } else if (isMap(item)) {
      if (typeof key !== 'string') throw new TemplateError(`value has type ${goType(key)}; should be string`);
      item = Object.hasOwn(item, key) ? item[key] : null;
    } else throw new TemplateError(`can't index item of type ${goType(item)}`);
  }
  return item;
}

function len(value: Value): bigint {
  if (typeof value === 'string') return BigInt(new TextEncoder().encode(value).length);
  if (Array.isArray(value)) return BigInt(value.length);
  if (isMap(value)) return BigInt(Object.keys(value).length);
  if (value === undefined || value === null) throw new TemplateError('len of nil pointer');
  throw new TemplateError(`len of type ${goType(value)}`);
}

/** sprig's variadic int functions: `add` takes any number of values (none is 0), the others at least one. */
function math(name: string, least: number, op: (a: bigint, b: bigint) => bigint): TemplateFunction {
  return (args) => {
    if (args.length < least)
      throw new TemplateError(`wrong number of args for ${name}: want at least ${least} got ${args.length}`);
    if (args.length === 0) return 0n;
    return args.slice(1).reduce<bigint>((total, value) => op(total, toInt(value)), toInt(args[0]));
  };
}

function divide(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new TemplateError('integer divide by zero');
  return a / b;
}

/** strings.Title: the first letter of every word upper-cased. */
function title(text: string): string {
  return text.replace(
    /(^|[^\p{L}\p{N}_])(\p{L})/gu,
    (_, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

function trunc(count: Value, text: string): string {
  const c = Number(toInt(count));
  if (c < 0 && text.length + c > 0) return text.slice(text.length + c);
  if (c >= 0 && text.length > c) return text.slice(0, c);
  return text;
}

function indent(spaces: Value, text: Value): string {
  const pad = ' '.repeat(Math.max(0, Number(toInt(spaces))));
  return pad + replaceAll(str(text), '\n', `\n${pad}`);
}

function dict(args: Value[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (let i = 0; i < args.length; i += 2) out[str(args[i])] = i + 1 < args.length ? args[i + 1] : '';
  return out;
}

function base64(text: Value, decode: boolean): string {
  if (!decode) {
    const bytes = new TextEncoder().encode(str(text));
    return btoa(String.fromCharCode(...bytes));
  }
  try {
    const binary = atob(str(text));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch (error) {
    return (error as Error).message;
  }
}

export const FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  // text/template builtins (and / or are evaluated lazily by the executor).
  not: unary('not', (v) => !truth(v)),
  len: unary('len', len),
  index,
  print: sprint,
  println: sprintln,
  printf: (args) => sprintf(str(args[0]), args.slice(1)),
  eq: (args) => equal(args[0], ...args.slice(1)),
  ne: binary('ne', (a, b) => !equal(a, b)),
  lt: binary('lt', (a, b) => less(a, b)),
  le: binary('le', (a, b) => less(a, b) || equal(a, b)),
  gt: binary('gt', (a, b) => !less(a, b) && !equal(a, b)),
  ge: binary('ge', (a, b) => !less(a, b)),
  // Argo CD's own.
  normalize: unary('normalize', (v) => sanitizeName(str(v))),
  slugify,
  toYaml: unary('toYaml', toYaml),
  fromYaml: unary('fromYaml', (v) => fromYaml(v, 'map')),
  fromYamlArray: unary('fromYamlArray', (v) => fromYaml(v, 'list')),
  ...SPRIG_STRINGS(),
  ...SPRIG_OTHERS(),
  ...SPRIG_PATHS_AND_TYPES(),
  ...extraFunctions(),
  ...collectionFunctions(),
  ...urlFunctions(),
  ...jsonFunctions(),
  ...cryptoFunctions(),
  ...textFunctions(),
  ...floatFunctions(),
};

function SPRIG_STRINGS(): Record<string, TemplateFunction> {
  return {
    lower: unary('lower', (v) => str(v).toLowerCase()),
    upper: unary('upper', (v) => str(v).toUpperCase()),
    title: unary('title', (v) => title(str(v))),
    trim: unary('trim', (v) => str(v).trim()),
    trimAll: binary('trimAll', (cut, v) => trimSet(str(v), str(cut))),
    trimPrefix: binary('trimPrefix', (p, v) => (str(v).startsWith(str(p)) ? str(v).slice(str(p).length) : str(v))),
    trimSuffix: binary('trimSuffix', (p, v) =>
      str(p) !== '' && str(v).endsWith(str(p)) ? str(v).slice(0, -str(p).length) : str(v),
    ),
    trunc: binary('trunc', (c, v) => trunc(c, str(v))),
    replace: ternaryFn('replace', (old, by, v) => replaceAll(str(v), str(old), str(by))),
    repeat: binary('repeat', (c, v) => str(v).repeat(Math.max(0, Number(toInt(c))))),
    substr: ternaryFn('substr', (a, b, v) => substr(str(v), Number(toInt(a)), Number(toInt(b)))),
    contains: binary('contains', (sub, v) => str(v).includes(str(sub))),
    hasPrefix: binary('hasPrefix', (p, v) => str(v).startsWith(str(p))),
    hasSuffix: binary('hasSuffix', (p, v) => str(v).endsWith(str(p))),
    quote: (args) =>
      args
        .filter((v) => v !== null && v !== undefined)
        .map((v) => goQuote(stringOf(v)))
        .join(' '),
    squote: (args) =>
      args
        .filter((v) => v !== null && v !== undefined)
        .map((v) => `'${stringOf(v)}'`)
        .join(' '),
    cat: (args) =>
      args
        .filter((v) => v !== null && v !== undefined)
        .map(stringOf)
        .join(' '),
    indent: binary('indent', indent),
    nindent: binary('nindent', (n, v) => `\n${indent(n, v)}`),
    splitList: binary('splitList', (sep, v) => str(v).split(str(sep))),
    split: binary('split', (sep, v) =>
      Object.fromEntries(
        str(v)
          .split(str(sep))
          .map((part, i) => [`_${i}`, part]),
      ),
    ),
    join: binary('join', (sep, v) => strings(v).join(str(sep))),
    toString: unary('toString', (v) => stringOf(v)),
    b64enc: unary('b64enc', (v) => base64(v, false)),
    b64dec: unary('b64dec', (v) => base64(v, true)),
  };
}

function trimSet(text: string, cut: string): string {
  const set = new Set(cut);
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && set.has(chars[start]!)) start++;
  while (end > start && set.has(chars[end - 1]!)) end--;
  return chars.slice(start, end).join('');
}

function substr(text: string, start: number, end: number): string {
  if (start < 0) return text.slice(0, end);
  if (end < 0 || end > text.length) return text.slice(start);
  return text.slice(start, end);
}

function SPRIG_OTHERS(): Record<string, TemplateFunction> {
  return {
    default: (args) => {
      if (args.length === 0) throw new TemplateError('wrong number of args for default: want at least 1 got 0');
      return args.length < 2 || isEmpty(args[1]) ? args[0] : args[1];
    },
    empty: unary('empty', isEmpty),
    coalesce: (args) => args.find((v) => !isEmpty(v)) ?? null,
    ternary: ternaryFn('ternary', (yes, no, cond) => (cond === true ? yes : no)),
    list: (args) => [...args],
    tuple: (args) => [...args],
    sortAlpha: unary('sortAlpha', (v) => strings(v).sort()),
    keys: (args) => args.flatMap((d) => (isMap(d) ? Object.keys(d) : [])).sort(),
    dict,
    get: binary('get', (d, k) => (isMap(d) && Object.hasOwn(d, str(k)) ? d[str(k)] : '')),
    hasKey: binary('hasKey', (d, k) => isMap(d) && Object.hasOwn(d, str(k))),
    int: unary('int', toInt),
    int64: unary('int64', toInt),
    atoi: unary('atoi', (v) => (/^[-+]?\d+$/.test(str(v)) ? BigInt(str(v)) : 0n)),
    float64: unary('float64', (v) => (typeof v === 'bigint' ? Number(v) : Number(str(v)) || 0)),
    add: math('add', 0, (a, b) => a + b),
    add1: unary('add1', (v) => toInt(v) + 1n),
    sub: binary('sub', (a, b) => toInt(a) - toInt(b)),
    mul: math('mul', 1, (a, b) => a * b),
    div: binary('div', (a, b) => divide(toInt(a), toInt(b))),
    mod: binary('mod', (a, b) => (toInt(b) === 0n ? divide(0n, 0n) : toInt(a) % toInt(b))),
    max: math('max', 1, (a, b) => (a > b ? a : b)),
    min: math('min', 1, (a, b) => (a < b ? a : b)),
    dig,
    base: unary('base', (v) => pathBase(str(v))),
    dir: unary('dir', (v) => pathDir(str(v))),
  };
}

/** sprig dig: `dig "a" "b" default map` — the value at a.b, or the default when a key is missing. */
function dig(args: Value[]): Value {
  if (args.length < 3) throw new TemplateError(`wrong number of args for dig: want at least 3 got ${args.length}`);
  const fallback = args[args.length - 2];
  let current = args[args.length - 1];
  if (!isMap(current)) throw new TemplateError(`dig: the last argument is a ${goType(current)}, not a map`);
  for (const key of args.slice(0, -2)) {
    if (!isMap(current) || !Object.hasOwn(current, str(key))) return fallback;
    current = current[str(key)];
  }
  return current;
}

/** Go's path.Base. */
function pathBase(path: string): string {
  if (path === '') return '.';
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Go's path.Dir: everything but the last element, cleaned. */
function pathDir(path: string): string {
  return cleanPath(path.slice(0, path.lastIndexOf('/') + 1));
}

/** Go's path.Clean: `.` and `..` resolved, slashes collapsed, `.` for nothing. */
function cleanPath(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (part !== '..' || !absolute) parts.push(part);
  }
  const joined = (absolute ? '/' : '') + parts.join('/');
  return joined === '' ? '.' : joined;
}

/** Go's path.Ext: the suffix from the last `.` of the last element. */
function pathExt(path: string): string {
  for (let i = path.length - 1; i >= 0 && path[i] !== '/'; i--) if (path[i] === '.') return path.slice(i);
  return '';
}

/** unicode.IsSpace's characters. */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** goutils Uncapitalize: the first letter of every whitespace-separated word lower-cased. */
function untitle(text: string): string {
  let after = true;
  let out = '';
  for (const c of text) {
    out += after ? c.toLowerCase() : c;
    after = GO_SPACE.test(c);
  }
  return out;
}

/** Paths (path and, on Linux, path/filepath), types, and the little functions sprig has besides. */
function SPRIG_PATHS_AND_TYPES(): Record<string, TemplateFunction> {
  const typeOf = (v: Value) => (v === null || v === undefined ? '<nil>' : goType(v));
  return {
    ...{ clean: unary('clean', (v) => cleanPath(str(v))), osClean: unary('osClean', (v) => cleanPath(str(v))) },
    ...{ ext: unary('ext', (v) => pathExt(str(v))), osExt: unary('osExt', (v) => pathExt(str(v))) },
    ...{
      isAbs: unary('isAbs', (v) => str(v).startsWith('/')),
      osIsAbs: unary('osIsAbs', (v) => str(v).startsWith('/')),
    },
    ...{ osBase: unary('osBase', (v) => pathBase(str(v))), osDir: unary('osDir', (v) => pathDir(str(v))) },
    typeOf: unary('typeOf', typeOf),
    typeIs: binary('typeIs', (target, v) => str(target) === typeOf(v)),
    typeIsLike: binary('typeIsLike', (target, v) => [str(target), `*${str(target)}`].includes(typeOf(v))),
    kindOf: unary('kindOf', kindOf),
    kindIs: binary('kindIs', (kind, v) => kindOf(v) === str(kind)),
    hello: (args) => {
      if (args.length > 0) throw new TemplateError(`wrong number of args for hello: want 0 got ${args.length}`);
      return 'Hello!';
    },
    nospace: unary('nospace', (v) => [...str(v)].filter((c) => !GO_SPACE.test(c)).join('')),
    untitle: unary('untitle', (v) => untitle(str(v))),
    trimall: binary('trimall', (cut, v) => trimSet(str(v), str(cut))),
    toStrings: unary('toStrings', strings),
  };
}

function kindOf(value: Value): string {
  if (Array.isArray(value)) return 'slice';
  if (isMap(value)) return 'map';
  if (value === null || value === undefined) return 'invalid';
  return typeof value === 'bigint' ? 'int' : typeof value === 'number' ? 'float64' : goType(value);
}

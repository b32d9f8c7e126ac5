// Flux's envsubst (fluxcd/pkg envsubst, a fork of drone/envsubst), as kustomize-controller runs it on
// each object's YAML: `${var}`; `${var:=w}`, `${var:-w}`, `${var=w}`, `${var:?w}`, `${var:+w}` (all
// give `w` when the value is empty); `${var^}`, `${var^^}`, `${var,}`, `${var,,}`; `${#var}`;
// `${var:offset[:length]}`; `${var#glob}`, `##`, `%`, `%%`; `${var/from/to}`, `//`, `/#`, `/%`.
// `$$` is a literal `$` outside a `${…}` (so `$${var}` is the text `${var}`); `$var` is left alone; a
// `${` that does not parse is an error that fails the build. Strict mode (kustomize-controller's
// StrictPostBuildSubstitutions) fails on an unset variable read without a default. A value the
// snapshot does not hold is `unknown`: the expansion names it instead of guessing.

import { compilePathGlob } from '../patterns/index.js';

export type VariableValue = { type: 'set'; value: string } | { type: 'unset' } | { type: 'unknown'; from: string[] };

export interface Expansion {
  text: string;
  /** Variables whose value is not known here → where it may come from; the text is then not the real one. */
  unknown: Map<string, string[]>;
  /** Variables read without a default that are not set: strict mode fails the build on them. */
  unset: string[];
}

type Node = string | Func;
interface Func {
  param: string;
  op: string;
  args: Node[];
}

const DEFAULT_OPS = new Set(['-', '+', '=', '?', ':-', ':+', ':=', ':?']);

export class EnvsubstError extends Error {}

/** Parses the text as Flux's envsubst does; throws EnvsubstError with Flux's message when it cannot. */
function parse(text: string): Node[] {
  const parser = new Parser(text);
  return parser.all();
}

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  all(): Node[] {
    const nodes: Node[] = [];
    let literal = '';
    while (this.pos < this.text.length) {
      if (this.at('${')) {
        if (literal) nodes.push(literal);
        literal = '';
        this.pos += 2;
        nodes.push(this.func());
      } else if (this.at('$$')) {
        literal += '$';
        this.pos += 2;
      } else literal += this.text[this.pos++];
    }
    if (literal) nodes.push(literal);
    return nodes;
  }

  private at(prefix: string): boolean {
    return this.text.startsWith(prefix, this.pos);
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  /** A run of `chars` (at most `max`) at the cursor. */
  private run(chars: string, max: number): string {
    let out = '';
    while (out.length < max && this.peek() !== '' && chars.includes(this.peek())) out += this.text[this.pos++];
    return out;
  }

  private close(error = 'bad substitution'): void {
    if (this.peek() !== '}') throw new EnvsubstError(error);
    this.pos += 1;
  }

  private func(): Func {
    if (this.peek() === '#') {
      this.pos += 1;
      const param = this.ident();
      if (!param) throw new EnvsubstError('bad substitution');
      this.close();
      return { param, op: '#', args: [] };
    }
    const param = this.ident();
    if (!param) throw new EnvsubstError('unable to parse variable name');
    const next = this.peek();
    if (next === ':') return /[=\-?+]/.test(this.text[this.pos + 1] ?? '') ? this.defaults(param) : this.substr(param);
    if (next === '=') return this.defaults(param);
    if (next === ',' || next === '^') return this.withClose({ param, op: this.run(',^', 2), args: [] });
    if (next === '/') return this.replace(param);
    if (next === '#' || next === '%') {
      const op = this.run(next, 2);
      return this.withClose({ param, op, args: [this.param((c) => c !== '}', false)] });
    }
    this.close('missing closing brace');
    return { param, op: '', args: [] };
  }

  private withClose(func: Func): Func {
    this.close();
    return func;
  }

  private ident(): string {
    const start = this.pos;
    while (/^[\p{L}\p{N}_]$/u.test(this.peek())) this.pos += 1;
    return this.text.slice(start, this.pos);
  }

  private defaults(param: string): Func {
    const op = this.peek() === '=' ? this.run('=', 1) : this.run(':', 1) + this.run('=-?+', 1);
    const args: Node[] = [];
    while (this.peek() !== '}') args.push(this.param((c) => c !== '}', false));
    this.pos += 1;
    return { param, op, args };
  }

  private substr(param: string): Func {
    this.pos += 1;
    const args = [this.param((c) => c !== ':' && c !== '}', false)];
    if (this.peek() === ':') {
      this.pos += 1;
      args.push(this.param((c) => c !== '}', false));
    }
    return this.withClose({ param, op: ':', args });
  }

  private replace(param: string): Func {
    this.pos += 1;
    const op = '/' + this.run('/#%', 1);
    const args = [this.param((c) => c !== '/', true)];
    if (this.peek() !== '/') throw new EnvsubstError('bad substitution');
    this.pos += 1;
    if (this.peek() !== '}') args.push(this.param((c) => c !== '}', true));
    return this.withClose({ param, op, args });
  }

  /** A function's argument: a nested `${…}`, or text up to a `${` or a character `accept` refuses. */
  private param(accept: (c: string) => boolean, escapes: boolean): Node {
    if (this.at('${')) {
      this.pos += 2;
      return this.func();
    }
    let out = '';
    const start = this.pos;
    while (this.pos < this.text.length && !this.at('${')) {
      const c = this.text[this.pos]!;
      const next = this.text[this.pos + 1] ?? '';
      if (escapes && ((c === '$' && next === '$') || (c === '\\' && (next === '/' || next === '\\')))) {
        out += next;
        this.pos += 2;
      } else if (accept(c)) {
        out += c;
        this.pos += 1;
      } else break;
    }
    if (this.pos === start) throw new EnvsubstError('unable to parse substitution within function');
    return out;
  }
}

/**
 * The text with its variables expanded. `lookup` says what each variable is; `strict` adds unset
 * variables read without a default to `unset` (the build fails on them), else they read as empty.
 */
export function expand(text: string, lookup: (name: string) => VariableValue, strict: boolean): Expansion {
  const nodes = parse(text);
  const out: Expansion = { text: '', unknown: new Map(), unset: [] };
  const evaluate = (node: Node): string => {
    if (typeof node === 'string') return node;
    const args = node.args.map(evaluate);
    const found = lookup(node.param);
    if (found.type === 'unknown') out.unknown.set(node.param, found.from);
    if (found.type === 'unset' && strict && !DEFAULT_OPS.has(node.op)) out.unset.push(node.param);
    return apply(node.op, found.type === 'set' ? found.value : '', args);
  };
  out.text = nodes.map(evaluate).join('');
  return out;
}

/** Whether the text holds anything envsubst changes (a `${` or an escaped `$$`). */
export function hasExpansion(text: string): boolean {
  return text.includes('${') || text.includes('$$');
}

function apply(op: string, value: string, args: string[]): string {
  if (op === '#' && args.length === 0) return String(value.length);
  if (op === '^^') return value.toUpperCase();
  if (op === ',,') return value.toLowerCase();
  if (op === '^') return value.charAt(0).toUpperCase() + value.slice(1);
  if (op === ',') return value.charAt(0).toLowerCase() + value.slice(1);
  if (op === ':') return substring(value, args);
  if (op.startsWith('/')) return replaced(op, value, args);
  if (op === '#' || op === '##' || op === '%' || op === '%%') return trimmed(op, value, args[0] ?? '');
  return value === '' && args.length > 0 ? args.join('') : value;
}

function integer(text: string | undefined): number | undefined {
  return text !== undefined && /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** `${var:offset[:length]}` as envsubst's toSubstr: a negative offset counts from the end. */
function substring(value: string, args: string[]): string {
  let position = integer(args[0]);
  if (position === undefined) return value;
  if (position < 0) position = Math.max(0, value.length + position);
  if (args.length === 1) return position < value.length ? value.slice(position) : '';
  const length = integer(args[1]);
  if (length === undefined) return value;
  if (position + length >= value.length) return position < value.length ? value.slice(position) : '';
  return value.slice(position, position + length);
}

function replaced(op: string, value: string, args: string[]): string {
  const [from = '', to = ''] = args;
  if (args.length === 0) return value;
  if (op === '//') return value.split(from).join(to);
  if (op === '/') return value.replace(from, () => to);
  if (args.length !== 2) return value;
  if (op === '/#') return value.startsWith(from) ? to + value.slice(from.length) : value;
  return value.endsWith(from) ? value.slice(0, value.length - from.length) + to : value;
}

/** `#`/`##` trim the shortest/longest prefix matching the glob, `%`/`%%` the suffix. */
function trimmed(op: string, value: string, glob: string): string {
  const compiled = compilePathGlob(glob);
  if (!compiled.ok) return value;
  const pattern = compiled.pattern;
  const lengths = [...Array(value.length + 1).keys()];
  const order = op.length === 1 ? lengths : lengths.reverse();
  for (const n of order) {
    if (n === 0) continue;
    const part = op.startsWith('#') ? value.slice(0, n) : value.slice(value.length - n);
    if (pattern.test(part)) return op.startsWith('#') ? value.slice(n) : value.slice(0, value.length - n);
  }
  return value;
}

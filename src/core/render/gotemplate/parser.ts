// Go's text/template parsed as text/template/parse does, for the language ApplicationSet templates use:
// text and actions (`{{ }}`, trim markers `{{- ` and ` -}}`, comments), pipelines of commands with
// fields, variables, literals, functions and parenthesized pipelines, variable declarations and
// assignments, `if` / `else if` / `with` / `else with` / `range` (with `$i, $v :=`) / `break` /
// `continue` / `end`. `define`, `template` and `block` are refused with their name.

export class TemplateError extends Error {}

export type Operand =
  | { type: 'dot' }
  | { type: 'field'; chain: string[] }
  | { type: 'variable'; name: string; chain: string[] }
  | { type: 'string'; value: string }
  | { type: 'int'; value: bigint }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'nil' }
  | { type: 'function'; name: string }
  | { type: 'pipeline'; pipeline: Pipeline; chain: string[] };

export type Command = Operand[];

export interface Pipeline {
  /** Declared (`:=`) or assigned (`=`) variables, with `$`. */
  variables: string[];
  assign: boolean;
  commands: Command[];
}

export interface BlockNode {
  type: 'if' | 'with' | 'range';
  pipeline: Pipeline;
  list: Node[];
  otherwise?: Node[];
}

export type Node =
  | { type: 'text'; text: string }
  | { type: 'action'; pipeline: Pipeline }
  | BlockNode
  | { type: 'break' }
  | { type: 'continue' };

interface Action {
  tokens: Token[];
  text: string;
}

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'char'; text: string }
  | { kind: 'number'; text: string }
  /** `attached`: right after a `)`, so a field of the parenthesized value. */
  | { kind: 'field'; chain: string[]; attached?: true }
  | { kind: 'variable'; name: string; chain: string[] }
  | { kind: '(' | ')' | '|' | ',' | ':=' | '=' };

type Piece = { text: string } | Action;

const SPACE = new Set([' ', '\t', '\r', '\n']);

/** The template split into text and actions, whitespace trimmed by the markers, comments dropped. */
function split(source: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  let trimNext = false;
  for (let open = source.indexOf('{{'); open >= 0; open = source.indexOf('{{', at)) {
    let text = source.slice(at, open);
    if (trimNext) text = trimLeft(text);
    let start = open + 2;
    if (source[start] === '-' && SPACE.has(source[start + 1] ?? '')) [text, start] = [trimRight(text), start + 1];
    if (text !== '') pieces.push({ text });
    const { tokens, end, trim } = lexAction(source, start);
    trimNext = trim;
    if (tokens !== undefined) pieces.push({ tokens, text: source.slice(open, end) });
    at = end;
  }
  const rest = trimNext ? trimLeft(source.slice(at)) : source.slice(at);
  if (rest !== '') pieces.push({ text: rest });
  return pieces;
}

function trimLeft(text: string): string {
  let i = 0;
  while (i < text.length && SPACE.has(text[i]!)) i++;
  return text.slice(i);
}

function trimRight(text: string): string {
  let i = text.length;
  while (i > 0 && SPACE.has(text[i - 1]!)) i--;
  return text.slice(0, i);
}

/** The close of an action at `i`: `}}` or ` -}}`; its length, or 0. */
function closeAt(source: string, i: number): { length: number; trim: boolean } | undefined {
  if (source.startsWith('}}', i)) return { length: 2, trim: false };
  if (SPACE.has(source[i] ?? '') && source.startsWith('-}}', i + 1)) return { length: 4, trim: true };
  return undefined;
}

function lexAction(source: string, start: number): { tokens?: Token[]; end: number; trim: boolean } {
  let i = start;
  while (SPACE.has(source[i] ?? '')) i++;
  if (source.startsWith('/*', i) && i === start) {
    const stop = source.indexOf('*/', i + 2);
    const close = stop < 0 ? undefined : closeAt(source, stop + 2);
    if (!close) throw new TemplateError('unclosed comment');
    return { end: stop + 2 + close.length, trim: close.trim };
  }
  const tokens: Token[] = [];
  for (;;) {
    while (SPACE.has(source[i] ?? '') && !closeAt(source, i)) i++;
    if (i >= source.length) throw new TemplateError('unclosed action');
    const close = closeAt(source, i);
    if (close) return { tokens, end: i + close.length, trim: close.trim };
    const [token, next] = lexToken(source, i);
    tokens.push(token);
    i = next;
  }
}

function lexToken(source: string, i: number): [Token, number] {
  const c = source[i]!;
  if (c === '(' || c === ')' || c === '|' || c === ',') return [{ kind: c }, i + 1];
  if (source.startsWith(':=', i)) return [{ kind: ':=' }, i + 2];
  if (c === '=') return [{ kind: '=' }, i + 1];
  if (c === '"') return lexQuoted(source, i);
  if (c === '`') {
    const stop = source.indexOf('`', i + 1);
    if (stop < 0) throw new TemplateError('unterminated raw quoted string');
    return [{ kind: 'string', value: source.slice(i + 1, stop) }, stop + 1];
  }
  if (c === "'") {
    const stop = source.indexOf("'", i + 1);
    if (stop < 0) throw new TemplateError('unterminated character constant');
    return [{ kind: 'char', text: source.slice(i + 1, stop) }, stop + 1];
  }
  const word = /^[-+]?\.?[0-9][0-9a-zA-Z_.+-]*|^[$.]?[A-Za-z0-9_$]*(\.[A-Za-z0-9_]+)*/.exec(source.slice(i))?.[0] ?? '';
  if (word === '') throw new TemplateError(`unexpected ${JSON.stringify(c)} in command`);
  const token = wordToken(word);
  if (token.kind === 'field' && source[i - 1] === ')') token.attached = true;
  return [token, i + word.length];
}

function wordToken(word: string): Token {
  if (/^[-+]?\.?[0-9]/.test(word)) return { kind: 'number', text: word }; // `.5` is a number, as Go lexes it
  if (word.startsWith('$')) {
    const [name, ...chain] = word.split('.');
    return { kind: 'variable', name: name!, chain };
  }
  if (word.startsWith('.')) return { kind: 'field', chain: word === '.' ? [] : word.slice(1).split('.') };
  return { kind: 'word', text: word };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", a: '\x07' };

function lexQuoted(source: string, start: number): [Token, number] {
  let value = '';
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"') return [{ kind: 'string', value }, i + 1];
    if (c === '\n') break;
    if (c !== '\\') {
      value += c;
      continue;
    }
    const e = source[++i] ?? '';
    if (ESCAPES[e] !== undefined) value += ESCAPES[e];
    else if (e === 'x' || e === 'u' || e === 'U') {
      const size = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = source.slice(i + 1, i + 1 + size);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== size) throw new TemplateError('invalid escape in string');
      value += e === 'x' ? String.fromCharCode(parseInt(hex, 16)) : String.fromCodePoint(parseInt(hex, 16));
      i += size;
    } else throw new TemplateError(`unknown escape sequence \\${e}`);
  }
  throw new TemplateError('unterminated quoted string');
}

/** Parses a template into its nodes; throws TemplateError with Go's meaning of the fault. */
export function parseTemplate(source: string): Node[] {
  const parser = new Parser(split(source));
  return parser.list(false);
}

class Parser {
  private at = 0;
  /** The keyword that ended the last list (`end`, `else`), when one did. */
  stop: string | undefined;
  private elseRest: Token[] = [];

  constructor(private readonly pieces: Piece[]) {}

  list(inBlock: boolean): Node[] {
    const nodes: Node[] = [];
    this.stop = undefined;
    while (this.at < this.pieces.length) {
      const piece = this.pieces[this.at++]!;
      if (!('tokens' in piece)) {
        nodes.push({ type: 'text', text: piece.text });
        continue;
      }
      const first = piece.tokens[0];
      const keyword = first?.kind === 'word' ? first.text : undefined;
      if (keyword === 'end' || keyword === 'else') {
        if (!inBlock) throw new TemplateError(`unexpected {{${keyword}}}`);
        this.stop = keyword;
        this.elseRest = piece.tokens.slice(1);
        return nodes;
      }
      nodes.push(this.node(piece, keyword));
    }
    if (inBlock) throw new TemplateError('unexpected EOF');
    return nodes;
  }

  private node(piece: Action, keyword: string | undefined): Node {
    const rest = piece.tokens.slice(1);
    switch (keyword) {
      case 'if':
      case 'with':
      case 'range':
        return this.block(keyword, rest);
      case 'break':
        return { type: 'break' };
      case 'continue':
        return { type: 'continue' };
      case 'define':
      case 'template':
      case 'block':
        throw new TemplateError(`{{${keyword}}} not supported`);
      default:
        if (piece.tokens.length === 0) throw new TemplateError('missing value for command');
        return { type: 'action', pipeline: parsePipeline(piece.tokens) };
    }
  }

  private block(type: 'if' | 'with' | 'range', tokens: Token[]): Node {
    const pipeline = parsePipeline(tokens);
    const list = this.list(true);
    if (this.stop === 'end') return { type, pipeline, list };
    const rest = this.elseRest;
    const chained = rest[0]?.kind === 'word' && (rest[0].text === 'if' || rest[0].text === 'with');
    if (chained && type !== 'range') {
      // `{{else if x}}` is `{{else}}{{if x}}…{{end}}{{end}}` sharing the final {{end}}.
      const inner = this.block((rest[0] as { text: 'if' | 'with' }).text, rest.slice(1));
      return { type, pipeline, list, otherwise: [inner] };
    }
    if (rest.length > 0) throw new TemplateError('unexpected tokens after {{else}}');
    const otherwise = this.list(true);
    if (this.stop !== 'end') throw new TemplateError('expected {{end}}');
    return { type, pipeline, list, otherwise };
  }
}

function parsePipeline(tokens: Token[]): Pipeline {
  let rest = tokens;
  const variables: string[] = [];
  let assign = false;
  const declared = declaration(tokens);
  if (declared) [rest, assign] = [tokens.slice(declared.length), declared.assign];
  if (declared) variables.push(...declared.names);
  const commands: Command[] = [];
  let command: Command = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (token.kind === '|') {
      if (command.length === 0) throw new TemplateError('missing command in pipeline');
      commands.push(command);
      command = [];
    } else if (token.kind === '(') {
      const close = matching(rest, i);
      const after = rest[close + 1];
      const chain = after?.kind === 'field' && after.attached ? after.chain : undefined;
      command.push({ type: 'pipeline', pipeline: parsePipeline(rest.slice(i + 1, close)), chain: chain ?? [] });
      i = chain ? close + 1 : close;
    } else command.push(operand(token));
  }
  if (command.length === 0) throw new TemplateError('missing value for command');
  commands.push(command);
  return { variables, assign, commands };
}

/** `$x :=`, `$x =` or `$i, $v :=` at the start of a pipeline. */
function declaration(tokens: Token[]): { names: string[]; assign: boolean; length: number } | undefined {
  const names: string[] = [];
  let i = 0;
  for (;;) {
    const token = tokens[i];
    if (token?.kind !== 'variable' || token.chain.length > 0) return undefined;
    names.push(token.name);
    const next = tokens[i + 1]?.kind;
    if (next === ':=' || next === '=') return { names, assign: next === '=', length: i + 2 };
    if (next !== ',' || names.length > 1) return undefined;
    i += 2;
  }
}

function matching(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i]!.kind === '(') depth++;
    else if (tokens[i]!.kind === ')' && --depth === 0) return i;
  }
  throw new TemplateError('unclosed left paren');
}

function operand(token: Token): Operand {
  switch (token.kind) {
    case 'string':
      return { type: 'string', value: token.value };
    case 'number':
      return number(token.text);
    case 'char':
      return { type: 'int', value: BigInt(token.text.codePointAt(0) ?? 0) };
    case 'field':
      return token.chain.length === 0 ? { type: 'dot' } : { type: 'field', chain: token.chain };
    case 'variable':
      return { type: 'variable', name: token.name, chain: token.chain };
    case 'word':
      if (token.text === 'true' || token.text === 'false') return { type: 'bool', value: token.text === 'true' };
      if (token.text === 'nil') return { type: 'nil' };
      return { type: 'function', name: token.text };
    default:
      throw new TemplateError(`unexpected ${JSON.stringify(token.kind)} in operand`);
  }
}

function number(text: string): Operand {
  const plain = text.replace(/_/g, '');
  if (/^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[0-9]+)$/.test(plain)) {
    const negative = plain.startsWith('-');
    const digits = plain.replace(/^[-+]/, '').replace(/^0([0-7])/, '0o$1');
    const value = BigInt(digits.replace(/^0[oO]/, '0o'));
    return { type: 'int', value: negative ? -value : value };
  }
  const value = Number(plain);
  if (!Number.isFinite(value)) throw new TemplateError(`bad number syntax: ${JSON.stringify(text)}`);
  return { type: 'float', value };
}

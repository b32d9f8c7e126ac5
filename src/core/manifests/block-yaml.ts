// A fast reader for the plain block YAML that manifests and Helm templates are mostly written in:
// block maps and lists, plain, single- and double-quoted scalars on one line, literal block scalars
// (`|`, `|-`, tabs in their text), `{}` and `[]`, comment lines before an entry. It reads such a file
// straight into tracked documents, several times faster than composing it with the yaml library. It
// gives up (undefined) on anything else — flow collections, anchors and aliases, tags, folded,
// multi-line or escaped scalars, a tab elsewhere, a repeated key, a merge key, an empty document, a
// comment line whose place would change a node's range — and read-yaml.ts then reads the file with
// the yaml library, so errors and their positions are always that reader's. What it returns equals
// what read-yaml.ts returns for the same text: values (YAML 1.2 core schema, a plain 0755 as octal),
// nodes and source locations.
import type { FieldOrigin, FieldSource, SourceLocation } from '../model/index.js';
import type { ScalarValue, TrackedNode } from './tracked.js';

export interface BlockDocument {
  root: TrackedNode;
  location: SourceLocation;
  /** Nodes in the document (keys, values and collections), as expansion-size.ts counts them. */
  nodes: number;
}

/** Thrown inside the reader when the text leaves what it reads; never escapes it. */
class Unsupported extends Error {}

interface Read {
  node: TrackedNode;
  /** Where the node's text ends with what trails it on its line (the yaml library's `range[2]`). */
  tail: number;
  nodes: number;
  /** The line after the node. */
  next: number;
}

const SPACE = 32;
const HASH = 35;
const DASH = 45;

/** Characters that start something other than a plain scalar (or may, in some places): left to the yaml library. */
const INDICATORS = new Set([...',[]{}#&*!|>\'"%@`']);
/** Control characters (carriage returns too), the byte-order mark, noncharacters: left to the yaml library. */
function awkward(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 ? c !== 10 && c !== 9 : c === 0x7f || c === 0xfeff || (c >= 0xfdd0 && c <= 0xfdef) || c >= 0xfffe)
      return true;
  }
  return false;
}

/** A plain scalar as YAML 1.2's core schema resolves it (the yaml library's tests, in its order). */
export function plainScalar(text: string): ScalarValue {
  // Nothing but null, booleans and numbers can start otherwise: the common case costs one test.
  if (text !== '' && !/[-+.0-9~nNtTfF]/.test(text[0]!)) return text;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return text[0] === 't' || text[0] === 'T';
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text))
    return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text)) return parseFloat(text);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)) return parseFloat(text);
  return text;
}

/**
 * The file's documents read by the fast reader, or undefined when the file needs the yaml library.
 * `lineStarts`: lineStartsOf(text).
 */
export function readBlockYaml(
  file: string,
  text: string,
  lineStarts: readonly number[],
  origin: FieldOrigin,
): BlockDocument[] | undefined {
  // A directive (`%YAML`) makes the whole file one piece for read-yaml.ts: left to it.
  if (awkward(text) || /^%/m.test(text)) return undefined;
  try {
    return new BlockReader(file, text, lineStarts, origin).documents();
  } catch (error) {
    // Unsupported, or a nesting deeper than the stack (RangeError): the yaml library reads it, or says why not.
    if (error instanceof Unsupported || error instanceof RangeError) return undefined;
    throw error;
  }
}

class BlockReader {
  private document = 0;
  /** The line where the current document ends (its next `---`, or the end of the file). */
  private end = 0;
  /** Lines holding a tab: content in a literal block, left to the yaml library anywhere else. */
  private readonly tabbed = new Set<number>();

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly starts: readonly number[],
    private readonly origin: FieldOrigin,
  ) {
    let line = 0;
    for (let tab = text.indexOf('\t'); tab >= 0; tab = text.indexOf('\t', tab + 1)) {
      while (line + 1 < starts.length && starts[line + 1]! <= tab) line++;
      this.tabbed.add(line);
    }
  }

  documents(): BlockDocument[] {
    const out: BlockDocument[] = [];
    let line = 0;
    while (line < this.starts.length) {
      this.end = this.documentEnd(line + 1);
      out.push(this.readDocument(line));
      this.document += 1;
      line = this.end;
    }
    return out;
  }

  /** The first line from `from` that starts a document (`---`, as read-yaml.ts cuts a file), else the line count. */
  private documentEnd(from: number): number {
    for (let line = from; line < this.starts.length; line++) if (this.startsWith(line, '---')) return line;
    return this.starts.length;
  }

  private readDocument(first: number): BlockDocument {
    let line = first;
    if (this.startsWith(line, '---') || this.startsWith(line, '...')) {
      if (this.lineEnd(line) - this.starts[line]! !== 3 || !this.startsWith(line, '---')) throw new Unsupported();
      line += 1;
    }
    while (line < this.end && (this.isBlank(line) || (this.isComment(line) && this.indent(line) === 0)))
      this.untabbed(line++);
    if (line >= this.end || this.indent(line) !== 0) throw new Unsupported();
    const read = this.block(this.untabbed(line), 0);
    for (let rest = read.next; rest < this.end; rest++) if (!this.isBlank(this.untabbed(rest))) throw new Unsupported();
    const range = read.node.source.location!.range;
    return { root: read.node, location: this.locate(line, range[0], range[1]), nodes: read.nodes };
  }

  /** A map or list that starts at `column` of `line`. */
  private block(line: number, column: number): Read {
    const at = this.starts[line]! + column;
    if (this.isDash(at)) return this.list(line, column);
    const key = this.key(line, at);
    if (!key) throw new Unsupported();
    return this.map(line, column);
  }

  private map(first: number, column: number): Read {
    const entries = new Map<string, TrackedNode>();
    let line = first;
    let nodes = 1;
    let read: Read;
    for (;;) {
      const key = this.key(line, this.starts[line]! + column);
      if (!key || entries.has(key.name) || key.name === '<<') throw new Unsupported();
      read = this.value(line, key.after, column, true);
      entries.set(key.name, read.node);
      nodes += 1 + read.nodes;
      const next = this.nextContent(read.next);
      if (next >= this.end || this.indent(next) < column) break;
      if (this.indent(next) > column || this.isDash(this.starts[next]! + column)) throw new Unsupported();
      line = next;
    }
    const start = this.starts[first]! + column;
    const node: TrackedNode = { kind: 'map', entries, source: this.source(first, start, read.tail) };
    return { node, tail: read.tail, nodes, next: read.next };
  }

  private list(first: number, column: number): Read {
    const items: TrackedNode[] = [];
    let line = first;
    let nodes = 1;
    let read: Read;
    for (;;) {
      read = this.value(line, this.starts[line]! + column + 1, column, false);
      items.push(read.node);
      nodes += read.nodes;
      const next = this.nextContent(read.next);
      if (next >= this.end || this.indent(next) < column) break;
      if (this.indent(next) > column) throw new Unsupported();
      if (!this.isDash(this.starts[next]! + column)) break;
      line = next;
    }
    const start = this.starts[first]! + column;
    return {
      node: { kind: 'list', items, source: this.source(first, start, read.tail) },
      tail: read.tail,
      nodes,
      next: read.next,
    };
  }

  /**
   * The value after a key's `:` or an item's `-` at `from` on `line`, in a collection at `column`; `inMap`:
   * a map's value may be a list at the map's own column.
   */
  private value(line: number, from: number, column: number, inMap: boolean): Read {
    const end = this.lineEnd(line);
    let at = from;
    while (at < end && this.text.charCodeAt(at) === SPACE) at++;
    if (at === end) return this.below(line, column, inMap);
    if (at === from) throw new Unsupported();
    const c = this.text[at]!;
    if (c === '|') return this.literal(line, at, column);
    if (c === '"' || c === "'") return this.quotedValue(line, at);
    if (c === '{' || c === '[') return this.emptyFlow(line, at, c);
    if (!inMap && this.key(line, at)) return this.map(line, at - this.starts[line]!);
    return this.plainValue(line, at);
  }

  /** Nothing after the `:` or `-`: a map or list on the lines below, else null. */
  private below(line: number, column: number, inMap: boolean): Read {
    const next = this.nextContent(line + 1);
    if (next < this.end) {
      const indent = this.indent(next);
      if (indent > column || (inMap && indent === column && this.isDash(this.starts[next]! + column)))
        return this.block(next, indent);
    }
    const at = this.lineEnd(line);
    return { node: this.scalar(line, at, at, null), tail: at, nodes: 1, next: line + 1 };
  }

  /** A literal block scalar (`|` or `|-`) whose header is at `at`, in a collection at `column`. */
  private literal(line: number, at: number, column: number): Read {
    const header = /^\|(-?) *$/.exec(this.text.slice(at, this.lineEnd(line)));
    const first = line + 1;
    if (!header || first >= this.end || this.isBlank(first) || this.indent(first) <= column) throw new Unsupported();
    const indent = this.indent(first);
    let last = first;
    for (let next = first + 1; next < this.end; next++) {
      const length = this.lineEnd(next) - this.starts[next]!;
      if (this.isBlank(next) ? length > indent : this.indent(next) >= indent) last = next;
      else if (!this.isBlank(next)) break;
    }
    const lines: string[] = [];
    for (let each = first; each <= last; each++) {
      const start = this.starts[each]!;
      const end = this.lineEnd(each);
      lines.push(end - start <= indent && this.isBlank(each) ? '' : this.text.slice(start + indent, end));
    }
    const stop = this.lineEnd(last) + 1;
    if (stop > this.text.length) throw new Unsupported();
    const value = header[1] === '-' ? lines.join('\n') : `${lines.join('\n')}\n`;
    return { node: this.scalar(line, at, stop, value), tail: stop, nodes: 1, next: last + 1 };
  }

  private quotedValue(line: number, at: number): Read {
    const quoted = this.quoted(line, at);
    if (!quoted) throw new Unsupported();
    return this.scalarRead(line, at, quoted.end, quoted.value);
  }

  /** `{}` or `[]`. */
  private emptyFlow(line: number, at: number, open: string): Read {
    if (this.text[at + 1] !== (open === '{' ? '}' : ']')) throw new Unsupported();
    const read = this.scalarRead(line, at, at + 2, null);
    const source = read.node.source;
    read.node = open === '{' ? { kind: 'map', entries: new Map(), source } : { kind: 'list', items: [], source };
    return read;
  }

  private plainValue(line: number, at: number): Read {
    const lineEnd = this.lineEnd(line);
    let end = lineEnd;
    for (let i = at + 1; i < lineEnd; i++)
      if (this.text.charCodeAt(i) === HASH && this.text.charCodeAt(i - 1) === SPACE) {
        end = i;
        break;
      }
    while (end > at && this.text.charCodeAt(end - 1) === SPACE) end--;
    const written = this.text.slice(at, end);
    if (!this.plainStart(written) || written.includes(': ') || written.endsWith(':')) throw new Unsupported();
    let value = plainScalar(written);
    // A plain 0755 is octal (493), as read-yaml.ts reads it (kustomize's and the API server's YAML 1.1).
    if (typeof value === 'number' && /^[-+]?0[0-7]+$/.test(written)) value = parseInt(written, 8);
    return this.scalarRead(line, at, end, value);
  }

  /** A one-line scalar from `at` to `end`; nothing but spaces or a comment may follow it on its line. */
  private scalarRead(line: number, at: number, end: number, value: ScalarValue): Read {
    const lineEnd = this.lineEnd(line);
    let after = end;
    while (after < lineEnd && this.text.charCodeAt(after) === SPACE) after++;
    if (after < lineEnd && (after === end || this.text.charCodeAt(after) !== HASH)) throw new Unsupported();
    const tail = lineEnd < this.text.length ? lineEnd + 1 : lineEnd;
    return { node: this.scalar(line, at, end, value), tail, nodes: 1, next: line + 1 };
  }

  /** The key of a `key: value` entry at `at` on `line`, or undefined when there is none there. */
  private key(line: number, at: number): { name: string; after: number } | undefined {
    const end = this.lineEnd(line);
    const c = this.text[at];
    if (c === '"' || c === "'") {
      const quoted = this.quoted(line, at);
      if (!quoted || this.text[quoted.end] !== ':') return undefined;
      if (quoted.end + 1 < end && this.text.charCodeAt(quoted.end + 1) !== SPACE) return undefined;
      return { name: quoted.value, after: quoted.end + 1 };
    }
    for (let i = at; i < end; i++) {
      const code = this.text.charCodeAt(i);
      if (code === HASH && this.text.charCodeAt(i - 1) === SPACE) return undefined;
      if (code !== 58 || (i + 1 < end && this.text.charCodeAt(i + 1) !== SPACE)) continue;
      const written = this.text.slice(at, i);
      if (!this.plainStart(written) || written.endsWith(' ')) throw new Unsupported();
      return { name: String(plainScalar(written)), after: i + 1 };
    }
    return undefined;
  }

  /** A quoted scalar on one line, without escapes: its value and where it ends. */
  private quoted(line: number, at: number): { value: string; end: number } | undefined {
    const quote = this.text[at]!;
    const end = this.lineEnd(line);
    let value = '';
    for (let from = at + 1; ;) {
      const close = this.text.indexOf(quote, from);
      if (close < 0 || close >= end) return undefined;
      value += this.text.slice(from, close);
      if (quote === "'" && this.text[close + 1] === "'") {
        value += "'";
        from = close + 2;
        continue;
      }
      if (quote === '"' && value.includes('\\')) throw new Unsupported();
      return { value, end: close + 1 };
    }
  }

  /** Whether a plain scalar may start so (no indicator, no `- `, `? `, `: `). */
  private plainStart(written: string): boolean {
    if (written === '' || INDICATORS.has(written[0]!)) return false;
    return !('-?:'.includes(written[0]!) && (written.length === 1 || written[1] === ' '));
  }

  /**
   * The next line from `from` that is not blank or a comment. A comment line must sit at that line's
   * indentation (elsewhere the yaml library counts it into a node's range).
   */
  private nextContent(from: number): number {
    let line = from;
    let comment = -1;
    while (line < this.end && (this.isBlank(this.untabbed(line)) || this.isComment(line))) {
      if (this.isComment(line) && comment < 0) comment = this.indent(line);
      if (this.isComment(line) && this.indent(line) !== comment) throw new Unsupported();
      line++;
    }
    if (comment >= 0 && (line >= this.end || this.indent(line) !== comment)) throw new Unsupported();
    return line < this.end ? this.untabbed(line) : line;
  }

  /** `line`, when it holds no tab (outside a literal block, tabs are left to the yaml library). */
  private untabbed(line: number): number {
    if (this.tabbed.has(line)) throw new Unsupported();
    return line;
  }

  private scalar(line: number, start: number, end: number, value: ScalarValue): TrackedNode {
    return { kind: 'scalar', value, source: this.source(line, start, end) };
  }

  private source(line: number, start: number, end: number): FieldSource {
    return { location: this.locate(line, start, end), origin: this.origin };
  }

  private locate(line: number, start: number, end: number): SourceLocation {
    const column = start - this.starts[line]! + 1;
    return { file: this.file, document: this.document, range: [start, end], line: line + 1, column };
  }

  private lineEnd(line: number): number {
    return line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
  }

  private indent(line: number): number {
    const start = this.starts[line]!;
    let at = start;
    while (this.text.charCodeAt(at) === SPACE) at++;
    return at - start;
  }

  private isBlank(line: number): boolean {
    return this.starts[line]! + this.indent(line) >= this.lineEnd(line);
  }

  private isComment(line: number): boolean {
    return this.text.charCodeAt(this.starts[line]! + this.indent(line)) === HASH;
  }

  /** A `-` that starts a list item at `at` (followed by a space or the line's end). */
  private isDash(at: number): boolean {
    if (this.text.charCodeAt(at) !== DASH) return false;
    const next = this.text.charCodeAt(at + 1);
    return next === SPACE || next === 10 || Number.isNaN(next);
  }

  private startsWith(line: number, marker: string): boolean {
    const start = this.starts[line]!;
    if (!this.text.startsWith(marker, start)) return false;
    const next = this.text.charCodeAt(start + 3);
    return Number.isNaN(next) || next === 10 || next === SPACE;
  }
}

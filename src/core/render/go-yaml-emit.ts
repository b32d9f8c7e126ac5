// The text kustomize-controller runs envsubst on: sigs.k8s.io/yaml JSONToYAML decodes the object and
// go-yaml v2 writes it (encode.go, emitterc.go) — keys sorted as its sorter.go sorts them, block style,
// indent 2, a sequence under a key not indented, an empty collection as `{}`/`[]`. A string is plain
// unless plain text would read back as another type (then double-quoted) or it holds a line break (a
// literal block); the emitter quotes what plain style cannot hold. Plain, single- and double-quoted
// scalars are folded at a space once the line is past column 80 (best_width): envsubst sees the folded
// text, and a value substituted next to a fold reads back without the spaces around the break.
import { isPlainObject } from '../model/index.js';
import { analyzeScalar, isBreak, isPrintable, resolvePlain } from './go-yaml.js';
import { formatFloat } from './gotemplate/go-values.js';

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

class Writer {
  readonly out: string[] = [];
  column = 0;
  whitespace = true;
  indention = true;

  /** One character (put/write in emitterc.go: a column each). */
  write(ch: string): void {
    this.out.push(ch);
    this.column += 1;
  }

  lineBreak(): void {
    this.out.push('\n');
    this.column = 0;
  }

  indent(indent: number): void {
    const at = Math.max(indent, 0);
    if (!this.indention || this.column > at || (this.column === at && !this.whitespace)) this.lineBreak();
    while (this.column < at) this.write(' ');
    this.whitespace = true;
    this.indention = true;
  }

  indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.write(' ');
    for (const ch of text) this.write(ch);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
}

/** go-yaml v2's timestamp test (resolve.go parseTimestamp): such a string is quoted on the way out. */
function timestampLike(text: string): boolean {
  return /^\d{4}-\d{1,2}-\d{1,2}([Tt ]\d{1,2}:\d{1,2}:\d{1,2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.test(text);
}

/** The style encode.go stringv asks for: literal with a line break, else plain when plain reads back as this text. */
function requestedStyle(value: string): 'plain' | 'double' | 'literal' {
  if (value.includes('\n')) return 'literal';
  const base60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(value);
  const typed = resolvePlain(value) !== value || value === '<<' || timestampLike(value) || base60;
  return typed ? 'double' : 'plain';
}

/** emitterc.go yaml_emitter_select_scalar_style for a string in block context. */
function selectStyle(value: string, simpleKey: boolean): 'plain' | 'single' | 'double' | 'literal' {
  const analysis = analyzeScalar(value);
  let style: 'plain' | 'single' | 'double' | 'literal' = requestedStyle(value);
  if (simpleKey && analysis.multiline) style = 'double';
  if (style === 'plain' && (!analysis.blockPlain || (value === '' && simpleKey))) style = 'single';
  if (style === 'single' && !analysis.single) style = 'double';
  if (style === 'literal' && (!analysis.block || simpleKey)) style = 'double';
  return style;
}

/**
 * Whether a fold replaces the space at `i` (the emitter's test): quoted styles never fold at an end;
 * plain and single quotes never before another space (double quotes escape that one).
 */
function folds(w: Writer, chars: string[], i: number, spaces: boolean, style: 'plain' | 'single' | 'double'): boolean {
  if (spaces || w.column <= BEST_WIDTH) return false;
  if (style !== 'plain' && (i === 0 || i === chars.length - 1)) return false;
  return style === 'double' || chars[i + 1] !== ' ';
}

function writePlain(w: Writer, value: string, breaks: boolean, indent: number): void {
  if (!w.whitespace) w.write(' ');
  const chars = [...value];
  let spaces = false;
  chars.forEach((ch, i) => {
    if (ch === ' ') {
      if (breaks && folds(w, chars, i, spaces, 'plain')) w.indent(indent);
      else w.write(ch);
      spaces = true;
      return;
    }
    w.write(ch);
    w.indention = false;
    spaces = false;
  });
  w.whitespace = false;
  w.indention = false;
}

function writeSingle(w: Writer, value: string, breaks: boolean, indent: number): void {
  w.indicator("'", true, false, false);
  const chars = [...value];
  let spaces = false;
  chars.forEach((ch, i) => {
    if (ch === ' ') {
      if (breaks && folds(w, chars, i, spaces, 'single')) w.indent(indent);
      else w.write(ch);
      spaces = true;
      return;
    }
    if (ch === "'") w.write("'");
    w.write(ch);
    w.indention = false;
    spaces = false;
  });
  w.indicator("'", false, false, false);
  w.whitespace = false;
  w.indention = false;
}

const ESCAPES: Record<string, string> = {
  ...{ '\0': '0', '\x07': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r' },
  ...{ '\x1b': 'e', '"': '"', '\\': '\\', '\u0085': 'N', '\u00a0': '_', '\u2028': 'L', '\u2029': 'P' },
};

/** The escape go-yaml writes for a character double quotes cannot hold as it is (without the backslash). */
function escapeOf(ch: string): string {
  if (ESCAPES[ch] !== undefined) return ESCAPES[ch];
  const code = ch.codePointAt(0)!;
  const [letter, digits] = code <= 0xff ? ['x', 2] : code <= 0xffff ? ['u', 4] : ['U', 8];
  return letter + code.toString(16).toUpperCase().padStart(digits, '0');
}

function writeDouble(w: Writer, value: string, breaks: boolean, indent: number): void {
  w.indicator('"', true, false, false);
  const chars = [...value];
  let spaces = false;
  chars.forEach((ch, i) => {
    if (!isPrintable(ch) || ch === '\ufeff' || isBreak(ch) || ch === '"' || ch === '\\') {
      for (const out of `\\${escapeOf(ch)}`) w.write(out);
      spaces = false;
    } else if (ch === ' ') {
      if (breaks && folds(w, chars, i, spaces, 'double')) {
        w.indent(indent);
        if (chars[i + 1] === ' ') w.write('\\');
      } else w.write(ch);
      spaces = true;
    } else {
      w.write(ch);
      spaces = false;
    }
  });
  w.indicator('"', false, false, false);
  w.whitespace = false;
  w.indention = false;
}

function writeLiteral(w: Writer, value: string, indent: number): void {
  w.indicator('|', true, false, false);
  if (value.startsWith(' ') || isBreak(value[0] ?? '')) w.indicator(String(BEST_INDENT), false, false, false);
  const chars = [...value];
  const last = chars.length - 1;
  if (!isBreak(chars[last] ?? '')) w.indicator('-', false, false, false);
  else if (last === 0 || isBreak(chars[last - 1]!)) w.indicator('+', false, false, false);
  w.lineBreak();
  w.indention = true;
  w.whitespace = true;
  let breaks = true;
  for (const ch of chars) {
    if (isBreak(ch)) {
      if (ch === '\n') w.lineBreak();
      else {
        w.write(ch);
        w.column = 0;
      }
      w.indention = true;
      breaks = true;
      continue;
    }
    if (breaks) w.indent(indent);
    w.write(ch);
    w.indention = false;
    breaks = false;
  }
}

/** A string scalar; `indent` is the emitter's indent before the scalar's own (increase_indent). */
function writeString(w: Writer, value: string, indent: number, simpleKey: boolean): void {
  const own = indent < 0 ? BEST_INDENT : indent + BEST_INDENT;
  const style = selectStyle(value, simpleKey);
  if (style === 'plain') writePlain(w, value, !simpleKey, own);
  else if (style === 'single') writeSingle(w, value, !simpleKey, own);
  else if (style === 'double') writeDouble(w, value, !simpleKey, own);
  else writeLiteral(w, value, own);
}

/**
 * A number as go-yaml writes what it decoded from JSON: a whole number in int64/uint64 range as an
 * integer, anything else as a float64 (strconv 'g', shortest: `1e+20`, `1.2345675e+06`).
 */
function numberText(value: number): string {
  if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 64) return BigInt(value).toString();
  if (!Number.isFinite(value)) return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  return formatFloat(value);
}

/** A number, a boolean or null, as go-yaml writes it (text that reads back as the same value). */
function writeOther(w: Writer, value: unknown): void {
  if (!w.whitespace) w.write(' ');
  const text =
    value === null || value === undefined ? 'null' : typeof value === 'number' ? numberText(value) : String(value);
  for (const ch of text) w.write(ch);
  w.whitespace = false;
  w.indention = false;
}

/** sorter.go keyList.Less for two string keys: other characters before letters, runs of digits by value. */
export function goKeyLess(a: string, b: string): boolean {
  const [ar, br] = [[...a], [...b]];
  const letter = (ch: string): boolean => /\p{L}/u.test(ch);
  const digit = (ch: string | undefined): boolean => ch !== undefined && /\p{Nd}/u.test(ch);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const [al, bl] = [letter(ar[i]!), letter(br[i]!)];
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let [an, bn] = [0, 0];
    if (ar[i] === '0' || br[i] === '0')
      for (let j = i - 1; j >= 0 && digit(ar[j]); j--)
        if (ar[j] !== '0') {
          [an, bn] = [1, 1];
          break;
        }
    let [ai, bi] = [i, i];
    for (; ai < ar.length && digit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && digit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

/** emit_block_mapping_key: a key longer than 128 bytes or holding a line break is written after `? `. */
function writeMapping(w: Writer, map: Record<string, unknown>, indent: number): void {
  const own = indent < 0 ? 0 : indent + BEST_INDENT;
  const keys = Object.keys(map).sort((a, b) => (goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0));
  for (const key of keys) {
    w.indent(own);
    const simple = !analyzeScalar(key).multiline && Buffer.byteLength(key) <= 128;
    if (simple) {
      writeString(w, key, own, true);
      w.indicator(':', false, false, false);
    } else {
      w.indicator('?', true, false, true);
      writeString(w, key, own, false);
      w.indent(own);
      w.indicator(':', true, false, true);
    }
    writeNode(w, map[key], own, true);
  }
}

function writeNode(w: Writer, value: unknown, indent: number, mapping: boolean): void {
  const empty = Array.isArray(value) ? value.length === 0 : isPlainObject(value) && Object.keys(value).length === 0;
  if (empty) {
    w.indicator(Array.isArray(value) ? '[' : '{', true, true, false);
    w.indicator(Array.isArray(value) ? ']' : '}', false, false, false);
  } else if (Array.isArray(value)) {
    const own = indent < 0 ? 0 : mapping && !w.indention ? indent : indent + BEST_INDENT;
    for (const item of value) {
      w.indent(own);
      w.indicator('-', true, false, true);
      writeNode(w, item, own, false);
    }
  } else if (isPlainObject(value)) writeMapping(w, value, indent);
  else if (typeof value === 'string') writeString(w, value, indent, false);
  else writeOther(w, value);
}

/** The value as JSONToYAML writes it (sigs.k8s.io/yaml Marshal): the text envsubst runs on, Argo CD's toYaml. */
export function emitDocument(value: unknown): string {
  const w = new Writer();
  writeNode(w, value, -1, false);
  w.indent(0);
  return w.out.join('');
}

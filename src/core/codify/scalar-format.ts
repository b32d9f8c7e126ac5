// How a value is written as a YAML scalar: the original node's quoting style is kept when the
// new value allows it, and a string is left plain only when every YAML reader (1.1 as used by
// kubectl and kustomize, and 1.2) reads it back as the same string.
import { parse } from 'yaml';

export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

export function isScalarValue(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function readsBackAs(text: string, expected: string): boolean {
  try {
    return parse(text, { version: '1.2' }) === expected && parse(text, { version: '1.1' }) === expected;
  } catch {
    return false;
  }
}

/**
 * A character YAML allows only escaped, in a double-quoted scalar: C0 controls but tab and line
 * breaks, DEL, C1 controls, a byte order mark, a lone surrogate, U+FFFE/U+FFFF; and NEL and the
 * Unicode line and paragraph separators, which YAML 1.1 readers (go-yaml under kubectl and
 * kustomize) take as line breaks.
 */
const ESCAPE_ONLY = /[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;

/** True when `value` can be written without quotes (in flow context `,[]{}` are indicators too). */
export function isPlainSafe(value: string, inFlow: boolean): boolean {
  if (value === '' || value !== value.trim() || /[\n\r\t]/.test(value) || ESCAPE_ONLY.test(value)) return false;
  // `-x` and `--flag` are plain; `- x` is a list item and `---` a document marker.
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) && !/^-(?!--)\S/.test(value)) return false;
  if (value.includes(': ') || value.includes(' #') || value.endsWith(':')) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  return readsBackAs(value, value);
}

/** JSON's escaping plus the characters YAML does not allow unescaped (C1 controls, DEL, BOM, line separators). */
export function doubleQuoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Writes a non-string scalar: numbers, booleans and null are always plain. */
function plainNonString(value: number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/** The text of `value` as an inline scalar in `style` (the node's original style), or the closest style that keeps the value. */
export function formatInlineScalar(
  value: string | number | boolean | null,
  style: ScalarStyle = 'PLAIN',
  inFlow = false,
): string {
  if (typeof value !== 'string') return plainNonString(value);
  if (style === 'QUOTE_SINGLE' && !/[\n\r\t\\]/.test(value) && !ESCAPE_ONLY.test(value))
    return `'${value.replace(/'/g, "''")}'`;
  if (style === 'QUOTE_DOUBLE') return doubleQuoted(value);
  return isPlainSafe(value, inFlow) ? value : doubleQuoted(value);
}

/**
 * A block scalar (`|`, `|-`, `|+`, or `>` folded kept as literal since folding would change the
 * text) whose content lines are indented by `indent` spaces; undefined when a block cannot carry
 * the value exactly (leading space on the first line needs an indentation indicator; a control
 * character needs an escape).
 */
export function formatBlockScalar(value: string, indent: number): string | undefined {
  if (/^[ \t]/.test(value) || /[\r\t]/.test(value) || ESCAPE_ONLY.test(value)) return undefined;
  const chomp = value.endsWith('\n\n') ? '+' : value.endsWith('\n') ? '' : '-';
  const body = value.endsWith('\n') ? value.slice(0, value.endsWith('\n\n') ? value.length - 1 : -1) : value;
  const pad = ' '.repeat(indent);
  const lines = body.split('\n').map((line) => (line === '' ? '' : pad + line));
  return `|${chomp}\n${lines.join('\n')}\n`;
}

/** A map key as written in block or flow context. */
export function formatKey(key: string): string {
  return isPlainSafe(key, true) ? key : doubleQuoted(key);
}

// Writes a new value (a key added, a list item inserted, a subtree replaced) as YAML lines in the
// style of the surrounding file: block collections, the file's sequence indentation, plain scalars
// where they read back unchanged.
import { formatInlineScalar, formatKey, isScalarValue } from './scalar-format.js';
import { isPlainObject } from '../model/index.js';

export interface BlockStyle {
  /** Spaces per nesting level of a map. Default: 2. */
  indent: number;
  /** `- ` items at the same column as their parent key (`true`) or indented by `indent` (`false`). Default: false. */
  flushSequences: boolean;
  /** Short lists of scalars on one line, `kinds: [Deployment]` (as a hand-written config). Default: false. */
  flowScalarLists?: boolean;
}

/** Longest flow list written on one line when `flowScalarLists` is set. */
const FLOW_LIST_MAX = 72;

/** `[a, b]` for a short non-empty list of scalars when the style writes such lists in flow. */
function flowList(value: unknown, style: BlockStyle): string | undefined {
  if (!style.flowScalarLists || !Array.isArray(value) || value.length === 0) return undefined;
  if (!value.every(isScalarValue)) return undefined;
  const flow = renderFlow(value);
  return flow.length <= FLOW_LIST_MAX ? flow : undefined;
}

export const DEFAULT_BLOCK_STYLE: BlockStyle = { indent: 2, flushSequences: false };

/** A value written on the same line as its key or dash: a scalar or an empty collection. */
export function inlineValue(value: unknown): string | undefined {
  if (isScalarValue(value)) return formatInlineScalar(value);
  if (Array.isArray(value) && value.length === 0) return '[]';
  if (isPlainObject(value) && Object.keys(value).length === 0) return '{}';
  return undefined;
}

/** Lines of `key: value` at column `column` (the value's lines below it when it is a collection). */
export function renderPair(key: string, value: unknown, column: number, style: BlockStyle): string[] {
  const pad = ' '.repeat(column);
  const inline = inlineValue(value) ?? flowList(value, style);
  if (inline !== undefined) return [`${pad}${formatKey(key)}: ${inline}`];
  const childColumn = Array.isArray(value) && style.flushSequences ? column : column + style.indent;
  return [`${pad}${formatKey(key)}:`, ...renderCollection(value, childColumn, style)];
}

/** Lines of one sequence item `- …` whose dash is at `column`. */
export function renderItem(value: unknown, column: number, style: BlockStyle): string[] {
  const pad = ' '.repeat(column);
  const inline = inlineValue(value) ?? flowList(value, style);
  if (inline !== undefined) return [`${pad}- ${inline}`];
  const lines = renderCollection(value, column + 2, style);
  lines[0] = `${pad}- ${lines[0].slice(column + 2)}`;
  return lines;
}

/** Lines of a non-empty map or sequence whose entries start at `column`. */
export function renderCollection(value: unknown, column: number, style: BlockStyle): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => renderItem(item, column, style));
  if (isPlainObject(value))
    return Object.entries(value).flatMap(([key, child]) => renderPair(key, child, column, style));
  return [' '.repeat(column) + (inlineValue(value) ?? JSON.stringify(value))];
}

/** A value in flow context (inside `[…]` or `{…}`): JSON, which is valid flow YAML. */
export function renderFlow(value: unknown): string {
  if (isScalarValue(value)) return formatInlineScalar(value, 'PLAIN', true);
  if (Array.isArray(value)) return `[${value.map(renderFlow).join(', ')}]`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${formatKey(k)}: ${renderFlow(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

// The byte-exact edits of YAML text as splices (replace `[start, end)` with new text): a scalar
// rewritten in its own quoting, a node replaced whole, map entries or list items inserted or removed,
// each in the style of the collection that holds it — block lines at the siblings' indentation, or
// `, item` inside `[…]`/`{…}`. Several splices of one edit are applied together, never overlapping.
import { isScalar, type Pair, type ParsedNode, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { afterLine, columnOf, eolOf, lineStart, onlyIndentBefore } from './text-offsets.js';
import { formatBlockScalar, formatInlineScalar, formatKey, type ScalarStyle } from './scalar-format.js';
import { renderFlow, renderItem, renderPair, type BlockStyle } from './block-render.js';
import type { Step } from './yaml-locate.js';

export interface Splice {
  start: number;
  end: number;
  text: string;
}

type Collection = YAMLMap<ParsedNode, ParsedNode | null> | YAMLSeq<ParsedNode>;
type Entry = Pair<ParsedNode, ParsedNode | null> | ParsedNode;

/** Applies splices that do not overlap (touching is fine); undefined when two overlap. */
export function applySplices(text: string, splices: readonly Splice[]): string | undefined {
  const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) if (sorted[i].start < sorted[i - 1].end) return undefined;
  let out = text;
  for (const splice of sorted.reverse()) out = out.slice(0, splice.start) + splice.text + out.slice(splice.end);
  return out;
}

/** Rewrites one scalar node's text, keeping its quoting style when the value allows it. */
export function scalarSplice(
  text: string,
  node: Scalar,
  value: string | number | boolean | null,
  inFlow: boolean,
): Splice {
  const [start, end] = node.range!;
  const style = (node.type ?? 'PLAIN') as ScalarStyle;
  const block = style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED';
  if (block && typeof value === 'string') {
    const contentStart = afterLine(text, start);
    const indent = /^ */.exec(text.slice(contentStart))![0].length || columnOf(text, lineStart(text, start)) + 2;
    const written = formatBlockScalar(value, indent);
    if (written !== undefined)
      return { start, end, text: end > 0 && text[end - 1] === '\n' ? written : written.replace(/\n$/, '') };
  }
  const inline = formatInlineScalar(value, block ? 'PLAIN' : style, inFlow);
  const trailing = block && text[end - 1] === '\n' ? '\n' : '';
  return { start, end, text: inline + trailing };
}

/** Where an entry of a collection starts and ends: a pair from its key to its value, an item as itself. */
function entryBounds(entry: Entry): [number, number] {
  if (isScalar(entry) || !('key' in entry)) return [entry.range[0], entry.range[1]];
  const pair = entry as Pair<ParsedNode, ParsedNode | null>;
  return [pair.key.range[0], (pair.value ?? pair.key).range[1]];
}

/** The offset of the `-` in front of a block sequence item. */
function dashOf(text: string, item: ParsedNode): number {
  return text.lastIndexOf('-', item.range[0] - 1);
}

/** Replaces the value of the last step (a pair's value or a list item) with a new subtree. */
export function replaceSplice(text: string, step: Step, value: unknown, style: BlockStyle, inFlow: boolean): Splice {
  const node = step.node;
  const eol = eolOf(text);
  const keepEnd = (end: number): string => (end === text.length && !text.endsWith('\n') ? '' : eol);
  if (node && (inFlow || (node as { flow?: boolean }).flow))
    return { start: node.range[0], end: node.range[1], text: renderFlow(value) };
  if (step.pair) {
    const key = step.pair.key;
    const start = key.range[0];
    const column = columnOf(text, start);
    const end = afterLine(text, node ? node.range[1] : key.range[1]);
    const lines = renderPair(String((key as Scalar).value), value, column, style);
    lines[0] = lines[0].slice(column);
    return { start, end, text: lines.join(eol) + keepEnd(end) };
  }
  const dash = dashOf(text, node!);
  const column = columnOf(text, dash);
  const end = afterLine(text, node!.range[1]);
  return { start: dash, end, text: renderItem(value, column, style).join(eol).slice(column) + keepEnd(end) };
}

/** A new map entry (`key` set) or list item. */
export interface NewEntry {
  key?: string;
  value: unknown;
}

function flowEntry(entry: NewEntry): string {
  return entry.key === undefined ? renderFlow(entry.value) : `${formatKey(entry.key)}: ${renderFlow(entry.value)}`;
}

function blockEntry(entry: NewEntry, column: number, style: BlockStyle): string[] {
  return entry.key === undefined
    ? renderItem(entry.value, column, style)
    : renderPair(entry.key, entry.value, column, style);
}

/** Where an entry's own text starts: a pair's key, an item's dash in block style, the item in flow style. */
function entryStart(text: string, entry: Entry, flow: boolean): number {
  if ('key' in (entry as object) || flow) return entryBounds(entry)[0];
  return dashOf(text, entry as ParsedNode);
}

/** Inserts entries into a non-empty collection before entry `before`, or after the last one. */
export function insertSplice(
  text: string,
  parent: Collection,
  before: number,
  entries: readonly NewEntry[],
  style: BlockStyle,
  inFlow: boolean,
): Splice | undefined {
  const items = parent.items as Entry[];
  if (items.length === 0) return undefined;
  if (inFlow || parent.flow) {
    if (before < items.length) {
      const at = entryBounds(items[before])[0];
      return { start: at, end: at, text: entries.map((entry) => `${flowEntry(entry)}, `).join('') };
    }
    const at = entryBounds(items[items.length - 1])[1];
    return { start: at, end: at, text: entries.map((entry) => `, ${flowEntry(entry)}`).join('') };
  }
  const eol = eolOf(text);
  const column = columnOf(text, entryStart(text, items[0], false));
  const lines = entries.flatMap((entry) => blockEntry(entry, column, style));
  let at: number;
  if (before < items.length) {
    const start = entryStart(text, items[before], false);
    if (!onlyIndentBefore(text, start)) return undefined;
    at = lineStart(text, start);
  } else at = afterLine(text, entryBounds(items[items.length - 1])[1]);
  const needsNewline = at === text.length && text.length > 0 && !text.endsWith('\n');
  return { start: at, end: at, text: (needsNewline ? eol : '') + lines.join(eol) + eol };
}

/**
 * Removes entry `index` of a collection. In flow style the entry goes with one comma; in block style
 * its lines go, or, for the first key on a list item's dash line, everything up to the next entry
 * that stays (`keptAfter`), which moves up behind the dash. undefined: no clean way.
 */
export function removeSplice(
  text: string,
  parent: Collection,
  index: number,
  inFlow: boolean,
  keptAfter?: number,
): Splice | undefined {
  const items = parent.items as Entry[];
  const [start, end] = entryBounds(items[index]);
  if (inFlow || parent.flow) {
    if (index + 1 < items.length) return { start, end: entryBounds(items[index + 1])[0], text: '' };
    if (index === 0) return undefined;
    return { start: entryBounds(items[index - 1])[1], end, text: '' };
  }
  const first = entryStart(text, items[index], false);
  if (onlyIndentBefore(text, first)) return { start: lineStart(text, first), end: afterLine(text, end), text: '' };
  const next = keptAfter ?? index + 1;
  if (!('key' in (items[index] as object)) || next >= items.length) return undefined;
  return { start: first, end: entryBounds(items[next])[0], text: '' };
}

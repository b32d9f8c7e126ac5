// Byte-exact edits of one YAML document inside a file: set a scalar, replace a subtree, add a
// missing key or keyed-list item, remove a key or item. Each edit splices the source text at the
// node's range; every byte outside the edited node stays as it was.
import { isMap, isScalar, isSeq, type ParsedNode, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import type { PathSegment } from '../model/index.js';
import { isPlainObject } from '../model/index.js';
import { afterLine, columnOf, eolOf, insertLines, lineOf, lineStart, onlyIndentBefore, splice } from './text.js';
import { formatBlockScalar, formatInlineScalar, isScalarValue, formatKey, type ScalarStyle } from './scalar-format.js';
import { renderFlow, renderItem, renderPair, type BlockStyle } from './block-render.js';
import { locate, parseDocuments, pathText, type ParsedDocument, type Step } from './yaml-locate.js';
import { detectStyle } from './yaml-style.js';

export type EditResult = { ok: true; text: string; line: number } | { ok: false; reason: string };

function documentAt(text: string, index: number): ParsedDocument | string {
  const docs = parseDocuments(text);
  const doc = docs[index];
  if (!doc) return `the file has no YAML document #${index + 1}`;
  if (doc.errors.length > 0) return `the file is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`;
  return doc;
}

/** Rewrites one scalar node's text, keeping its quoting style when the value allows it. */
export function rewriteScalar(
  text: string,
  node: Scalar,
  value: string | number | boolean | null,
  inFlow: boolean,
): string {
  const [start, end] = node.range!;
  const style = (node.type ?? 'PLAIN') as ScalarStyle;
  if ((style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED') && typeof value === 'string') {
    const contentStart = afterLine(text, start);
    const indent = /^ */.exec(text.slice(contentStart))![0].length || columnOf(text, lineStart(text, start)) + 2;
    const block = formatBlockScalar(value, indent);
    if (block !== undefined)
      return splice(text, start, end, end > 0 && text[end - 1] === '\n' ? block : block.replace(/\n$/, ''));
  }
  const inline = formatInlineScalar(
    value,
    style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED' ? 'PLAIN' : style,
    inFlow,
  );
  const trailing = (style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED') && text[end - 1] === '\n' ? '\n' : '';
  return splice(text, start, end, inline + trailing);
}

/** Sets the scalar whose node starts at `range[0]` (a source-map location) to `value`. */
export function setScalarAt(
  text: string,
  range: readonly [number, number],
  value: string | number | boolean | null,
): EditResult {
  for (const doc of parseDocuments(text)) {
    const [docStart, , docEnd] = doc.range;
    if (range[0] < docStart || range[0] > docEnd) continue;
    let found: { node: Scalar; inFlow: boolean } | undefined;
    const walk = (node: unknown, inFlow: boolean): void => {
      if (found) return;
      if (isScalar(node) && node.range?.[0] === range[0]) found = { node, inFlow };
      else if (isMap(node))
        node.items.forEach((pair) => {
          walk(pair.key, true);
          walk(pair.value, inFlow || Boolean(node.flow));
        });
      else if (isSeq(node)) node.items.forEach((item) => walk(item, inFlow || Boolean(node.flow)));
    };
    walk(doc.contents, false);
    if (found)
      return { ok: true, text: rewriteScalar(text, found.node, value, found.inFlow), line: lineOf(text, range[0]) };
    const inside = blockScalarAround(doc.contents, range);
    if (inside) return { ok: true, text: rewriteEmbeddedScalar(text, range, value), line: lineOf(text, range[0]) };
  }
  return { ok: false, reason: `no scalar starts at offset ${range[0]}` };
}

/** The literal block scalar whose text holds `range` (an inline patch: YAML inside a string). */
function blockScalarAround(node: unknown, range: readonly [number, number]): Scalar | undefined {
  if (isScalar(node)) {
    const [start, , end] = node.range ?? [0, 0, 0];
    return node.type === 'BLOCK_LITERAL' && start < range[0] && range[1] <= end ? node : undefined;
  }
  if (isMap(node)) {
    for (const pair of node.items) {
      const found = blockScalarAround(pair.value, range);
      if (found) return found;
    }
  }
  if (isSeq(node)) {
    for (const item of node.items) {
      const found = blockScalarAround(item, range);
      if (found) return found;
    }
  }
  return undefined;
}

/** Rewrites a one-line scalar of YAML embedded in a block scalar, in its own quoting style. */
function rewriteEmbeddedScalar(
  text: string,
  range: readonly [number, number],
  value: string | number | boolean | null,
): string {
  const first = text[range[0]];
  const style: ScalarStyle = first === '"' ? 'QUOTE_DOUBLE' : first === "'" ? 'QUOTE_SINGLE' : 'PLAIN';
  return splice(text, range[0], range[1], formatInlineScalar(value, style, false));
}

/** Replaces the value of the last step (a pair's value or a list item) with a new subtree. */
function replaceAtStep(text: string, step: Step, value: unknown, style: BlockStyle, inFlow: boolean): string {
  const node = step.node;
  if (inFlow || (node && (node as { flow?: boolean }).flow)) {
    if (!node) return text;
    return splice(text, node.range[0], node.range[1], renderFlow(value));
  }
  if (step.pair) {
    const key = step.pair.key;
    const start = key.range[0];
    const column = columnOf(text, start);
    const valueEnd = node ? node.range[1] : key.range[1];
    const end = afterLine(text, valueEnd);
    const lines = renderPair(String((key as Scalar).value), value, column, style);
    lines[0] = lines[0].slice(column);
    const eol = eolOf(text);
    return splice(text, start, end, lines.join(eol) + (end === text.length && !text.endsWith('\n') ? '' : eol));
  }
  const start = node!.range[0];
  const dash = text.lastIndexOf('-', start - 1);
  const column = columnOf(text, dash);
  const end = afterLine(text, node!.range[1]);
  const lines = renderItem(value, column, style);
  const eol = eolOf(text);
  return splice(
    text,
    dash,
    end,
    lines.join(eol).slice(column) + (end === text.length && !text.endsWith('\n') ? '' : eol),
  );
}

function insertPair(
  text: string,
  map: YAMLMap<ParsedNode, ParsedNode | null>,
  key: string,
  value: unknown,
  style: BlockStyle,
): { text: string; at: number } {
  if (map.flow || map.items.length === 0) {
    const close = text.lastIndexOf('}', map.range![1] - 1);
    const entry = `${map.items.length > 0 ? ', ' : ''}${formatKey(key)}: ${renderFlow(value)}`;
    return { text: splice(text, close, close, entry), at: close };
  }
  const first = map.items[0].key;
  const column = columnOf(text, first.range[0]);
  const last = map.items[map.items.length - 1];
  const at = afterLine(text, (last.value ?? last.key).range[1]);
  return { text: insertLines(text, at, renderPair(key, value, column, style)), at };
}

function insertItem(
  text: string,
  seq: YAMLSeq<ParsedNode>,
  item: unknown,
  style: BlockStyle,
): { text: string; at: number } {
  if (seq.flow || seq.items.length === 0) {
    const close = text.lastIndexOf(']', seq.range![1] - 1);
    const entry = `${seq.items.length > 0 ? ', ' : ''}${renderFlow(item)}`;
    return { text: splice(text, close, close, entry), at: close };
  }
  const dash = text.lastIndexOf('-', seq.items[0].range[0] - 1);
  const column = columnOf(text, dash);
  const at = afterLine(text, seq.items[seq.items.length - 1].range[1]);
  return { text: insertLines(text, at, renderItem(item, column, style)), at };
}

/** The value that the path from `segments` creates below a missing point: maps for keys, one item for list segments. */
export function buildValue(segments: readonly PathSegment[], leaf: unknown): unknown {
  if (segments.length === 0) return leaf;
  const [head, ...rest] = segments;
  if (typeof head === 'string') return { [head]: buildValue(rest, leaf) };
  return [buildItem(head, rest, leaf)];
}

function buildItem(segment: PathSegment, rest: readonly PathSegment[], leaf: unknown): unknown {
  const inner = buildValue(rest, leaf);
  if (typeof segment === 'object' && 'key' in segment && (isPlainObject(inner) || inner === undefined))
    return { ...segment.key, ...(inner ?? {}) };
  return inner;
}

/**
 * Sets the value at `segments` in document `documentIndex`: a scalar in place (quoting kept), a
 * subtree replaced in the file's block style, or, when the path leaves the file, the missing key
 * or list item inserted after its siblings at their indentation.
 */
export function setValueAt(
  text: string,
  documentIndex: number,
  segments: readonly PathSegment[],
  value: unknown,
): EditResult {
  const doc = documentAt(text, documentIndex);
  if (typeof doc === 'string') return { ok: false, reason: doc };
  const lookup = locate(doc, segments);
  if (lookup.found && isScalar(lookup.node) && isScalarValue(value)) {
    // The value it already holds: nothing to write (a folded plain scalar keeps its folding).
    if (lookup.node.value === value) return { ok: true, text, line: lineOf(text, lookup.node.range![0]) };
    return {
      ok: true,
      text: rewriteScalar(text, lookup.node, value, lookup.inFlow),
      line: lineOf(text, lookup.node.range![0]),
    };
  }
  const style = detectStyle(text, doc);
  if (lookup.found) {
    const { node } = lookup;
    const step = lookup.steps[lookup.steps.length - 1];
    if (!step) return { ok: false, reason: 'cannot replace a whole document' };
    const start = step.pair ? step.pair.key.range[0] : (node?.range[0] ?? 0);
    return { ok: true, text: replaceAtStep(text, step, value, style, lookup.inFlow), line: lineOf(text, start) };
  }
  const { container, missing } = lookup;
  const segment = segments[missing];
  const rest = segments.slice(missing + 1);
  if (isMap(container) && typeof segment === 'string') {
    const result = insertPair(
      text,
      container as YAMLMap<ParsedNode, ParsedNode | null>,
      segment,
      buildValue(rest, value),
      style,
    );
    return { ok: true, text: result.text, line: lineOf(result.text, result.at) };
  }
  if (isSeq(container) && typeof segment !== 'string') {
    const result = insertItem(text, container as YAMLSeq<ParsedNode>, buildItem(segment, rest, value), style);
    return { ok: true, text: result.text, line: lineOf(result.text, result.at) };
  }
  const step = lookup.steps[lookup.steps.length - 1];
  if ((container === null || (isScalar(container) && container.value === null)) && step) {
    const start = step.pair ? step.pair.key.range[0] : (container?.range[0] ?? 0);
    return {
      ok: true,
      text: replaceAtStep(text, step, buildValue(segments.slice(missing), value), style, lookup.inFlow),
      line: lineOf(text, start),
    };
  }
  return {
    ok: false,
    reason: `${pathText(segments.slice(0, missing)) || 'the document'} is not a ${typeof segment === 'string' ? 'map' : 'list'} in the file, so ${pathText(segments)} cannot be written there`,
  };
}

/** Removes the key or list item at `segments`; a collection left empty is removed with it. */
export function removeValueAt(text: string, documentIndex: number, segments: readonly PathSegment[]): EditResult {
  const doc = documentAt(text, documentIndex);
  if (typeof doc === 'string') return { ok: false, reason: doc };
  const lookup = locate(doc, segments);
  if (!lookup.found) return { ok: true, text, line: 0 };
  const step = lookup.steps[lookup.steps.length - 1];
  if (!step) return { ok: false, reason: 'cannot remove a whole document' };
  if (step.parent.items.length === 1 && segments.length > 1)
    return removeValueAt(text, documentIndex, segments.slice(0, -1));
  if (lookup.inFlow || step.parent.flow) {
    const remaining = step.parent.toJSON() as unknown[] | Record<string, unknown>;
    let rebuilt: unknown;
    if (Array.isArray(remaining)) rebuilt = remaining.filter((_, i) => i !== step.index);
    else rebuilt = Object.fromEntries(Object.entries(remaining).filter(([k]) => k !== segments[segments.length - 1]));
    const [start, end] = step.parent.range!;
    return { ok: true, text: splice(text, start, end, renderFlow(rebuilt)), line: lineOf(text, start) };
  }
  const first = step.pair ? step.pair.key.range[0] : text.lastIndexOf('-', step.node!.range[0] - 1);
  const valueEnd = step.node ? step.node.range[1] : step.pair!.key.range[1];
  const end = afterLine(text, valueEnd);
  const line = lineOf(text, first);
  if (onlyIndentBefore(text, first)) return { ok: true, text: splice(text, lineStart(text, first), end, ''), line };
  // The first key of a list item (`- name: …`): the next key moves up behind the dash.
  const next = step.parent.items[step.index + 1] as { key: ParsedNode } | undefined;
  if (!next) return { ok: false, reason: `cannot remove ${pathText(segments)}: it is the only key of its list item` };
  return { ok: true, text: splice(text, first, next.key.range[0], ''), line };
}

// Byte-exact edits of one YAML document inside a file: set a scalar, replace a subtree, add a
// missing key or keyed-list item, remove a key or item. Each edit splices the source text at the
// node's range; every byte outside the edited node stays as it was, and a subtree set to a new value
// changes only where the values differ.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, type ParsedNode, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import type { PathSegment } from '../model/index.js';
import { isPlainObject } from '../model/index.js';
import { afterLine, lineOf, lineStart, onlyIndentBefore, splice } from './text-offsets.js';
import { formatInlineScalar, isScalarValue, formatKey, type ScalarStyle } from './scalar-format.js';
import { renderFlow, type BlockStyle } from './block-render.js';
import { locate, parseDocuments, pathText, type Lookup, type ParsedDocument, type Step } from './yaml-locate.js';
import { detectStyle } from './yaml-style.js';
import { editNodeMinimally } from './yaml-minimal-edit.js';
import { applySplices, insertSplice, removeSplice, replaceSplice, scalarSplice, type NewEntry } from './yaml-splice.js';

export type EditResult = { ok: true; text: string; line: number } | { ok: false; reason: string };

function documentAt(text: string, index: number): ParsedDocument | string {
  const docs = parseDocuments(text);
  const doc = docs[index];
  if (!doc) return `the file has no YAML document #${index + 1}`;
  if (doc.errors.length > 0) return `the file is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`;
  return doc;
}

/** Rewrites one scalar node's text, keeping its quoting style when the value allows it. */
function rewriteScalar(text: string, node: Scalar, value: string | number | boolean | null, inFlow: boolean): string {
  return applySplices(text, [scalarSplice(text, node, value, inFlow)])!;
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
  return applySplices(text, [replaceSplice(text, step, value, style, inFlow)])!;
}

/** Inserts a map entry or list item after its siblings (in `{}`/`[]` when the collection is empty). */
function insertEntry(
  text: string,
  container: YAMLMap<ParsedNode, ParsedNode | null> | YAMLSeq<ParsedNode>,
  entry: NewEntry,
  style: BlockStyle,
): { text: string; at: number } {
  const inserted = insertSplice(text, container, container.items.length, [entry], style, false);
  if (inserted) return { text: applySplices(text, [inserted])!, at: inserted.start };
  // An empty collection is written `{}` or `[]`: the entry goes inside the brackets.
  const close = text.lastIndexOf(isMap(container) ? '}' : ']', container.range![1] - 1);
  const written =
    entry.key === undefined ? renderFlow(entry.value) : `${formatKey(entry.key)}: ${renderFlow(entry.value)}`;
  return { text: splice(text, close, close, written), at: close };
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
 * or list item inserted after its siblings at their indentation. `flowScalarLists` writes new short
 * lists of scalars on one line (`[a, b]`).
 */
export function setValueAt(
  text: string,
  documentIndex: number,
  segments: readonly PathSegment[],
  value: unknown,
  options: Pick<BlockStyle, 'flowScalarLists'> = {},
): EditResult {
  const doc = documentAt(text, documentIndex);
  if (typeof doc === 'string') return { ok: false, reason: doc };
  const lookup = locate(doc, segments);
  const style = { ...detectStyle(text, doc), ...options };
  if (lookup.found) return replaceFound(text, { doc, documentIndex, segments, style }, lookup, value);
  return insertMissing(text, doc, segments, lookup, value, style);
}

/** The path is in the file: a scalar is rewritten in place, a subtree only where it differs (or whole). */
function replaceFound(
  text: string,
  at: { doc: ParsedDocument; documentIndex: number; segments: readonly PathSegment[]; style: BlockStyle },
  lookup: Extract<Lookup, { found: true }>,
  value: unknown,
): EditResult {
  const { doc, documentIndex, segments, style } = at;
  const { node, inFlow } = lookup;
  if (isScalar(node) && isScalarValue(value)) {
    const line = lineOf(text, node.range![0]);
    // The value it already holds: nothing to write (a folded plain scalar keeps its folding).
    if (node.value === value) return { ok: true, text, line };
    return { ok: true, text: rewriteScalar(text, node, value, inFlow), line };
  }
  const step = lookup.steps[lookup.steps.length - 1];
  if (!step) return { ok: false, reason: 'cannot replace a whole document' };
  // Only what differs is rewritten: equal items, flow collections and comments inside stay as written.
  const minimal = editNodeMinimally(text, doc, step, value, style, inFlow);
  if (minimal && readsBack(minimal.text, documentIndex, segments, value))
    return { ok: true, text: minimal.text, line: lineOf(text, minimal.first) };
  const start = step.pair ? step.pair.key.range[0] : (node?.range[0] ?? 0);
  return { ok: true, text: replaceAtStep(text, step, value, style, inFlow), line: lineOf(text, start) };
}

/**
 * The path leaves the file at `missing`: the key or list item is inserted after its siblings, or an
 * empty (null) value on the way is replaced by what the rest of the path builds.
 */
function insertMissing(
  text: string,
  doc: ParsedDocument,
  segments: readonly PathSegment[],
  lookup: Extract<Lookup, { found: false }>,
  value: unknown,
  style: BlockStyle,
): EditResult {
  const { container, missing } = lookup;
  const segment = segments[missing];
  const rest = segments.slice(missing + 1);
  if (isMap(container) && typeof segment === 'string') {
    const map = container as YAMLMap<ParsedNode, ParsedNode | null>;
    const result = insertEntry(text, map, { key: segment, value: buildValue(rest, value) }, style);
    return { ok: true, text: result.text, line: lineOf(result.text, result.at) };
  }
  if (isSeq(container) && typeof segment !== 'string') {
    const seq = container as YAMLSeq<ParsedNode>;
    const result = insertEntry(text, seq, { value: buildItem(segment, rest, value) }, style);
    return { ok: true, text: result.text, line: lineOf(result.text, result.at) };
  }
  const step = lookup.steps[lookup.steps.length - 1];
  if ((container === null || (isScalar(container) && container.value === null)) && step) {
    const start = step.pair ? step.pair.key.range[0] : (container?.range[0] ?? 0);
    const built = buildValue(segments.slice(missing), value);
    return { ok: true, text: replaceAtStep(text, step, built, style, lookup.inFlow), line: lineOf(text, start) };
  }
  return {
    ok: false,
    reason: `${pathText(segments.slice(0, missing)) || 'the document'} is not a ${typeof segment === 'string' ? 'map' : 'list'} in the file, so ${pathText(segments)} cannot be written there`,
  };
}

/** Whether document `index` of `text` holds exactly `value` at `segments` (a minimal edit is checked before use). */
function readsBack(text: string, index: number, segments: readonly PathSegment[], value: unknown): boolean {
  const doc = parseDocuments(text)[index];
  if (!doc || doc.errors.length > 0) return false;
  const lookup = locate(doc, segments);
  return lookup.found && isDeepStrictEqual(lookup.node === null ? null : lookup.node.toJS(doc), value);
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
    // The entry goes with one comma; when that is not clean, the flow collection is written anew.
    const removed = removeSplice(text, step.parent, step.index, true);
    if (removed) return { ok: true, text: applySplices(text, [removed])!, line: lineOf(text, removed.start) };
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

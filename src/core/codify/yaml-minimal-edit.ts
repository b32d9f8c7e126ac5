// Makes one YAML node hold a new value with the fewest bytes changed: parts that are already equal
// stay as written (flow collections, comments, quoting, blank lines), maps are matched key by key and
// lists item by item, and only the scalars, entries and items that differ are rewritten, inserted or
// removed, each in the style of the collection that holds it. What cannot be matched is replaced whole.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, type ParsedNode, type YAMLMap, type YAMLSeq } from 'yaml';
import { isPlainObject } from '../model/index.js';
import { isScalarValue } from './scalar-format.js';
import type { BlockStyle } from './block-render.js';
import { keyText, type ParsedDocument, type Step } from './yaml-locate.js';
import { applySplices, insertSplice, removeSplice, replaceSplice, scalarSplice, type Splice } from './yaml-splice.js';

interface Context {
  text: string;
  doc: ParsedDocument;
  style: BlockStyle;
}

type Map = YAMLMap<ParsedNode, ParsedNode | null>;
type Seq = YAMLSeq<ParsedNode>;

function jsOf(ctx: Context, node: ParsedNode | null): unknown {
  return node === null ? null : (node.toJS(ctx.doc) as unknown);
}

/** The splices that make the node of `step` hold `value`: in place where it can, else the node replaced whole. */
function splicesFor(ctx: Context, step: Step, value: unknown, inFlow: boolean): Splice[] {
  const node = step.node;
  if (isDeepStrictEqual(jsOf(ctx, node), value)) return [];
  if (isScalar(node) && isScalarValue(value) && node.range) return [scalarSplice(ctx.text, node, value, inFlow)];
  const inner = isMap(node)
    ? matchMap(ctx, node as Map, value, inFlow || Boolean(node.flow))
    : isSeq(node)
      ? matchSeq(ctx, node as Seq, value, inFlow || Boolean(node.flow))
      : undefined;
  return inner ?? [replaceSplice(ctx.text, step, value, ctx.style, inFlow)];
}

/** A map matched key by key; undefined when it shares no key with `value` (it is replaced whole then). */
function matchMap(ctx: Context, map: Map, value: unknown, flow: boolean): Splice[] | undefined {
  if (!isPlainObject(value) || map.items.some((pair) => keyText(pair.key) === undefined)) return undefined;
  const keys = map.items.map((pair) => keyText(pair.key)!);
  if (!keys.some((key) => Object.hasOwn(value, key))) return undefined;
  const splices: Splice[] = [];
  for (let i = 0; i < map.items.length; i++) {
    const pair = map.items[i];
    if (Object.hasOwn(value, keys[i])) {
      splices.push(...splicesFor(ctx, { parent: map, pair, index: i, node: pair.value }, value[keys[i]], flow));
      continue;
    }
    // The first key on a list item's dash line takes the keys removed after it along, up to one that stays.
    let kept = i + 1;
    while (kept < keys.length && !Object.hasOwn(value, keys[kept])) kept++;
    const removed = removeSplice(ctx.text, map, i, flow, kept);
    if (!removed) return undefined;
    splices.push(removed);
    if (removed.end === map.items[kept]?.key.range[0]) i = kept - 1;
  }
  const added = Object.entries(value).filter(([key]) => !keys.includes(key));
  if (added.length > 0) {
    const entries = added.map(([key, item]) => ({ key, value: item }));
    const inserted = insertSplice(ctx.text, map, map.items.length, entries, ctx.style, flow);
    if (!inserted) return undefined;
    splices.push(inserted);
  }
  return applySplices(ctx.text, splices) === undefined ? undefined : splices;
}

/**
 * A list matched item by item: equal items at both ends stay, the rest are paired by position, and
 * what is left over is inserted or removed where it stands. undefined when either list is empty.
 */
function matchSeq(ctx: Context, seq: Seq, value: unknown, flow: boolean): Splice[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || seq.items.length === 0) return undefined;
  const old = seq.items.map((item) => jsOf(ctx, item));
  let head = 0;
  while (head < old.length && head < value.length && isDeepStrictEqual(old[head], value[head])) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < value.length - head &&
    isDeepStrictEqual(old[old.length - 1 - tail], value[value.length - 1 - tail])
  )
    tail++;
  const oldEnd = old.length - tail;
  const newEnd = value.length - tail;
  const paired = Math.min(oldEnd - head, newEnd - head);
  const splices: Splice[] = [];
  for (let i = head; i < head + paired; i++)
    splices.push(...splicesFor(ctx, { parent: seq, index: i, node: seq.items[i] }, value[i], flow));
  if (newEnd - head > paired) {
    const entries = value.slice(head + paired, newEnd).map((item: unknown) => ({ value: item }));
    const inserted = insertSplice(ctx.text, seq, oldEnd, entries, ctx.style, flow);
    if (!inserted) return undefined;
    splices.push(inserted);
  }
  for (let i = head + paired; i < oldEnd; i++) {
    const removed = removeSplice(ctx.text, seq, i, flow);
    if (!removed) return undefined;
    splices.push(removed);
  }
  return applySplices(ctx.text, splices) === undefined ? undefined : splices;
}

/**
 * The text with the node of `step` holding `value`, changed only where the values differ; undefined
 * when the splices would overlap (the caller replaces the node whole).
 */
export function editNodeMinimally(
  text: string,
  doc: ParsedDocument,
  step: Step,
  value: unknown,
  style: BlockStyle,
  inFlow: boolean,
): { text: string; first: number } | undefined {
  const splices = splicesFor({ text, doc, style }, step, value, inFlow);
  const edited = applySplices(text, splices);
  if (edited === undefined) return undefined;
  const first = splices.length > 0 ? Math.min(...splices.map((splice) => splice.start)) : (step.node?.range[0] ?? 0);
  return { text: edited, first };
}

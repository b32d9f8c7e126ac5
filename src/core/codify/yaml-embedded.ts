// A value set inside YAML text that a literal block scalar holds (an Argo CD `helm.values`, a ConfigMap's
// `values.yaml` key): the embedded text is taken out of the block (its indentation removed), edited as a
// YAML document of its own with the byte-exact editor, and put back at the block's indentation. Only the
// lines the edit changed are written again; the header (`|`, `|-`, a comment) and every other line of the
// file stay byte for byte.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parse, type Scalar } from 'yaml';
import type { PathSegment } from '../model/index.js';
import { lineOf } from './text-offsets.js';
import { parseDocuments } from './yaml-locate.js';
import { setValueAt, type EditResult } from './yaml-edit.js';

/** The scalar node that starts at `start`, in any document of the text. */
function scalarAt(text: string, start: number): Scalar | undefined {
  let found: Scalar | undefined;
  const walk = (node: unknown): void => {
    if (found) return;
    if (isScalar(node) && node.range?.[0] === start) found = node;
    else if (isMap(node))
      node.items.forEach((pair) => {
        walk(pair.key);
        walk(pair.value);
      });
    else if (isSeq(node)) node.items.forEach(walk);
  };
  for (const doc of parseDocuments(text)) walk(doc.contents);
  return found;
}

interface Block {
  /** Offset of the first content line. */
  start: number;
  /** The content lines as written (the last one is empty when the block ends with a line break). */
  lines: string[];
  indent: number;
}

function blockAt(text: string, start: number): Block | string {
  const node = scalarAt(text, start);
  if (!node) return `no value starts at offset ${start}`;
  if (node.type !== 'BLOCK_LITERAL' || typeof node.value !== 'string')
    return 'the values text is not a literal block scalar (|), so it is not edited';
  const headerEnd = text.indexOf('\n', start);
  const header = text.slice(start, headerEnd < 0 ? text.length : headerEnd).replace(/\s+#.*$/, '');
  if (/\d/.test(header)) return 'the values text has an indentation indicator, so it is not edited';
  const body = text.slice(headerEnd + 1, Math.max(headerEnd + 1, node.range![1]));
  const lines = body.split('\n');
  const first = lines.find((line) => line.trim() !== '');
  const indent = first === undefined ? 0 : first.length - first.trimStart().length;
  return { start: headerEnd + 1, lines, indent };
}

/** The embedded text with the block's indentation removed; undefined when a line is less indented. */
function dedent(block: Block): string[] | undefined {
  const out: string[] = [];
  for (const line of block.lines) {
    if (line.trim() === '' && line.length < block.indent) out.push('');
    else if (line.slice(0, block.indent).trim() !== '') return undefined;
    else out.push(line.slice(block.indent));
  }
  return out;
}

/** The block's lines with only the changed run of `after` (from `before`) written again, indented. */
function reembed(block: Block, before: string[], after: string[]): { lines: string[]; first: number } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const middle = after.slice(head, after.length - tail).map((l) => (l === '' ? '' : ' '.repeat(block.indent) + l));
  const lines = [...block.lines.slice(0, head), ...middle, ...block.lines.slice(block.lines.length - tail)];
  return { lines, first: head };
}

/**
 * Sets `value` at `segments` of the YAML text held by the literal block scalar that starts at
 * `range[0]` (a source-map location of `text`).
 */
export function setEmbeddedValueAt(
  text: string,
  range: readonly [number, number],
  segments: readonly PathSegment[],
  value: unknown,
): EditResult {
  const block = blockAt(text, range[0]);
  if (typeof block === 'string') return { ok: false, reason: block };
  const inner = dedent(block);
  if (!inner) return { ok: false, reason: 'the values text is not indented evenly, so it is not edited' };
  const edited = setValueAt(inner.join('\n'), 0, segments, value);
  if (!edited.ok) return { ok: false, reason: `in the values text: ${edited.reason}` };
  const { lines, first } = reembed(block, inner, edited.text.split('\n'));
  const end = block.start + block.lines.join('\n').length;
  const out = text.slice(0, block.start) + lines.join('\n') + text.slice(end);
  // What the block reads back must be exactly the edited text's values.
  const back = scalarAt(out, range[0]);
  if (typeof back?.value !== 'string' || !isDeepStrictEqual(parse(back.value), parse(edited.text)))
    return { ok: false, reason: 'the edited values text would not read back as written' };
  return { ok: true, text: out, line: lineOf(out, block.start) + first };
}

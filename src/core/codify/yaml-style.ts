// Reads a document's own block style (map indentation, whether `- ` items sit under their key or
// are indented) so that new keys and items look like their neighbours.
import { isMap, isPair, isSeq, visit } from 'yaml';
import type { ParsedDocument } from './yaml-locate.js';
import { columnOf } from './text-offsets.js';
import { DEFAULT_BLOCK_STYLE, type BlockStyle } from './block-render.js';

export function detectStyle(text: string, doc: ParsedDocument): BlockStyle {
  let indent: number | undefined;
  let flushSequences: boolean | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (!isPair(pair) || !pair.key || !pair.value) return;
      const keyRange = (pair.key as { range?: number[] }).range;
      const value = pair.value as { range?: number[]; flow?: boolean };
      if (!keyRange || !value.range || value.flow) return;
      const keyColumn = columnOf(text, keyRange[0]);
      if (indent === undefined && isMap(pair.value) && pair.value.items.length > 0) {
        const childRange = (pair.value.items[0].key as { range?: number[] }).range;
        if (childRange) {
          const step = columnOf(text, childRange[0]) - keyColumn;
          if (step > 0) indent = step;
        }
      }
      if (flushSequences === undefined && isSeq(pair.value) && pair.value.items.length > 0) {
        const first = (pair.value.items[0] as { range?: number[] }).range;
        if (first) {
          const dash = text.lastIndexOf('-', first[0] - 1);
          if (dash >= 0) flushSequences = columnOf(text, dash) === keyColumn;
        }
      }
      if (indent !== undefined && flushSequences !== undefined) return visit.BREAK;
    },
  });
  return {
    indent: indent ?? DEFAULT_BLOCK_STYLE.indent,
    flushSequences: flushSequences ?? DEFAULT_BLOCK_STYLE.flushSequences,
  };
}

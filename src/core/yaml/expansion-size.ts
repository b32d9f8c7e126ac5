// How big a parsed YAML document becomes once its aliases are expanded, counted on the composed
// document without building anything. yaml's own `maxAliasCount` counts alias references (weighted
// by the aliases inside each anchor), so 100 aliases of one anchored list of 300,000 items pass it
// and expand to 30 million nodes: a 1 MiB file that runs the process out of memory. Counting the
// nodes an expansion produces, with each anchored node's size computed once, bounds what matters.
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';

/** Nodes aliases may add to one document (beyond the nodes written in it). Default 100,000. */
export const MAX_ALIAS_NODES = 100_000;

export interface ExpansionSize {
  /** Nodes as written (an alias counts as one). */
  written: number;
  /** Nodes once every alias is replaced by what it names; saturates just past `limit`. */
  expanded: number;
}

/** Counts without recursing into an anchor twice; `limit` stops the count early (a bomb's size is never reached). */
export function expansionSize(doc: Document, limit = Number.MAX_SAFE_INTEGER): ExpansionSize {
  const sizes = new Map<Node, number>();
  let written = 0;
  const size = (node: unknown, viaAlias: boolean): number => {
    if (isAlias(node)) {
      if (!viaAlias) written += 1;
      const target = node.resolve(doc);
      return target ? size(target, true) : 1;
    }
    const known = sizes.get(node as Node);
    if (known !== undefined) return known;
    if (!viaAlias) written += 1;
    let total = 1;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        total += pair.key === null ? 0 : size(pair.key, viaAlias);
        total += pair.value === null ? 0 : size(pair.value, viaAlias);
        if (total > limit) break;
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        total += size(item, viaAlias);
        if (total > limit) break;
      }
    } else if (!isScalar(node)) {
      return 1;
    }
    total = Math.min(total, limit + 1);
    sizes.set(node as Node, total);
    return total;
  };
  const expanded = doc.contents ? size(doc.contents, false) : 0;
  return { written, expanded };
}

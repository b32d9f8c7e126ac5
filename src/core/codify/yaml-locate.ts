// Finds the node a change points at inside one YAML document of a file: map keys by name,
// keyed-list items by their merge keys (containers by name, ports by containerPort+protocol),
// other items by index. Stops where the path leaves the file, so an `add` knows where to insert.
import {
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Document,
  type Pair,
  type ParsedNode,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import type { PathSegment } from '../model/index.js';
import { keyFieldDefault } from '../k8s/index.js';

export interface Step {
  parent: YAMLMap<ParsedNode, ParsedNode | null> | YAMLSeq<ParsedNode>;
  /** The pair when the parent is a map. */
  pair?: Pair<ParsedNode, ParsedNode | null>;
  index: number;
  node: ParsedNode | null;
}

export type Lookup =
  | { found: true; steps: Step[]; node: ParsedNode | null; inFlow: boolean }
  /** `container` is the deepest node that exists; `missing` the index of the first segment not in the file. */
  | { found: false; steps: Step[]; container: ParsedNode | null; missing: number; inFlow: boolean };

export type ParsedDocument = Document.Parsed;

/** Every document of a file, empty ones included, with node ranges. */
export function parseDocuments(text: string): ParsedDocument[] {
  return parseAllDocuments(text) as unknown as ParsedDocument[];
}

export function keyText(node: unknown): string | undefined {
  return isScalar(node) ? String(node.value) : undefined;
}

export function itemMatches(item: unknown, segment: PathSegment): boolean {
  if (typeof segment !== 'object' || !('key' in segment)) return false;
  if (!isMap(item)) return false;
  return Object.entries(segment.key).every(([field, expected]) => {
    const pair = item.items.find((p) => keyText(p.key) === field);
    // A key field the item leaves out has the server's default (a port without protocol is TCP).
    if (!pair) return keyFieldDefault(field) === String(expected);
    return isScalar(pair.value) && String(pair.value.value) === String(expected);
  });
}

function itemIndex(seq: YAMLSeq<ParsedNode>, segment: PathSegment): number {
  if (typeof segment === 'object' && 'index' in segment) return segment.index < seq.items.length ? segment.index : -1;
  if (typeof segment === 'string')
    return /^\d+$/.test(segment) && Number(segment) < seq.items.length ? Number(segment) : -1;
  return seq.items.findIndex((item) => itemMatches(item, segment));
}

export function locate(doc: ParsedDocument, segments: readonly PathSegment[]): Lookup {
  let node = doc.contents as ParsedNode | null;
  const steps: Step[] = [];
  let inFlow = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (isMap(node) && typeof segment === 'string') {
      const map = node as YAMLMap<ParsedNode, ParsedNode | null>;
      inFlow ||= Boolean(map.flow);
      const index = map.items.findIndex((pair) => keyText(pair.key) === segment);
      if (index < 0) return { found: false, steps, container: node, missing: i, inFlow };
      const pair = map.items[index];
      steps.push({ parent: map, pair, index, node: pair.value });
      node = pair.value;
    } else if (isSeq(node)) {
      const seq = node as YAMLSeq<ParsedNode>;
      inFlow ||= Boolean(seq.flow);
      const index = itemIndex(seq, segment);
      if (index < 0) return { found: false, steps, container: node, missing: i, inFlow };
      steps.push({ parent: seq, index, node: seq.items[index] });
      node = seq.items[index];
    } else {
      return { found: false, steps, container: node, missing: i, inFlow };
    }
  }
  return { found: true, steps, node, inFlow };
}

export function segmentText(segment: PathSegment): string {
  if (typeof segment === 'string') return segment;
  if ('index' in segment) return `[${segment.index}]`;
  return `[${Object.entries(segment.key)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')}]`;
}

export function pathText(segments: readonly PathSegment[]): string {
  return segments.map(segmentText).join('.').replace(/\.\[/g, '[');
}

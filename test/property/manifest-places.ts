// Every editable place in the fixture repositories' manifests: scalars (with their byte range) and
// block-map keys, for the codify round-trip properties.
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { PathSegment } from '../../src/core/model/index.js';
import { readFixtureTree } from '../support/fixtures.js';

export interface ScalarPlace {
  file: string;
  text: string;
  document: number;
  segments: PathSegment[];
  range: [number, number];
  value: unknown;
}

export interface KeyPlace {
  file: string;
  text: string;
  document: number;
  segments: PathSegment[];
}

/** A map or list node: its value, whether it is written in flow style, and the single-line scalars inside it. */
export interface CollectionPlace {
  file: string;
  text: string;
  document: number;
  segments: PathSegment[];
  value: unknown;
  flow: boolean;
  range: [number, number];
  /** Scalars on one line inside it, by path relative to it, with their byte ranges. */
  leaves: Array<{ path: PathSegment[]; range: [number, number] }>;
  /** For a list: each item's byte range. */
  items: Array<[number, number]>;
}

export const MANIFEST_FILES = [...readFixtureTree('manifests')].filter(([path]) => /\.ya?ml$/.test(path));

export function collectPlaces(): { scalars: ScalarPlace[]; keys: KeyPlace[] } {
  const scalars: ScalarPlace[] = [];
  const keys: KeyPlace[] = [];
  for (const [file, text] of MANIFEST_FILES) {
    parseAllDocuments(text).forEach((doc, document) => {
      if (doc.errors.length > 0) return;
      const walk = (node: Node | null, segments: PathSegment[], inFlow: boolean): void => {
        if (isScalar(node) && node.range && segments.length > 0) {
          scalars.push({ file, text, document, segments, range: [node.range[0], node.range[1]], value: node.value });
        } else if (isMap(node)) {
          for (const pair of node.items) {
            if (!isScalar(pair.key)) continue;
            const path = [...segments, String(pair.key.value)];
            if (!inFlow && !node.flow) keys.push({ file, text, document, segments: path });
            walk(pair.value as Node | null, path, inFlow || Boolean(node.flow));
          }
        } else if (isSeq(node)) {
          node.items.forEach((item, index) =>
            walk(item as Node | null, [...segments, { index }], inFlow || Boolean(node.flow)),
          );
        }
      };
      walk(doc.contents as Node | null, [], false);
    });
  }
  return { scalars, keys };
}

/** The [start, end) range of the original text that differs from `after` (common prefix and suffix cut). */
export function changedRange(before: string, after: string): [number, number] | undefined {
  if (before === after) return undefined;
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  return [start, before.length - end];
}

/** Byte offsets of the start of each YAML document in a file (`---` lines), plus the end. */
export function documentBounds(text: string): number[] {
  const docs = parseAllDocuments(text);
  return [...docs.map((doc) => doc.range[0]), text.length];
}

function leavesOf(text: string, node: Node | null, path: PathSegment[]): CollectionPlace['leaves'] {
  if (isScalar(node) && node.range && !text.slice(node.range[0], node.range[1]).includes('\n'))
    return [{ path, range: [node.range[0], node.range[1]] }];
  if (isMap(node))
    return node.items.flatMap((pair) =>
      isScalar(pair.key) ? leavesOf(text, pair.value as Node | null, [...path, String(pair.key.value)]) : [],
    );
  if (isSeq(node))
    return node.items.flatMap((item, index) => leavesOf(text, item as Node | null, [...path, { index }]));
  return [];
}

/** Every map and list of every document (block and flow), with what is inside it. */
export function collectCollections(): CollectionPlace[] {
  const places: CollectionPlace[] = [];
  for (const [file, text] of MANIFEST_FILES) {
    parseAllDocuments(text).forEach((doc, document) => {
      if (doc.errors.length > 0) return;
      const walk = (node: Node | null, segments: PathSegment[], inFlow: boolean): void => {
        if (!isMap(node) && !isSeq(node)) return;
        const flow = inFlow || Boolean(node.flow);
        if (segments.length > 0 && node.range)
          places.push({
            file,
            text,
            document,
            segments,
            value: node.toJS(doc) as unknown,
            flow,
            range: [node.range[0], node.range[1]],
            leaves: leavesOf(text, node, []),
            items: isSeq(node) ? node.items.map((item) => [(item as Node).range![0], (item as Node).range![1]]) : [],
          });
        if (isMap(node)) {
          for (const pair of node.items)
            if (isScalar(pair.key)) walk(pair.value as Node | null, [...segments, String(pair.key.value)], flow);
        } else node.items.forEach((item, index) => walk(item as Node | null, [...segments, { index }], flow));
      };
      walk(doc.contents as Node | null, [], false);
    });
  }
  return places;
}

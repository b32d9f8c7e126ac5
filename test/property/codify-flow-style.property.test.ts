// Codify touches only the lines of the change, on every map and list of the fixture repositories —
// Argo Rollouts' canary steps (`- pause: {duration: 40s}`), Job containers with `command: [sh, -c]`,
// a Pod written entirely in flow style with trailing commas: a whole subtree set to a copy with one
// value changed rewrites that value's line only, and an item added to or removed from a list changes
// nothing outside that list (block lists only gain or lose lines). Flow collections, comments, quoting
// and blank lines elsewhere stay byte-for-byte.
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { setValueAt } from '../../src/core/codify/index.js';
import type { PathSegment } from '../../src/core/model/index.js';
import { collectCollections, type CollectionPlace } from './manifest-places.js';

const collections = collectCollections();
const withLeaves = collections.filter((place) => place.leaves.length > 0);
const lists = collections.filter((place) => place.items.length >= 2);

const newValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('yes', '0755', '--flag', '-c', 'a: b', '#x', '', 'x, y', '{a}', '[b]', 'multi\nline', "it's"),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

function withValue(root: unknown, path: readonly PathSegment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const index = (head as { index: number }).index;
    return root.map((item, i) => (i === index ? withValue(item, rest, value) : item));
  }
  const map = root as Record<string, unknown>;
  return { ...map, [head as string]: withValue(map[head as string], rest, value) };
}

function expectedDocuments(place: CollectionPlace, value: unknown): unknown[] {
  const docs = parseAllDocuments(place.text).map((doc) => doc.toJS() as unknown);
  docs[place.document] = withValue(docs[place.document], place.segments, value);
  return docs;
}

/** The whole lines a range covers (a node's range may end just after its last newline). */
function lineBounds(text: string, range: [number, number]): [number, number] {
  const start = text.lastIndexOf('\n', range[0] - 1) + 1;
  if (range[1] > 0 && text[range[1] - 1] === '\n') return [start, range[1]];
  const newline = text.indexOf('\n', range[1]);
  return [start, newline < 0 ? text.length : newline + 1];
}

/** Every byte before `start` and after `end` of the original is still there, in place. */
function expectOnlyBetween(before: string, after: string, [start, end]: [number, number]): void {
  expect(after.slice(0, start)).toBe(before.slice(0, start));
  expect(after.slice(after.length - (before.length - end))).toBe(before.slice(end));
}

describe('codify keeps flow style, comments and quoting outside the change', () => {
  it(`has collections to edit, flow ones among them, in the fixtures`, () => {
    expect(withLeaves.length).toBeGreaterThan(500);
    expect(collections.filter((place) => place.flow).length).toBeGreaterThan(20);
    expect(lists.filter((place) => place.flow).length).toBeGreaterThanOrEqual(3);
  });

  it("a subtree set to a copy with one value changed changes bytes only on that value's line", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...withLeaves).chain((place) => fc.tuple(fc.constant(place), fc.constantFrom(...place.leaves))),
        newValue,
        ([place, leaf], value) => {
          const next = withValue(place.value, leaf.path, value);
          const result = setValueAt(place.text, place.document, place.segments, next);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(parseAllDocuments(result.text).map((doc) => doc.toJS())).toEqual(expectedDocuments(place, next));
          expectOnlyBetween(place.text, result.text, lineBounds(place.text, leaf.range));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('an item removed from or added to a list changes nothing outside that list', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...lists)
          .chain((place) => fc.tuple(fc.constant(place), fc.nat(place.items.length - 1), fc.boolean(), newValue)),
        ([place, index, remove, item]) => {
          const list = place.value as unknown[];
          const next = remove
            ? list.filter((_, i) => i !== index)
            : [...list.slice(0, index), item, ...list.slice(index)];
          const result = setValueAt(place.text, place.document, place.segments, next);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(parseAllDocuments(result.text).map((doc) => doc.toJS())).toEqual(expectedDocuments(place, next));
          expectOnlyBetween(place.text, result.text, place.flow ? place.range : lineBounds(place.text, place.range));
          if (remove && !place.flow) {
            // A block item's own lines go, and nothing else.
            const [itemStart, itemEnd] = lineBounds(place.text, place.items[index]);
            expect(result.text).toBe(place.text.slice(0, itemStart) + place.text.slice(itemEnd));
          }
        },
      ),
      { numRuns: 600 },
    );
  });
});

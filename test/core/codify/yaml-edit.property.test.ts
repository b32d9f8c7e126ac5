// Properties of the byte-exact edits over every manifest in the fixture repositories: a random
// scalar set to a random value changes only its own line, and the file reads back as exactly the
// intended objects; a key added to a random block map only adds lines.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import { setValueAt } from '../../../src/core/codify/yaml-edit.js';
import type { PathSegment } from '../../../src/core/model/index.js';
import { readFixtureTree } from '../../support/fixtures.js';
import { changedLines, setIn } from './support.js';

interface Place {
  file: string;
  text: string;
  document: number;
  segments: PathSegment[];
  line: number;
}

const FILES = [...readFixtureTree('manifests')].filter(([path]) => /\.ya?ml$/.test(path));

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** Every single-line scalar value and every non-empty block map of every document. */
function places(): { scalars: Place[]; maps: Place[] } {
  const scalars: Place[] = [];
  const maps: Place[] = [];
  for (const [file, text] of FILES) {
    parseAllDocuments(text).forEach((doc, document) => {
      const walk = (node: Node | null, segments: PathSegment[]): void => {
        if (
          isScalar(node) &&
          node.range &&
          segments.length > 0 &&
          !text.slice(node.range[0], node.range[1]).includes('\n')
        ) {
          scalars.push({ file, text, document, segments, line: lineOf(text, node.range[0]) });
        } else if (isMap(node)) {
          if (!node.flow && node.items.length > 0) maps.push({ file, text, document, segments, line: 0 });
          for (const pair of node.items)
            if (isScalar(pair.key)) walk(pair.value as Node | null, [...segments, String(pair.key.value)]);
        } else if (isSeq(node)) {
          node.items.forEach((item, index) => walk(item as Node | null, [...segments, { index }]));
        }
      };
      walk(doc.contents as Node | null, []);
    });
  }
  return { scalars, maps };
}

const { scalars, maps } = places();

const TRICKY = [
  'yes',
  'no',
  'on',
  'off',
  'y',
  'N',
  '1.0',
  '0755',
  '0x1F',
  '1:20',
  '~',
  'null',
  'true',
  '- x',
  'a: b',
  '#c',
  'x #y',
  '*a',
  '&a',
  '!t',
  '@x',
  '`x',
  '"q"',
  "'q'",
  '{a}',
  '[a]',
  '',
  ' lead',
  'trail ',
  'multi\nline',
  'tab\there',
  '%x',
  '? q',
  ': x',
  '>-',
  '|',
];
const scalarValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(...TRICKY),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);

function expectedDocuments(place: Place, value: unknown): unknown[] {
  const docs = parseAllDocuments(place.text).map((doc) => doc.toJS());
  const target = docs[place.document] as Record<string, unknown>;
  setIn(target, place.segments, value);
  return docs;
}

describe('byte-exact edit properties on the fixture manifests', () => {
  it(`finds scalars and maps to edit in ${FILES.length} files`, () => {
    expect(FILES.length).toBeGreaterThan(20);
    expect(scalars.length).toBeGreaterThan(500);
  });

  it('a scalar set to any value changes only its own line and reads back as intended', () => {
    fc.assert(
      fc.property(fc.constantFrom(...scalars), scalarValue, (place, value) => {
        const result = setValueAt(place.text, place.document, place.segments, value);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const { removed, added } = changedLines(place.text, result.text);
        const original = place.text.split('\n')[place.line - 1];
        if (removed.length > 0 || added.length > 0) {
          expect(removed).toEqual([original]);
          expect(added).toHaveLength(1);
          expect(result.line).toBe(place.line);
        }
        expect(parseAllDocuments(result.text).map((doc) => doc.toJS())).toEqual(expectedDocuments(place, value));
      }),
      { numRuns: 1000 },
    );
  });

  it('a key added to any block map only adds lines and reads back as intended', () => {
    const key = fc
      .stringMatching(/^[a-z][a-zA-Z0-9]{0,12}$/)
      .filter((k) => !['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null'].includes(k));
    const value = fc.oneof(
      scalarValue,
      fc.dictionary(fc.stringMatching(/^[a-z]{1,8}z$/), scalarValue, { minKeys: 1, maxKeys: 3 }),
      fc.array(scalarValue, { minLength: 1, maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...maps), key, value, (place, name, newValue) => {
        const current = parseAllDocuments(place.text)[place.document].getIn(
          place.segments.map((s) => (typeof s === 'string' ? s : (s as { index: number }).index)),
        );
        fc.pre(isMap(current) && !current.has(name));
        const segments = [...place.segments, name];
        const result = setValueAt(place.text, place.document, segments, newValue);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        // A file without a final newline gains one when a key is added after its last line: that line's
        // text stays, only its missing line end is added.
        const ended = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
        expect(changedLines(ended(place.text), ended(result.text)).removed).toEqual([]);
        expect(parseAllDocuments(result.text).map((doc) => doc.toJS())).toEqual(
          expectedDocuments({ ...place, segments }, newValue),
        );
      }),
      { numRuns: 1000 },
    );
  });
});

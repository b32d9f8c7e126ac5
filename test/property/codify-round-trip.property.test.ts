// Codify's byte-exact edits on every manifest of the fixture repositories: an edit changes bytes
// only inside the node it targets (its line for a scalar), every other document of the file stays
// byte-identical, and writing a value a field already holds changes nothing.
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { removeValueAt, setValueAt } from '../../src/core/codify/index.js';
import { changedRange, collectPlaces, documentBounds, MANIFEST_FILES } from './manifest-places.js';

const { scalars, keys } = collectPlaces();

const newValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    'yes',
    'off',
    '0755',
    '1.10',
    'a: b',
    '#x',
    '*ref',
    '- item',
    '',
    ' padded ',
    'multi\nline',
    '"quoted"',
    "it's",
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

function lineBounds(text: string, range: [number, number]): [number, number] {
  const start = text.lastIndexOf('\n', range[0] - 1) + 1;
  const newline = text.indexOf('\n', range[1]);
  return [start, newline < 0 ? text.length : newline + 1];
}

describe('codify byte-exact edits on the fixture manifests', () => {
  it(`has places to edit in ${MANIFEST_FILES.length} files`, () => {
    expect(scalars.length).toBeGreaterThan(500);
    expect(keys.length).toBeGreaterThan(500);
  });

  it("a scalar set to any value changes bytes only on that scalar's lines", () => {
    fc.assert(
      fc.property(fc.constantFrom(...scalars), newValue, (place, value) => {
        const result = setValueAt(place.text, place.document, place.segments, value);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const changed = changedRange(place.text, result.text);
        if (!changed) return;
        const [lineStart, lineEnd] = lineBounds(place.text, place.range);
        expect(changed[0]).toBeGreaterThanOrEqual(lineStart);
        expect(changed[1]).toBeLessThanOrEqual(lineEnd);
        expect(result.text.slice(0, lineStart)).toBe(place.text.slice(0, lineStart));
        expect(result.text.slice(result.text.length - (place.text.length - lineEnd))).toBe(place.text.slice(lineEnd));
      }),
      { numRuns: 2000 },
    );
  });

  it('writing the value a scalar already holds is a byte-for-byte no-op', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ...scalars.filter(
            (place) => ['string', 'number', 'boolean'].includes(typeof place.value) || place.value === null,
          ),
        ),
        (place) => {
          const result = setValueAt(place.text, place.document, place.segments, place.value);
          expect(result).toMatchObject({ ok: true, text: place.text });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('removing any block-map key leaves every other document byte-identical and the rest of its own document intact', () => {
    fc.assert(
      fc.property(fc.constantFrom(...keys), (place) => {
        const result = removeValueAt(place.text, place.document, place.segments);
        if (!result.ok) {
          expect(result.reason).toMatch(/cannot remove/);
          return;
        }
        const bounds = documentBounds(place.text);
        const changed = changedRange(place.text, result.text);
        expect(changed).toBeDefined();
        // Only the target document's byte span may change, so every other document is byte-identical.
        expect(changed![0]).toBeGreaterThanOrEqual(bounds[place.document]);
        expect(changed![1]).toBeLessThanOrEqual(bounds[place.document + 1]);
        const after = parseAllDocuments(result.text)[place.document].getIn(
          place.segments.map((s) => (typeof s === 'string' ? s : (s as { index: number }).index)),
        );
        expect(after).toBeUndefined();
      }),
      { numRuns: 800 },
    );
  });
});

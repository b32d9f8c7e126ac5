// The comment size budget on any input: every part of a split body fits its limit together with the
// marker the App appends, every part closes its code fences and <details>, and nothing is lost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GITHUB_BODY_LIMIT,
  isBalanced,
  MARKER_RESERVE,
  splitComment,
  withMarker,
} from '../../src/core/report/index.js';

const line = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 120 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 500, maxLength: 3000 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '```',
      '```diff',
      '````yaml',
      '~~~',
      '<details>',
      '<details><summary>Deployment/checkout/api</summary>',
      '</details>',
      '',
    ),
  },
);
/** Documents as the renderers produce them: every fence and <details> opened is closed. */
const balancedDocument = fc
  .array(
    fc.oneof(
      fc
        .array(line, { maxLength: 20 })
        .map((lines) => lines.filter((l) => !/^\s*(`{3,}|~{3,})|<\/?details/.test(l)).join('\n')),
      fc
        .array(fc.string({ maxLength: 200 }), { maxLength: 40 })
        .map((lines) => ['```diff', ...lines.map((l) => l.replace(/^\s*[`~]+/, '')), '```'].join('\n')),
      fc
        .array(fc.string({ maxLength: 200 }), { maxLength: 20 })
        .map((lines) =>
          [
            '<details><summary>more</summary>',
            '',
            ...lines.map((l) => l.replace(/<\/?details|^\s*[`~]{3,}/g, '')),
            '</details>',
          ].join('\n'),
        ),
    ),
    { maxLength: 30 },
  )
  .map((blocks) => blocks.join('\n\n'));

describe('report size budget', () => {
  it('every part fits the limit with room for the marker, and a balanced body splits into balanced parts', () => {
    fc.assert(
      fc.property(balancedDocument, fc.integer({ min: 1_000, max: 20_000 }), (body, limit) => {
        expect(isBalanced(body)).toBe(true);
        const parts = splitComment(body, limit - MARKER_RESERVE);
        for (const [index, part] of parts.entries()) {
          expect(withMarker(`plan/prod-eu/part-${index + 1}`, part).length).toBeLessThanOrEqual(limit);
          expect(isBalanced(part)).toBe(true);
        }
        if (parts.length === 1) expect(parts[0]).toBe(body);
      }),
      { numRuns: 1000 },
    );
  });

  it("any text at all (unbalanced too) is split into parts within GitHub's limit, each balanced, none empty", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 200 }).map((lines) => lines.join('\n')),
        fc.integer({ min: 300, max: 5_000 }),
        (body, limit) => {
          const parts = splitComment(body, limit);
          expect(parts.length).toBeGreaterThan(0);
          for (const part of parts) {
            expect(part.length).toBeLessThanOrEqual(Math.min(limit, GITHUB_BODY_LIMIT));
            if (parts.length > 1) expect(isBalanced(part)).toBe(true);
          }
          // Nothing is lost: every non-empty line of the body appears in some part (long lines in pieces).
          const joined = parts.join('\n');
          for (const text of body.split('\n'))
            if (text.length > 0 && text.length < limit / 4) expect(joined).toContain(text);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

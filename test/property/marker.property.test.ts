// Hidden markers, as the report module writes them and as the GitHub edge reads them back: any key
// and body round-trip, the hash follows the body, and text inside a body (a live value, a manifest
// line quoted in a code block) can never pass for the App's own marker.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bodyWithoutMarker,
  contentHash,
  isUnchanged,
  markerKey,
  markerOf,
  withMarker,
} from '../../src/core/report/index.js';
import { markerFor, readMarkers, stampMarker } from '../../src/github/index.js';
import { sameContent } from '../../src/github/marker.js';

const anyKey = fc.string({ maxLength: 60 });
const safeKey = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9:/._-]{0,40}$/);
const fakeMarker = fc
  .tuple(safeKey, fc.stringMatching(/^[0-9a-f]{16}$/))
  .map(([key, hash]) => `<!-- driftback:${key} hash:${hash} -->`);
const body = fc
  .array(fc.oneof(fc.string(), fakeMarker, fc.constantFrom('```', '<details>', '</details>', '')), { maxLength: 30 })
  .map((parts) => parts.join('\n'));

describe('report markers (core)', () => {
  it('any key is made marker-safe, and the marker round-trips key, hash and body', () => {
    fc.assert(
      fc.property(anyKey, body, (key, text) => {
        const marked = withMarker(key, text);
        expect(markerOf(marked)).toEqual({ key: markerKey(key), hash: contentHash(text) });
        expect(bodyWithoutMarker(marked)).toBe(text);
        expect(isUnchanged(marked, key, text)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('a marker-safe key is kept as it is; two different safe keys never collide', () => {
    fc.assert(
      fc.property(safeKey, safeKey, (a, b) => {
        expect(markerKey(a)).toBe(a);
        if (a !== b) expect(markerKey(a)).not.toBe(markerKey(b));
      }),
      { numRuns: 500 },
    );
  });
});

describe('GitHub edge markers', () => {
  it('a stamped body is found by its key with the hash of the body, whatever the body quotes', () => {
    fc.assert(
      fc.property(safeKey, body, (key, text) => {
        // A body that already ends in this key's marker is the caller's own stamp, kept as it is.
        fc.pre(!/<!-- driftback:\S+ hash:[0-9a-f]+ -->\s*$/.test(text) || markerFor(text, key) === undefined);
        const stamped = stampMarker(text, key);
        expect(markerFor(stamped, key)).toEqual({ key, hash: contentHash(text) });
      }),
      { numRuns: 1500 },
    );
  });

  it("a body quoting another body's marker is never taken as unchanged when it differs", () => {
    fc.assert(
      fc.property(safeKey, body, body, (key, posted, next) => {
        fc.pre(posted !== next);
        const postedStamped = stampMarker(posted, key);
        // The next body quotes the posted body's marker in a code block (a live value holding it).
        const quoted = readMarkers(postedStamped).at(-1)!;
        const quoting = `${next}\n\`\`\`\n<!-- driftback:${quoted.key} hash:${quoted.hash} -->\n\`\`\``;
        expect(sameContent(postedStamped, stampMarker(quoting, key), key)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads the markers the report module writes', () => {
    fc.assert(
      fc.property(safeKey, body, (key, text) => {
        expect(markerFor(withMarker(key, text), key)).toEqual({ key, hash: contentHash(text) });
      }),
      { numRuns: 500 },
    );
  });
});

// Properties over any input: markers round-trip and cannot be faked by body text; every rendered or
// split document stays within its limit with every code fence and <details> closed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bodyWithoutMarker,
  codeBlock,
  contentHash,
  inlineCode,
  isBalanced,
  isUnchanged,
  markerOf,
  renderPlanComment,
  splitComment,
  withMarker,
} from '../../../src/core/report/index.js';
import type { Plan, PlanEntry } from '../../../src/core/model/index.js';
import { mentionableText } from '../../support/rendered-markdown.js';

const RUNS = { numRuns: 1000 };
const key = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9:/._-]{0,40}$/);
const markdownish = fc
  .array(
    fc.oneof(
      fc.string(),
      fc.constantFrom(
        '```',
        '````diff',
        '~~~',
        '<details>',
        '<details><summary>x</summary>',
        '</details>',
        '`',
        '@team',
        '<!-- driftback:fake hash:0123456789abcdef -->',
        '',
      ),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join('\n'));

describe('markers', () => {
  it('round-trip the key and the hash of the body, whatever the body holds', () => {
    fc.assert(
      fc.property(key, markdownish, (k, body) => {
        const marked = withMarker(k, body);
        expect(markerOf(marked)).toEqual({ key: k, hash: contentHash(body) });
        expect(bodyWithoutMarker(marked)).toBe(body);
        expect(isUnchanged(marked, k, body)).toBe(true);
      }),
      RUNS,
    );
  });

  it('change hash when the body changes', () => {
    fc.assert(
      fc.property(key, fc.string(), fc.string(), (k, a, b) => {
        fc.pre(a !== b);
        expect(isUnchanged(withMarker(k, a), k, b)).toBe(false);
      }),
      RUNS,
    );
  });

  it('finds nothing in text without a marker', () => {
    expect(markerOf(null)).toBeUndefined();
    expect(markerOf('plain comment <!-- driftback:x hash:nothex -->')).toBeUndefined();
  });
});

describe('escaping', () => {
  it('a code block holds any text: its fence is closed only by its own last line', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const block = codeBlock(text);
        const lines = block.split('\n');
        const fence = lines[0];
        expect(lines.slice(1, -1).some((line) => line.trim().startsWith(fence))).toBe(false);
        expect(lines[lines.length - 1]).toBe(fence);
        // Left as written (a digest `image@sha256:…` stays intact): GitHub links no mention in a block.
        expect(mentionableText(block)).not.toMatch(/@[A-Za-z0-9]/);
      }),
      RUNS,
    );
  });

  it('inline code holds any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const code = inlineCode(text);
        if (text.includes('|')) {
          // As HTML, so a `|` splits no table cell: every pipe escaped, nothing raw inside.
          expect(code.startsWith('<code>') && code.endsWith('</code>')).toBe(true);
          expect(code.slice(6, -7)).not.toMatch(/(?<!\\)\||[<>]/);
          return;
        }
        const ticks = /^`+/.exec(code)![0];
        expect(code.endsWith(ticks)).toBe(true);
        expect(code.slice(ticks.length, -ticks.length).includes(ticks)).toBe(false);
      }),
      RUNS,
    );
  });
});

describe('size budget', () => {
  it('splits any body into parts within the limit, each balanced when the body is', () => {
    const balancedBody = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 300 }).map((s) => s.replace(/`|~|<\/?details/g, '')),
          fc
            .array(
              fc.string({ maxLength: 120 }).map((s) => s.replace(/`|~/g, '')),
              { maxLength: 80 },
            )
            .map((lines) =>
              ['<details><summary>r</summary>', '', '```diff', ...lines, '```', '', '</details>'].join('\n'),
            ),
        ),
        { maxLength: 40 },
      )
      .map((blocks) => blocks.join('\n'));
    fc.assert(
      fc.property(balancedBody, fc.integer({ min: 800, max: 70_000 }), (body, limit) => {
        const parts = splitComment(body, limit);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(isBalanced(part)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('renders any plan within the limit with fences and details closed', () => {
    const name = fc.string({ minLength: 1, maxLength: 40 });
    const entry = fc.record({
      name,
      image: fc.string({ maxLength: 200 }),
      action: fc.constantFrom('create', 'update', 'prune'),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 30 }),
        fc.array(fc.string({ maxLength: 200 }), { maxLength: 10 }),
        fc.integer({ min: 3000, max: 65_000 }),
        (entries, messages, limit) => {
          const plan: Plan = {
            create: [],
            update: [],
            prune: [],
            kept: [],
            unchanged: 0,
            warnings: messages.map((message) => ({ code: 'conflict', message })),
          };
          for (const e of entries) {
            const id = { group: 'apps', kind: 'Deployment', namespace: 'default', name: e.name };
            const object = {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              metadata: { name: e.name },
              spec: { image: e.image },
            };
            const planned: PlanEntry = {
              id,
              action: e.action,
              changes:
                e.action === 'update'
                  ? [
                      {
                        path: '/spec/image',
                        segments: ['spec', 'image'],
                        op: 'replace',
                        desired: e.image,
                        live: 'old',
                        cause: 'applier',
                      },
                    ]
                  : [],
              conflicts: [],
              desired:
                e.action === 'prune'
                  ? undefined
                  : {
                      key: id,
                      object,
                      source: {
                        file: 'a.yaml',
                        document: 0,
                        location: { file: 'a.yaml', document: 0, range: [0, 1], line: 1, column: 1 },
                        kustomizations: [],
                        sourceName: e.name,
                        fields: {},
                      },
                    },
              live: e.action === 'create' ? undefined : { ...object, spec: { image: 'old' } },
            };
            plan[e.action].push(planned);
          }
          const body = renderPlanComment([{ cluster: 'c', plan }], { limit });
          expect(body.length).toBeLessThanOrEqual(limit);
          expect(isBalanced(body)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

// The README and the pages in docs/ link to each other by relative path and heading anchor; moving a
// section must not leave a link pointing nowhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(text: string): Set<string> {
  const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((match) => match[1].trim().toLowerCase());
  return new Set(headings.map((heading) => heading.replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-')));
}

describe('links between the README and docs/', () => {
  it('finds the pages', () => {
    expect(PAGES).toContain('docs/configuration.md');
  });

  for (const page of PAGES) {
    it(`${page}: every relative link names a file that exists and a heading it has`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const broken: string[] = [];
      for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const file = target === '' ? join(ROOT, page) : join(ROOT, dirname(page), target);
        if (!existsSync(file)) broken.push(`${target}: no such file`);
        else if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
          broken.push(`${relative(ROOT, file)}#${anchor}: no such heading`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

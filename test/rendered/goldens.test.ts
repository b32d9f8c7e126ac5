// Every golden Markdown file, rendered as GitHub renders it, has a sound structure: rows as wide as
// their header, <details> closed, no entity or backslash escape shown as text, no code line wider than
// a comment. The checker is tested first on documents that break each rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cellsOf, GITHUB_CODE_COLUMNS, renderedProblems } from '../support/rendered-markdown.js';

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Golden Markdown files: `*.md` in every `golden` or `*-golden` directory under test/. */
function goldenFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    if (name === 'golden' || name.endsWith('-golden')) {
      found.push(
        ...readdirSync(path)
          .filter((file) => file.endsWith('.md'))
          .map((file) => join(path, file)),
      );
    } else if (name !== 'fixtures' && name !== 'node_modules') found.push(...goldenFiles(path));
  }
  return found.sort();
}

describe('the checker', () => {
  it('counts cells as GitHub splits them', () => {
    expect(cellsOf('| a | b |')).toBe(2);
    expect(cellsOf('| a \\| b | c |')).toBe(2);
    expect(cellsOf('| `x \\| y` | c |')).toBe(2);
    expect(cellsOf('a | b')).toBe(2);
  });

  it.each([
    ['a row with an extra cell', '| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n', /3 cells, its header 2/],
    ['a row missing a cell', '| a | b |\n| --- | --- |\n| 1 |\n', /1 cells, its header 2/],
    ['an unclosed <details>', '<details><summary>x</summary>\n\ntext\n', /left open/],
    ['a stray </details>', 'text\n\n</details>\n', /without <details>/],
    ['a double-escaped entity', 'a &amp;quot;b&amp;quot;\n', /HTML entity shown as text: &quot;/],
    [
      'a backslash escape in a <summary>',
      '<details><summary>containers\\[web\\]</summary>\n\nx\n\n</details>\n',
      /backslash escape shown as text: \\\[/,
    ],
    ['a backslash escape in a code span', 'see `a\\|b`\n', /backslash escape shown as text: \\\|/],
    [
      'a table wider than a comment',
      '| field | who |\n| --- | --- |\n| `spec.template.spec.containers[server].env[DEBUG].valueFrom.secretKeyRef` | `clusters/production/checkout/api.yaml:24` |\n',
      /table \d+px wide, wider than a comment/,
    ],
    ['a wide code line', '```\n' + 'x'.repeat(GITHUB_CODE_COLUMNS + 1) + '\n```\n', /wider than/],
  ])('finds %s', (_name, text, problem) => {
    expect(
      renderedProblems(text)
        .map((p) => p.problem)
        .join('\n'),
    ).toMatch(problem);
  });

  it('passes a long path in a table when it can break (`<wbr>`), as the cell helpers write it', () => {
    const path =
      'spec.<wbr>template.<wbr>spec.<wbr>containers[server].<wbr>env[DEBUG].<wbr>valueFrom.<wbr>secretKeyRef';
    const file = 'clusters/<wbr>production/<wbr>checkout/<wbr>api.<wbr>yaml:24';
    expect(
      renderedProblems(`| field | who |\n| --- | --- |\n| <code>${path}</code> | <code>${file}</code> |\n`),
    ).toEqual([]);
  });

  it('passes what GitHub renders well: escapes that apply, pipes escaped in table code', () => {
    expect(
      renderedProblems(
        '| a | b |\n| --- | --- |\n| `x \\| y` | \\[human\\] |\n\n<details><summary><code>a</code></summary>\n\n```diff\n+ x\n```\n\n</details>\n',
      ),
    ).toEqual([]);
  });
});

describe('golden Markdown renders soundly', () => {
  const files = goldenFiles(TEST_ROOT);
  it('finds the golden files', () => expect(files.length).toBeGreaterThanOrEqual(10));
  it.each(files.map((file) => [relative(TEST_ROOT, file), file]))('%s', (_name, file) => {
    expect(renderedProblems(readFileSync(file, 'utf8'))).toEqual([]);
  });
});

// Markdown as GitHub renders it, checked for what a reader would see go wrong: a table row with more
// or fewer cells than its header (GitHub drops the extra cells and pads the missing ones silently), a
// <details> left open, an HTML entity or a backslash escape shown as text, a code line wider than a
// comment, a table wider than a comment (estimated from its text: table-width.ts). markdown-it implements CommonMark and GitHub's table extension (README: why this one).
import MarkdownIt from 'markdown-it';
import { COMMENT_WIDTH_PX, markdownTables, tableMinWidth } from './table-width.js';

/**
 * Code characters a GitHub comment shows without scrolling: the comment body of a pull request at a
 * 1280-pixel window is about 808 pixels wide, a code block inside it about 776, and its 11.9-pixel
 * monospace font advances 7.2 pixels a character (107 characters). 100 leaves room for narrower windows.
 */
export const GITHUB_CODE_COLUMNS = 100;

const md = new MarkdownIt({ html: true, linkify: false });

export interface RenderedProblem {
  line: number;
  problem: string;
}

/** The cells of a table row as GitHub splits them: on pipes not escaped with a backslash. */
export function cellsOf(row: string): number {
  let text = row.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).length;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decode(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text a reader sees outside code blocks: tags removed, entities decoded once. */
export function visibleText(html: string): string {
  return decode(html.replace(/<pre>[\s\S]*?<\/pre>/g, '').replace(/<[^>]+>/g, ''));
}

/**
 * The text in which GitHub links `@mentions`: everything but code, code blocks and links (html-pipeline's
 * MentionFilter skips text under `pre`, `code`, `a`, `style` and `script`: IGNORE_PARENTS).
 */
export function mentionableText(markdown: string): string {
  const html = md.render(markdown).replace(/<(pre|code|a|style|script)\b[^>]*>[\s\S]*?<\/\1>/g, '');
  return decode(html.replace(/<[^>]+>/g, ''));
}

export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** Every structural problem of a Markdown document as GitHub would render it. */
export function renderedProblems(text: string): RenderedProblem[] {
  const problems: RenderedProblem[] = [];
  const tokens = md.parse(text, {});
  const lines = text.split('\n');
  let header = 0;
  let cells = 0;
  let row: number | undefined;
  for (const token of tokens) {
    if (token.type === 'thead_open') header = 0;
    if (token.type === 'th_open') header += 1;
    if (token.type === 'tr_open') {
      cells = 0;
      row = token.map?.[0];
    }
    if (token.type === 'td_open') cells += 1;
    if (token.type === 'tr_close' && row !== undefined && cells > 0) {
      const written = cellsOf(lines[row]);
      if (written !== header)
        problems.push({ line: row + 1, problem: `table row has ${written} cells, its header ${header}` });
    }
    if ((token.type === 'fence' || token.type === 'code_block') && token.map) {
      token.content.split('\n').forEach((code, i) => {
        if ([...code].length > GITHUB_CODE_COLUMNS) {
          problems.push({
            line: token.map![0] + 2 + i,
            problem: `code line of ${[...code].length} characters, wider than ${GITHUB_CODE_COLUMNS}`,
          });
        }
      });
    }
  }
  for (const table of markdownTables(text)) {
    const width = tableMinWidth(table);
    if (width > COMMENT_WIDTH_PX)
      problems.push({
        line: table.line,
        problem: `table ${width}px wide, wider than a comment (${COMMENT_WIDTH_PX}px)`,
      });
  }
  const html = md.renderer.render(tokens, md.options, {});
  let depth = 0;
  for (const tag of html.matchAll(/<(\/?)details[\s>]/g)) {
    depth += tag[1] ? -1 : 1;
    if (depth < 0) problems.push({ line: 0, problem: '</details> without <details>' });
  }
  if (depth > 0) problems.push({ line: 0, problem: `${depth} <details> left open` });
  const visible = visibleText(html);
  for (const entity of visible.match(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi) ?? [])
    problems.push({ line: 0, problem: `HTML entity shown as text: ${entity}` });
  for (const escape of visible.match(/\\[!-/:-@[-`{-~]/g) ?? [])
    problems.push({ line: 0, problem: `backslash escape shown as text: ${escape}` });
  return problems;
}

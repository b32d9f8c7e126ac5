// How wide a Markdown table is at its narrowest as GitHub lays it out, estimated from its text: the
// test of every golden output uses it, so a table a reviewer would have to scroll sideways fails
// without a browser. GitHub renders a table as `display: block; width: max-content; max-width: 100%`
// with cells padded 6px 13px and 1px borders; a column can shrink to its longest unbreakable run of
// text (Chromium breaks lines at spaces, after a hyphen before a letter, and at `<wbr>`, never
// inside a path), so the table's narrowest width is the sum of those runs plus padding. The
// per-character widths are the widest measured for GitHub's fonts (code: 85% of 16px in a
// monospace font; prose: 16px sans-serif), so the estimate errs wide; scripts/render-pictures.ts
// measures the pictured goldens in Chromium and records the real width beside each picture.

/** The width a comment's Markdown has at a 900-pixel window: 808px body less 2 × 16px padding. */
export const COMMENT_WIDTH_PX = 776;

const CELL_PADDING_PX = 26;
const BORDER_PX = 1;
const CODE_CHAR_PX = 8.16;
// A code span's padding (0.4em of 13.6px) on each side.
const CODE_PAD_PX = 5.44;
const WIDE_CHAR_PX = 22;

// Widths in pixels of the printable ASCII characters, in this order, as Chromium draws them at 16px in
// Noto Sans, regular and bold (measured once; GitHub's own fonts are no wider).
const ASCII = '0123456789!"#$%&\'()*+,-./:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
const PROSE_PX = (
  '9.2 9.2 9.2 9.2 9.2 9.2 9.2 9.2 9.2 9.2 4.3 6.5 10.3 9.2 12.6 11.7 3.6 4.8 4.8 8.8 9.2 4.3 5.2 4.3 ' +
  '6.0 4.3 4.3 9.2 9.2 9.2 6.9 12.5 10.2 10.4 9.8 11.7 8.9 8.3 11.7 11.9 5.4 4.4 9.9 8.4 12.6 12.2 12.5 9.7 ' +
  '12.5 9.9 8.8 9.2 11.7 9.6 12.5 9.4 9.1 9.2 5.3 6.0 5.3 9.2 7.1 4.5 9.0 9.8 7.7 9.8 9.0 5.5 9.8 9.9 ' +
  '4.1 4.1 8.5 4.1 12.6 9.9 9.7 9.8 9.8 6.6 7.7 5.8 9.9 8.1 12.6 8.5 8.2 7.5 6.1 8.8 6.1 9.2'
)
  .split(' ')
  .map(Number);
const BOLD_PX = (
  '9.2 9.2 9.2 9.2 9.2 9.2 9.2 9.2 9.2 9.2 4.6 7.5 10.3 9.2 12.5 12.0 4.3 5.4 5.4 8.7 9.2 4.6 5.2 4.6 ' +
  '6.6 4.6 4.6 9.2 9.2 9.2 7.6 12.6 11.0 10.8 9.9 11.8 9.0 8.8 11.6 12.2 6.2 5.3 10.6 9.0 12.5 12.6 12.6 10.1 ' +
  '12.6 10.6 8.8 9.6 12.1 10.4 12.5 10.7 10.0 9.3 5.3 6.6 5.3 9.2 6.6 5.8 9.7 10.1 8.2 10.1 9.5 6.2 10.1 10.5 ' +
  '4.9 4.9 9.9 4.9 12.6 10.5 9.9 10.1 10.1 7.3 8.0 6.9 10.5 9.1 12.6 9.2 9.1 7.8 6.3 8.8 6.3 9.2'
)
  .split(' ')
  .map(Number);

function charWidth(char: string, code: boolean, bold: boolean): number {
  if (code) return CODE_CHAR_PX;
  const index = ASCII.indexOf(char);
  if (index >= 0) return (bold ? BOLD_PX : PROSE_PX)[index];
  return (char.codePointAt(0) ?? 0) > 0x2000 ? WIDE_CHAR_PX : 10;
}

interface Glyph {
  char: string;
  px: number;
  /** A line may break after it. */
  breakAfter: boolean;
}

const ENTITY = /^&(#\d+|#x[0-9a-f]+|[a-z]+);/i;

/** One cell's text as glyphs with their widths and where a line may break (`bold` for a header cell). */
function glyphs(cell: string, bold = false): Glyph[] {
  const out: Glyph[] = [];
  let code = false;
  let pad = 0;
  const toggleCode = (): void => {
    code = !code;
    if (code) pad = CODE_PAD_PX;
    else if (out.length) out[out.length - 1].px += CODE_PAD_PX;
  };
  for (let i = 0; i < cell.length; i++) {
    const rest = cell.slice(i);
    const tag = /^<(\/?)(code|br|wbr|b|strong)\s*\/?>/i.exec(rest);
    if (tag) {
      const name = tag[2].toLowerCase();
      if (name === 'code') toggleCode();
      else if (name === 'b' || name === 'strong') bold = !tag[1];
      else if (out.length) out[out.length - 1].breakAfter = true;
      i += tag[0].length - 1;
      continue;
    }
    if (rest.startsWith('`')) {
      toggleCode();
      continue;
    }
    if (!code && rest.startsWith('**')) {
      bold = !bold;
      i++;
      continue;
    }
    let char = cell[i];
    if (!code && char === '\\' && i + 1 < cell.length) char = cell[++i];
    const entity = char === '&' ? ENTITY.exec(rest) : null;
    if (entity) i += entity[0].length - 1;
    if ((char.codePointAt(0) ?? 0) > 0xffff) i++;
    // A space in code takes its width (GitHub's `white-space: break-spaces`); in prose it hangs.
    const space = /\s/.test(char);
    out.push({ char, px: space && !code ? 0 : charWidth(char, code, bold) + pad, breakAfter: space });
    pad = 0;
  }
  for (let i = 1; i + 1 < out.length; i++) {
    if (out[i].char === '-' && /[\p{L}\p{N}]/u.test(out[i - 1].char) && /[\p{L}\p{N}]/u.test(out[i + 1].char)) {
      out[i].breakAfter = true;
    }
  }
  return out;
}

/** The widest run of a cell's text that no line break can split, in pixels. */
export function cellMinWidth(cell: string, header = false): number {
  let widest = 0;
  let run = 0;
  for (const glyph of glyphs(cell, header)) {
    run += glyph.px;
    widest = Math.max(widest, run);
    if (glyph.breakAfter) run = 0;
  }
  return Math.ceil(widest);
}

/** A table row's cells (split at `|` that is neither escaped nor inside a code span). */
function cells(row: string): string[] {
  const out: string[] = [];
  let current = '';
  let code = false;
  const body = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\' && body[i + 1] === '|') {
      current += '\\|';
      i++;
    } else if (char === '`') {
      code = !code;
      current += char;
    } else if (char === '|' && !code) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  out.push(current.trim());
  return out;
}

export interface MarkdownTable {
  /** 1-based line of the header row. */
  line: number;
  rows: string[][];
}

/** The tables of a Markdown document (outside code fences), each with its header row first. */
export function markdownTables(markdown: string): MarkdownTable[] {
  const lines = markdown.split('\n');
  const tables: MarkdownTable[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(lines[i])?.[1];
    if (fenceMark && (!fence || fenceMark.startsWith(fence))) fence = fence ? undefined : fenceMark;
    if (fence || !lines[i].trimStart().startsWith('|') || !/^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? '')) continue;
    const table: MarkdownTable = { line: i + 1, rows: [cells(lines[i])] };
    for (i += 2; i < lines.length && lines[i].trimStart().startsWith('|'); i++) table.rows.push(cells(lines[i]));
    tables.push(table);
  }
  return tables;
}

/** A table's narrowest width as GitHub lays it out, in pixels. */
export function tableMinWidth(table: MarkdownTable): number {
  const columns = Math.max(...table.rows.map((row) => row.length));
  let width = BORDER_PX;
  for (let column = 0; column < columns; column++) {
    const widest = Math.max(...table.rows.map((row, index) => cellMinWidth(row[column] ?? '', index === 0)));
    width += widest + CELL_PADDING_PX + BORDER_PX;
  }
  return width;
}

// Offsets and lines in file text: the edits below splice source ranges, so they need to find
// line starts, line ends and columns without re-serialising anything.

/** Offset of the start of the line that holds `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Column (0-based) of `offset` on its line. */
export function columnOf(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** 1-based line number of `offset`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Offset just after the line that ends at or after `offset` (after its `\n`), so that text inserted
 * there starts on a line of its own and keeps an end-of-line comment where it was.
 */
export function afterLine(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

/** True when only spaces (or a sequence dash) precede `offset` on its line. */
export function onlyIndentBefore(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/** The file's line ending: new lines are written with the one it already uses. */
export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

export function splice(text: string, start: number, end: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(end);
}

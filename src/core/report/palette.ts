// ANSI colors for terminal output: only when stdout is a terminal and NO_COLOR is unset
// (https://no-color.org), so pipes, files and CI logs get plain text.
export interface Palette {
  added(text: string): string;
  removed(text: string): string;
  hunk(text: string): string;
  heading(text: string): string;
  dim(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLORS: Palette = {
  added: wrap(32, 39),
  removed: wrap(31, 39),
  hunk: wrap(36, 39),
  heading: wrap(1, 22),
  dim: wrap(2, 22),
};
const PLAIN: Palette = { added: (t) => t, removed: (t) => t, hunk: (t) => t, heading: (t) => t, dim: (t) => t };

export function paletteFor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): Palette {
  return stream.isTTY && !env.NO_COLOR ? COLORS : PLAIN;
}

export const plainPalette = PLAIN;

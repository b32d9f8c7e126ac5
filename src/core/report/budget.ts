// GitHub refuses a comment, issue or PR body over 65,536 characters. A document degrades in steps
// until it fits; only when even the smallest form cannot hold it is it split into numbered parts,
// and no part ever ends inside a code fence or a <details> block (open ones are closed and reopened).

export const GITHUB_BODY_LIMIT = 65_536;

/** Room kept for the marker the App appends (`<!-- driftback:… hash:… -->`) and a part header. */
export const MARKER_RESERVE = 200;

/**
 * A list longer than this is folded in `<details>` behind a summary that counts it, and a plan comment
 * shows at most `LINE_BUDGET` lines (outside folds; every line once the diffs are left out) however
 * large the pull request: a reader sees the shape of the change at once, never a 600-line list.
 */
export const FOLD_OVER = 20;
export const LINE_BUDGET = 150;

/** Whether a rendering is short enough besides its length in characters (`level` counts from 0). */
export type FitsBudget = (body: string, level: number) => boolean;

/** The first rendering, from most to least detailed, that fits `limit` (and `fits`); else the last one. */
export function fitBudget(
  renderings: Array<() => string>,
  limit: number,
  fits: FitsBudget = () => true,
): { body: string; level: number } {
  let body = '';
  for (let level = 0; level < renderings.length; level++) {
    body = renderings[level]();
    if (body.length <= limit && fits(body, level)) return { body, level };
  }
  return { body, level: renderings.length - 1 };
}

interface BlockState {
  fence?: { marker: string; opener: string };
  details: string[];
}

const FENCE_OPEN = /^(`{3,}|~{3,})/;

function step(state: BlockState, line: string): void {
  if (state.fence) {
    const trimmed = line.trim();
    if (trimmed.startsWith(state.fence.marker) && /^(`+|~+)$/.test(trimmed) && trimmed[0] === state.fence.marker[0])
      state.fence = undefined;
    return;
  }
  const fence = FENCE_OPEN.exec(line.trimStart());
  if (fence) {
    state.fence = { marker: fence[1], opener: line };
    return;
  }
  const opens = line.match(/<details[\s>]/g)?.length ?? 0;
  const closes = line.match(/<\/details>/g)?.length ?? 0;
  for (let i = 0; i < opens; i++)
    state.details.push(line.includes('<summary>') ? line.slice(line.indexOf('<details')) : '<details>');
  for (let i = 0; i < closes; i++) state.details.pop();
}

function closers(state: BlockState): string[] {
  return [...(state.fence ? [state.fence.marker] : []), ...state.details.map(() => '</details>')];
}

function reopeners(state: BlockState): string[] {
  // A long summary is not repeated: a part must leave room for content.
  return [
    ...state.details.map((open) =>
      open.length > 200 ? '<details><summary>(continued)</summary>' : open.replace(/<\/details>/g, ''),
    ),
    ...(state.fence ? [state.fence.opener] : []),
  ];
}

function cost(lines: string[]): number {
  return lines.reduce((n, line) => n + line.length + 1, 0);
}

/** Whether every code fence and <details> in the text is closed (what a part must satisfy). */
export function isBalanced(text: string): boolean {
  const state: BlockState = { details: [] };
  for (const line of text.split('\n')) step(state, line);
  return !state.fence && state.details.length === 0;
}

/** The lines a reader sees before opening any `<details>` (a fold's summary line counts; its content not). */
export function visibleLines(text: string): number {
  const state: BlockState = { details: [] };
  let lines = 0;
  for (const line of text.split('\n')) {
    if (state.details.length === 0) lines++;
    step(state, line);
  }
  return lines;
}

/** Splits a body into numbered parts of at most `limit` characters each; one part when it fits. */
export function splitComment(body: string, limit = GITHUB_BODY_LIMIT): string[] {
  if (body.length <= limit) return [body];
  const header = (i: number, n: number): string => `**Part ${i} of ${n}**\n\n`;
  const room = limit - header(999, 999).length;
  const parts: string[][] = [];
  let current: string[] = [];
  const state: BlockState = { details: [] };
  const flush = (): void => {
    parts.push([...current, ...closers(state)]);
    current = reopeners(state);
  };
  for (const raw of body.split('\n')) {
    // A line longer than a part can hold is cut into pieces (only ever seen inside code blocks).
    const pieces: string[] = [];
    // A quarter of the limit (not of the room left after the header): a line shorter than that is
    // never cut, whatever the header costs.
    const maxLine = Math.max(1, Math.floor(limit / 4));
    for (let i = 0; i < raw.length || i === 0; i += maxLine) pieces.push(raw.slice(i, i + maxLine));
    for (const line of pieces) {
      const after: BlockState = { fence: state.fence, details: [...state.details] };
      step(after, line);
      if (current.length > 0 && cost(current) + line.length + 1 + cost(closers(after)) > room) flush();
      current.push(line);
      step(state, line);
    }
  }
  parts.push([...current, ...closers(state)]);
  const texts = parts.map((lines) => lines.join('\n'));
  return texts.map((text, i) => header(i + 1, texts.length) + text);
}

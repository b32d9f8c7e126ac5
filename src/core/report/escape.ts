// Text from manifests and clusters (names, values, messages) must never break out of where it is
// put: no closing a code fence, no HTML, no table cell split, no @-mention pinging a person or team.

const ZERO_WIDTH_SPACE = '\u200b';

/** `@user` and `@org/team` lose their power to notify: a zero-width space follows the `@`. */
export function neutralizeMentions(text: string): string {
  return text.replace(/@(?=[A-Za-z0-9])/g, '@' + ZERO_WIDTH_SPACE);
}

// Quotes too: a template may put text inside an HTML attribute (and `driftback diff` goldens rely on it).
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** HTML escaped, Markdown punctuation defused, one line (no mention handling). */
function markdownText(text: string): string {
  return text
    .replace(/[&<>"]/g, (c) => HTML[c])
    .replace(/([\\`*_[\]|#~])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

/** Prose and table cells: HTML escaped, Markdown punctuation defused, one line, mentions neutral. */
export function escapeText(value: unknown): string {
  return neutralizeMentions(markdownText(value === undefined || value === null ? '' : String(value)));
}

/** HTML escaped, one line (no mention handling: inside `<code>` GitHub links none). */
function htmlText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => HTML[c]).replace(/\r?\n/g, ' ');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

/** Text inside HTML (a `<summary>`, which GitHub does not read as Markdown): HTML escaped, mentions neutral. */
export function escapeHtml(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  return neutralizeMentions(htmlText(text));
}

/**
 * Inline code that holds any text: the backtick run is longer than any inside it. Text with a `|`
 * is written as `<code>` with escaped text instead, so it cannot split a table cell and shows no
 * backslash outside a table (a code span would need `\|` in one place and not the other).
 */
export function inlineCode(value: unknown): string {
  // GitHub links no mention inside code: the text stays as it is (a digest `image@sha256:…` intact).
  const text = String(value ?? '').replace(/\r?\n/g, ' ');
  if (text.includes('|')) return `<code>${markdownText(text)}</code>`;
  const ticks = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A fenced code block that holds any text: the fence is longer than any backtick run inside. */
export function codeBlock(text: string, language = ''): string {
  // The fence is longer than any backtick run inside, so the text cannot close it: no mention inside
  // a fence is linked, and digests and emails are left intact.
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`;
}

// Table cells: GitHub lays a table out no narrower than its longest unbroken runs of text, and a
// field path (`spec.template.spec.containers[api].env[DEBUG]`) has no space to break at. In a cell,
// a run longer than 30 characters gets a `<wbr>` (a line break only where needed, copied as nothing) after
// each `.`, `/` and `,`, so a table stays within a comment's width.
const LONG_RUNS = /\S{31,}/g;

/** Escaped text with a break opportunity after each `.`, `/` and `,` of its long runs. */
function breakable(escaped: string): string {
  return escaped.replace(LONG_RUNS, (run) => run.replace(/([./,])(?=.)/g, '$1<wbr>'));
}

/** Inline code for a table cell: a long run is written as `<code>` with break opportunities. */
export function cellCode(value: unknown): string {
  const text = String(value ?? '').replace(/\r?\n/g, ' ');
  if (!/\S{31}/.test(text)) return inlineCode(text);
  return `<code>${breakable(markdownText(text))}</code>`;
}

/** Text for a table cell: as escapeText, with break opportunities in long runs. */
export function cellText(value: unknown): string {
  return breakable(escapeText(value));
}

/** A message for a table cell: as escapeProse, with break opportunities in long runs. */
export function cellProse(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  const parts = text.split(/(`[^`\n]+`)/);
  return parts.map((part, i) => (i % 2 === 1 ? cellCode(part.slice(1, -1)) : cellText(part))).join('');
}

/** A message whose `backticked` spans are code and the rest text (warnings and reasons are written so). */
export function escapeProse(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  const parts = text.split(/(`[^`\n]+`)/);
  return parts.map((part, i) => (i % 2 === 1 ? inlineCode(part.slice(1, -1)) : escapeText(part))).join('');
}

/** Like escapeProse, for HTML (a `<summary>`): `backticked` spans become `<code>`, the rest is HTML escaped. */
export function escapeProseHtml(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  const parts = text.split(/(`[^`\n]+`)/);
  return parts
    .map((part, i) => (i % 2 === 1 ? `<code>${htmlText(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join('');
}

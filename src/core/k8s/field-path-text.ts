// Reading back the people-readable field path that `fieldPath` prints
// (`spec.template.spec.containers[app].env[DEBUG].value`, `ports[8080/TCP]`,
// `metadata.annotations["app.kubernetes.io/name"]`): its segments as written, so a path a person
// copies from a drift PR or a plan can name a field in the config (ignore and allowRisky rules) and
// match the field wherever its list item has moved. `*` names any map key or item, `[*]` any item.

/** One segment of a written field path: a map key (`.image`), a list item (`[app]`, `[8080/TCP]`, `[2]`). */
export interface FieldPathSegment {
  /** `key` for `.name`; `item` for `[…]` with bare text; `quoted` for `["…"]` (a map key or an item's key). */
  kind: 'key' | 'item' | 'quoted';
  /** The key, or the text inside the brackets (a quoted one unquoted). */
  text: string;
  /** The segment as written, with its leading `.` when it has one. */
  raw: string;
}

const WORD = /[A-Za-z_][A-Za-z0-9_-]*|\*/y;
const QUOTED = /"(?:[^"\\]|\\.)*"/y;

/** What a field path looks like, for error messages. */
export const FIELD_PATH_EXAMPLE = 'spec.template.spec.containers[app].image';

/** The text inside `[…]` from `start` (just after `[`) to its `]`; quoted parts may hold `]`. */
function bracketEnd(text: string, start: number): number {
  let at = start;
  while (at < text.length && text[at] !== ']') {
    if (text[at] === '"') {
      QUOTED.lastIndex = at;
      if (!QUOTED.test(text)) return -1;
      at = QUOTED.lastIndex;
    } else at++;
  }
  return at < text.length ? at : -1;
}

function bracketSegment(text: string, start: number): FieldPathSegment | string {
  const end = bracketEnd(text, start + 1);
  if (end < 0) return `a \`[\` at character ${start + 1} has no closing \`]\``;
  const inner = text.slice(start + 1, end);
  const raw = text.slice(start, end + 1);
  if (inner === '') return `\`[]\` at character ${start + 1} names no item: write its key, as in containers[app]`;
  QUOTED.lastIndex = 0;
  if (QUOTED.test(inner) && QUOTED.lastIndex === inner.length)
    return { kind: 'quoted', text: JSON.parse(inner) as string, raw };
  if (inner.includes('"')) return { kind: 'item', text: inner, raw };
  if (/\s/.test(inner)) return `\`${raw}\` holds a space: quote the key, as in env["MY VAR"]`;
  if (inner.includes('='))
    return `write \`[${inner.slice(inner.indexOf('=') + 1)}]\`, not \`${raw}\`: a list item is named by its key's value, as driftback prints it (containers[app])`;
  return { kind: 'item', text: inner, raw };
}

/**
 * The segments of a field path written as driftback prints it, or why it cannot be read (in words
 * that say what to write). The empty path has no segments.
 */
export function parseFieldPath(text: string): FieldPathSegment[] | string {
  const segments: FieldPathSegment[] = [];
  let at = 0;
  while (at < text.length) {
    if (text[at] === '[') {
      const segment = bracketSegment(text, at);
      if (typeof segment === 'string') return segment;
      segments.push(segment);
      at += segment.raw.length;
      continue;
    }
    const dot = segments.length > 0 ? 1 : 0;
    if (dot && text[at] !== '.') return `expected \`.\` or \`[\` at character ${at + 1}, found \`${text[at]}\``;
    WORD.lastIndex = at + dot;
    const word = WORD.exec(text);
    if (!word)
      return `expected a field name at character ${at + dot + 1}: quote a key that is not a plain word, as in metadata.annotations["app.kubernetes.io/name"]`;
    segments.push({ kind: 'key', text: word[0], raw: text.slice(at, WORD.lastIndex) });
    at = WORD.lastIndex;
  }
  return segments;
}

/** A port item written without its protocol names the TCP one, as Kubernetes defaults it (`ports[8080]`). */
function portItem(segment: FieldPathSegment, list: FieldPathSegment | undefined): string {
  const port = segment.kind === 'item' && list?.kind === 'key' && list.text === 'ports' && /^\d+$/.test(segment.text);
  return port ? `${segment.text}/TCP` : segment.text;
}

/** Whether a rule's segment (which may be `*` or `[*]`) names the field's segment; `list` is the one before it. */
function segmentMatches(rule: FieldPathSegment, field: FieldPathSegment, list: FieldPathSegment | undefined): boolean {
  if (rule.text === '*' && rule.kind !== 'quoted') return rule.kind === 'key' || field.kind !== 'key';
  if (rule.kind === 'item' && field.kind === 'item') return portItem(rule, list) === portItem(field, list);
  if (rule.text !== field.text) return false;
  return rule.kind === field.kind || rule.kind === 'quoted' || field.kind === 'quoted';
}

/**
 * Whether a rule's path names the field or a field it is inside (a path covers everything below it).
 * A port written without its protocol is the TCP port (`ports[8080]` covers `ports[8080/TCP]`).
 */
export function fieldPathCovers(rule: readonly FieldPathSegment[], field: readonly FieldPathSegment[]): boolean {
  return rule.length <= field.length && rule.every((segment, i) => segmentMatches(segment, field[i]!, field[i - 1]));
}

/** The path written back from segments: `segments.slice(0, n)` of a parsed path reads as its first n segments. */
export function writeFieldPath(segments: readonly FieldPathSegment[]): string {
  return segments
    .map((segment, i) => (i === 0 && segment.raw.startsWith('.') ? segment.raw.slice(1) : segment.raw))
    .join('');
}

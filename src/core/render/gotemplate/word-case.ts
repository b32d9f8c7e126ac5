// xstrings v1.5.0's ToSnakeCase / ToKebabCase (convert.go camelCaseToLowerCase and nextWord): the text cut
// into words (upper-case runs, letters, numbers, connectors, punctuation), words lower-cased and joined
// by the connector, numbers kept with the letters they touch as xstrings keeps them.

type Kind = 'invalid' | 'number' | 'upper' | 'alphabet' | 'connector' | 'punct' | 'other';
interface Word {
  kind: Kind;
  text: string;
}

const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;
const isConnector = (c: string) => c === '-' || c === '_' || GO_SPACE.test(c);
const isUpper = (c: string) => /^\p{Lu}$/u.test(c);
const isPunct = (c: string) => /^\p{P}$/u.test(c);
const isNumber = (c: string) => /^\p{N}$/u.test(c);

/** xstrings isAlphabet: a letter, but not a common CJK ideograph. */
function isAlphabet(c: string): boolean {
  if (!/^\p{L}$/u.test(c)) return false;
  const r = c.codePointAt(0)!;
  if (r < 0x3400) return true;
  return !((r >= 0x4e00 && r <= 0x9fcc) || (r >= 0x3400 && r <= 0x4d85) || (r >= 0x20000 && r <= 0x2b81d));
}

/**
 * xstrings nextValidRune: the next rune that is not U+FFFD and how many runes reach it (the U+FFFD
 * runes skipped belong to the word); when only U+FFFD runes are left, `prev` and all of them.
 */
function peek(runes: string[], pos: number, prev: string): [string, number] {
  for (let n = 0; pos + n < runes.length;) if (runes[pos + n++] !== '\uFFFD') return [runes[pos + n - 1]!, n];
  return [prev, runes.length - pos];
}

/** The runes from `from` that `keep` accepts: their count, the last rune read, the last step taken. */
function run(runes: string[], from: number, prev: string, keep: (c: string) => boolean): [number, string, number] {
  let [pos, r, step] = [from, prev, 0];
  while (pos < runes.length) {
    const [next, n] = peek(runes, pos, r);
    r = next;
    if (!keep(r)) break;
    pos += n;
    step = n;
  }
  return [pos - from, r, step];
}

/** nextWord's upper-case word: an upper-case run (its last letter left to start the next word) or a capital and its letters. */
function upperLength(runes: string[], at: number, first: number, r: string): number {
  const pos = at + first;
  if (pos >= runes.length) return first;
  const [r2, n2] = peek(runes, pos, r);
  if (isUpper(r2)) {
    const [count, last, step] = run(runes, pos + n2, r2, isUpper);
    const total = first + n2 + count;
    return at + total < runes.length && isAlphabet(last) ? total - (count > 0 ? step : n2) : total;
  }
  return isAlphabet(r2) ? first + n2 + run(runes, pos + n2, r2, lowerLetter)[0] : first;
}

const lowerLetter = (c: string) => isAlphabet(c) && !isUpper(c);

/** nextWord: the kind and length (in runes) of the word at the start. */
function wordLength(runes: string[], at: number): [Kind, number] {
  const [r, n] = peek(runes, at, '\uFFFD');
  const rest = (keep: (c: string) => boolean) => n + run(runes, at + n, r, keep)[0];
  if (r === '\uFFFD') return ['invalid', n];
  if (isConnector(r)) return ['connector', rest(isConnector)];
  if (isPunct(r)) return ['punct', rest(isPunct)];
  if (isUpper(r)) return ['upper', upperLength(runes, at, n, r)];
  if (isAlphabet(r)) return ['alphabet', rest(lowerLetter)];
  if (isNumber(r)) return ['number', rest(isNumber)];
  return ['other', rest((c) => !(isConnector(c) || isAlphabet(c) || isNumber(c) || isPunct(c)))];
}

/** The words of a text, in order. */
function words(text: string): Word[] {
  const runes = [...text];
  const out: Word[] = [];
  for (let at = 0; at < runes.length;) {
    const [kind, length] = wordLength(runes, at);
    out.push({ kind, text: runes.slice(at, at + length).join('') });
    at += length;
  }
  return out;
}

/** xstrings toLower: upper-case words and connectors lower-cased (connectors become the connector). */
function lowered(word: Word, connector: string): string {
  if (word.kind !== 'upper' && word.kind !== 'connector') return word.text;
  return [...word.text].map((c) => (isConnector(c) ? connector : isUpper(c) ? single(c, c.toLowerCase()) : c)).join('');
}
const single = (c: string, mapped: string) => ([...mapped].length === 1 ? mapped : c);

/** camelCaseToLowerCase: the words lower-cased and joined by the connector. */
export function lowerWords(text: string, connector: string): string {
  const list = words(text);
  if (list.length === 0) return '';
  const state = { i: 0, out: '' };
  const at = () => list[state.i] ?? { kind: 'invalid' as Kind, text: '' };
  const write = (w: Word) => (state.out += lowered(w, connector));
  const letters = () => {
    while (at().kind === 'alphabet' || at().kind === 'number') write(list[state.i++]!);
  };
  const glue = () => !['invalid', 'punct', 'connector'].includes(at().kind);
  while (state.i < list.length - 1) {
    const prev = list[state.i]!;
    if (prev.kind !== 'connector') write(prev);
    state.i++;
    if (prev.kind === 'number') {
      letters();
      if (glue()) state.out += connector;
    } else if (prev.kind === 'connector') write(prev);
    else if (prev.kind !== 'punct') afterWord(list, state, { write, letters, glue, connector });
  }
  if (state.i < list.length) write(list[state.i]!);
  return state.out;
}

interface Helpers {
  write: (w: Word) => void;
  letters: () => void;
  glue: () => boolean;
  connector: string;
}

/** The `default` case: after a word of letters, a number joins the next letters with a connector. */
function afterWord(list: Word[], state: { i: number; out: string }, h: Helpers): void {
  const current = list[state.i]!;
  const apart = () => !['punct', 'connector'].includes(list[state.i]!.kind);
  if (current.kind !== 'number') {
    if (apart()) state.out += h.connector;
    return;
  }
  if (state.i === list.length - 1) return;
  state.i++;
  if (list[state.i]!.kind !== 'alphabet') {
    h.write(current);
    if (apart()) state.out += h.connector;
    return;
  }
  state.out += h.connector;
  h.write(current);
  h.letters();
  if (h.glue()) state.out += h.connector;
}

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

/** The length of the run of runes from `from` that `keep` accepts. */
function run(runes: string[], from: number, keep: (c: string) => boolean): number {
  let end = from;
  while (end < runes.length && keep(runes[end]!)) end++;
  return end - from;
}

/** nextWord: the kind and length (in runes) of the word at the start. */
function wordLength(runes: string[], at: number): [Kind, number] {
  const r = runes[at]!;
  if (r === '\uFFFD') return ['invalid', 1];
  if (isConnector(r)) return ['connector', 1 + run(runes, at + 1, isConnector)];
  if (isPunct(r)) return ['punct', 1 + run(runes, at + 1, isPunct)];
  const lowerLetter = (c: string) => isAlphabet(c) && !isUpper(c);
  if (isUpper(r)) {
    const next = runes[at + 1];
    if (next === undefined) return ['upper', 1];
    if (isUpper(next)) {
      const ups = 1 + run(runes, at + 2, isUpper);
      const after = runes[at + 1 + ups];
      return ['upper', after !== undefined && isAlphabet(after) ? ups : ups + 1];
    }
    return ['upper', isAlphabet(next) ? 1 + run(runes, at + 1, lowerLetter) : 1];
  }
  if (isAlphabet(r)) return ['alphabet', 1 + run(runes, at + 1, lowerLetter)];
  if (isNumber(r)) return ['number', 1 + run(runes, at + 1, isNumber)];
  const other = (c: string) => !(isConnector(c) || isAlphabet(c) || isNumber(c) || isPunct(c) || c === '\uFFFD');
  return ['other', 1 + run(runes, at + 1, other)];
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

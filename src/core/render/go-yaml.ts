// How kustomize-controller's YAML round trip reads an object it substitutes (fluxcd/pkg
// kustomize/kustomize_varsub.go): go-yaml v2 writes the object (go-yaml-emit.ts), envsubst runs on that
// text, and sigs.k8s.io/yaml YAMLToJSON reads the whole document back with go-yaml v2. A plain scalar is
// typed by YAML 1.1 rules (resolve.go) — `3` an integer, `yes`/`on`/`y` true, `~` null, `0777` octal, a
// timestamp stays a string — and a key is typed the same way, then written as text as YAMLToJSON writes
// it (`true`, `16`). A result that is not YAML fails the build with go-yaml's message (go-yaml-errors.ts).
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { goParseError } from './go-yaml-errors.js';

/** go-yaml v2's is_printable: a tab, NEL and characters outside the Basic Multilingual Plane are not. */
export function isPrintable(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff)
  );
}

/** go-yaml v2's is_break. */
export function isBreak(ch: string): boolean {
  return ch !== '' && '\n\r\u0085\u2028\u2029'.includes(ch);
}

interface Analysis {
  blockPlain: boolean;
  single: boolean;
  block: boolean;
  multiline: boolean;
}

/** go-yaml v2's yaml_emitter_analyze_scalar, for a scalar in block context. */
export function analyzeScalar(value: string): Analysis {
  const chars = [...value];
  let indicators = value.startsWith('---') || value.startsWith('...');
  let [leadingSpace, leadingBreak, trailingSpace, trailingBreak] = [false, false, false, false];
  let [breakSpace, spaceBreak, special, lineBreaks, prevSpace, prevBreak] = [false, false, false, false, false, false];
  let precededByWhitespace = true;
  chars.forEach((ch, i) => {
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || next === ' ' || next === '\t';
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) indicators = true;
      if ((ch === '?' || ch === ':' || ch === '-') && followedByWhitespace) indicators = true;
    } else {
      if (ch === ':' && followedByWhitespace) indicators = true;
      if (ch === '#' && precededByWhitespace) indicators = true;
    }
    if (!isPrintable(ch)) special = true;
    const last = i === chars.length - 1;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      [prevSpace, prevBreak] = [true, false];
    } else if (isBreak(ch)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      [prevSpace, prevBreak] = [false, true];
    } else [prevSpace, prevBreak] = [false, false];
    precededByWhitespace = ch === ' ' || ch === '\t' || ch === '\0' || isBreak(ch);
  });
  const edges = leadingSpace || leadingBreak || trailingSpace || trailingBreak;
  return {
    blockPlain: !(edges || breakSpace || spaceBreak || special || lineBreaks || indicators),
    single: !(breakSpace || spaceBreak || special),
    block: chars.length > 0 && !(trailingSpace || spaceBreak || special),
    multiline: lineBreaks,
  };
}

const MAPPED: Record<string, unknown> = {
  ...Object.fromEntries(
    ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((s) => [s, true]),
  ),
  ...Object.fromEntries(
    ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((s) => [s, false]),
  ),
  ...Object.fromEntries(['', '~', 'null', 'Null', 'NULL'].map((s) => [s, null])),
  ...Object.fromEntries(['.nan', '.NaN', '.NAN'].map((s) => [s, NaN])),
  ...Object.fromEntries(['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s) => [s, Infinity])),
  ...Object.fromEntries(['-.inf', '-.Inf', '-.INF'].map((s) => [s, -Infinity])),
};

/** Go's strconv.ParseInt(s, 0, 64), falling back to ParseUint: a number, or undefined when it fails. */
function goInteger(text: string): number | undefined {
  const match = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (!match) return undefined;
  const digits = match[2]!;
  const literal = /^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits;
  const value = (match[1] === '-' ? -1n : 1n) * BigInt(literal);
  if (value < -(2n ** 63n) || value >= 2n ** 64n || (match[1] === '-' && value >= 2n ** 63n)) return undefined;
  return Number(value);
}

/** A plain scalar as go-yaml v2 resolves it (resolve.go), decoded into interface{}. */
export function resolvePlain(text: string): unknown {
  if (text in MAPPED) return MAPPED[text];
  const first = text[0] ?? '';
  if (first === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(text) ? Number(text) : text;
  if (!/[-+0-9]/.test(first)) return text;
  const plain = text.replace(/_/g, '');
  const integer = goInteger(plain);
  if (integer !== undefined) return integer;
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) return Number(plain);
  return text;
}

export type ReadBack = { value: unknown } | { failure: string };

class JsonFailure extends Error {}

/** Go's strconv.FormatFloat(f, 'g', -1, 32): the shortest text that reads back as the same float32. */
function float32Text(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
  const single = Math.fround(value);
  let shortest = single;
  for (let precision = 1; precision <= 9; precision++) {
    shortest = Number(single.toPrecision(precision));
    if (Math.fround(shortest) === single) break;
  }
  const [mantissa, exponent] = shortest.toExponential().split('e') as [string, string];
  const power = Number(exponent);
  if (power >= -4 && power < 6) return String(shortest);
  return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

/** A plain key as go-yaml v2 types it, turned into text as sigs.k8s.io/yaml's convertToJSONableObject does. */
function plainKey(text: string): string {
  const value = resolvePlain(text);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value === null)
    throw new JsonFailure(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${JSON.stringify(text)}`);
  const integer = goInteger(text.replace(/_/g, ''));
  return integer !== undefined ? String(integer) : float32Text(value as number);
}

/** Bounds alias expansion, as go-yaml v2 refuses a document that aliases excessively. */
const MAX_NODES = 200_000;

/** The node as sigs.k8s.io/yaml's YAMLToJSON gives it: plain scalars typed, keys as text. */
function toJson(node: YamlNode | null | undefined, document: Document, budget: { nodes: number }): unknown {
  if (--budget.nodes < 0) throw new JsonFailure('yaml: document contains excessive aliasing');
  if (isAlias(node)) {
    const target = node.resolve(document);
    if (!target) throw new JsonFailure(`yaml: unknown anchor '${node.source}' referenced`);
    return toJson(target, document, budget);
  }
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const key = pair.key as YamlNode;
      const text = isScalar(key) && key.type === 'PLAIN' && !key.tag ? plainKey(String(key.value ?? '')) : undefined;
      out[text ?? String(toJson(key, document, budget))] = toJson(pair.value as YamlNode, document, budget);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => toJson(item as YamlNode, document, budget));
  if (!isScalar(node)) return null;
  const text = String(node.value ?? '');
  const value = node.type === 'PLAIN' && !node.tag ? resolvePlain(text) : text;
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new JsonFailure(`json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
  return value;
}

/** libyaml's line breaks that the JavaScript reader keeps as text: a lone CR and NEL end a line. */
function goLineBreaks(text: string): string {
  return text.replace(/\r(?!\n)|\u0085/g, '\n');
}

/** sigs.k8s.io/yaml YAMLToJSON of a whole text: its value, or go-yaml's error (`yaml: line 7: …`). */
export function yamlToJson(text: string): ReadBack {
  const source = goLineBreaks(text);
  const document = parseDocument(source, { schema: 'failsafe', uniqueKeys: false });
  const error = document.errors[0];
  if (error) return { failure: goParseError(source, error) };
  try {
    return { value: toJson(document.contents, document, { nodes: MAX_NODES }) };
  } catch (failure) {
    if (failure instanceof JsonFailure) return { failure: failure.message };
    throw failure;
  }
}

/** What YAMLToJSON makes of the substituted document, or the error kustomize-controller reports. */
export function readDocument(text: string): ReadBack {
  const read = yamlToJson(text);
  return 'failure' in read ? { failure: `envsubst error: YAMLToJSON: ${read.failure}` } : read;
}

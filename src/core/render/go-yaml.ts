// How kustomize-controller's YAML round trip treats one string field of an object it substitutes
// (fluxcd/pkg kustomize/kustomize_varsub.go): the resource is written as YAML by go-yaml v2
// (`res.AsYAML()` = sigs.k8s.io/yaml JSONToYAML: the file's own quoting is gone), envsubst runs on that
// text, and go-yaml v2 reads it back (YAMLToJSON). go-yaml v2 writes a string that holds `${` plainly
// unless its emitter forbids that (an indicator at the start, `: `, ` #`, spaces at an end: single
// quotes; a character it must escape: double quotes; a line break: a literal block). On the way back a
// plain scalar is typed by YAML 1.1 rules: `3` an integer, `yes`/`on`/`y` true, `~` null, `0777` octal;
// a timestamp stays a string. A result that is not YAML fails the build, as it fails Flux's.
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode } from 'yaml';

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** The characters libyaml's emitter treats as printable (a tab is not). */
function printable(code: number): boolean {
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    code === 0x85 ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff) ||
    code >= 0x10000
  );
}

const BREAKS = '\n\r\u0085\u2028\u2029';

interface Analysis {
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar, for a scalar in block context (a mapping value or a list item). */
export function analyzeScalar(value: string): Analysis {
  const chars = [...value];
  let indicators = value.startsWith('---') || value.startsWith('...');
  let [leadingSpace, leadingBreak, trailingSpace, trailingBreak] = [false, false, false, false];
  let [breakSpace, spaceBreak, special, lineBreaks, prevSpace, prevBreak] = [false, false, false, false, false, false];
  let precededByWhitespace = true;
  chars.forEach((ch, i) => {
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || next === ' ' || next === '\t' || BREAKS.includes(next);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) indicators = true;
      if ((ch === '?' || ch === ':' || ch === '-') && followedByWhitespace) indicators = true;
    } else {
      if (ch === ':' && followedByWhitespace) indicators = true;
      if (ch === '#' && precededByWhitespace) indicators = true;
    }
    if (!printable(ch.codePointAt(0)!) || ch === '\ufeff') special = true;
    if (BREAKS.includes(ch)) lineBreaks = true;
    const last = i === chars.length - 1;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      [prevSpace, prevBreak] = [true, false];
    } else if (BREAKS.includes(ch)) {
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      [prevSpace, prevBreak] = [false, true];
    } else [prevSpace, prevBreak] = [false, false];
    precededByWhitespace = ch === ' ' || ch === '\t' || BREAKS.includes(ch);
  });
  const edges = leadingSpace || leadingBreak || trailingSpace || trailingBreak;
  return {
    blockPlain: !(edges || breakSpace || spaceBreak || special || lineBreaks || indicators),
    single: !(breakSpace || spaceBreak || special),
    block: !(trailingSpace || spaceBreak || special),
  };
}

/** The style go-yaml v2 writes a string in, as a mapping value or list item (for text holding `${`). */
export function scalarStyle(value: string): ScalarStyle {
  if (value === '') return 'double';
  const analysis = analyzeScalar(value);
  if (value.includes('\n')) return analysis.block ? 'literal' : 'double';
  if (analysis.blockPlain) return 'plain';
  return analysis.single ? 'single' : 'double';
}

const ESCAPES: Record<string, string> = {
  '\0': '0',
  '\x07': 'a',
  '\b': 'b',
  '\t': 't',
  '\n': 'n',
  '\v': 'v',
  '\f': 'f',
  '\r': 'r',
  '\x1b': 'e',
  '"': '"',
  '\\': '\\',
  '\u0085': 'N',
  '\u00a0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

function doubleQuoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ESCAPES[ch] !== undefined) out += `\\${ESCAPES[ch]}`;
    else if (printable(code) && code !== 0xfeff) out += ch;
    else if (code <= 0xff) out += `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += `\\U${code.toString(16).toUpperCase().padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** A literal block as libyaml writes it under a mapping key (indent 2, chomping from the end). */
function literalBlock(value: string): string {
  const indentHint = value.startsWith(' ') || value.startsWith('\n') ? '2' : '';
  const chomp = !value.endsWith('\n') ? '-' : value === '\n' || value.endsWith('\n\n') ? '+' : '';
  const body = (value.endsWith('\n') ? value.slice(0, -1) : value).split('\n');
  return `|${indentHint}${chomp}\n${body.map((line) => (line === '' ? '' : `  ${line}`)).join('\n')}`;
}

/** The scalar's text as go-yaml v2 writes it after `key: `. */
export function emitScalar(value: string): string {
  const style = scalarStyle(value);
  if (style === 'plain') return value;
  if (style === 'single') return `'${value.replace(/'/g, "''")}'`;
  if (style === 'double') return doubleQuoted(value);
  return literalBlock(value);
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

/** A YAML parse error as go-yaml words it: its first line, without the position. */
function yamlError(message: string): string {
  return `yaml: ${message.split('\n')[0]!.replace(/ at line \d+, column \d+:$/, '')}`;
}

/** sigs.k8s.io/yaml YAMLToJSON of a whole text: the first document, plain scalars typed as go-yaml v2 types them. */
export function yamlToJson(text: string): ReadBack {
  const document = parseDocument(text, { schema: 'failsafe', uniqueKeys: false });
  const error = document.errors[0];
  if (error) return { failure: yamlError(error.message) };
  try {
    return { value: toJson(document.contents as YamlNode | null, document) };
  } catch (failure) {
    if (failure instanceof JsonFailure) return { failure: failure.message };
    throw failure;
  }
}

/** The node as sigs.k8s.io/yaml's YAMLToJSON gives it: plain scalars typed, keys as text. */
function toJson(node: YamlNode | null | undefined, document: Document): unknown {
  if (isAlias(node)) {
    const target = node.resolve(document);
    if (!target) throw new JsonFailure(`yaml: unknown anchor '${node.source}' referenced`);
    return toJson(target, document);
  }
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items)
      out[String(toJson(pair.key as YamlNode, document))] = toJson(pair.value as YamlNode, document);
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => toJson(item as YamlNode, document));
  if (!isScalar(node)) return null;
  const text = String(node.value ?? '');
  const value = node.type === 'PLAIN' && !node.tag ? resolvePlain(text) : text;
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new JsonFailure(`json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
  return value;
}

/**
 * The value kustomize-controller reads back for a field whose substituted YAML text (as `emitScalar`
 * wrote it, then envsubst changed it) follows `key: `; or why YAMLToJSON fails on it.
 */
export function readBack(substituted: string): ReadBack {
  const document = parseDocument(`k: ${substituted}\n`, { schema: 'failsafe', uniqueKeys: false });
  const error = document.errors[0];
  if (error) return { failure: `envsubst error: YAMLToJSON: ${yamlError(error.message)}` };
  const root = document.contents;
  if (!isMap(root) || root.items.length !== 1)
    return { failure: 'envsubst error: YAMLToJSON: yaml: the substituted value changes the structure around it' };
  try {
    return { value: toJson(root.items[0]!.value as YamlNode, document) };
  } catch (failure) {
    if (failure instanceof JsonFailure) return { failure: `envsubst error: YAMLToJSON: ${failure.message}` };
    throw failure;
  }
}

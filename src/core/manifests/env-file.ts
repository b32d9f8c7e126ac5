// An env file of a configMapGenerator / secretGenerator (`envs:`), read as kustomize 5.7.1 reads it
// (api/kv/kv.go keyValuesFromLines, with kustomize's FieldValidator, which checks no key):
// - lines as Go's bufio.Scanner splits them: at "\n", one trailing "\r" dropped; a line of more than
//   65,535 bytes ("\r" included) stops the reading there, silently: it and every later line are left out;
// - a UTF-8 byte order mark is dropped from the first line only;
// - leading white space (Go's unicode.IsSpace) is dropped; then an empty line or one starting with `#`
//   is skipped;
// - the key is everything before the first `=`, the value everything after it, as written (no quotes
//   removed, trailing spaces kept); `KEY=` and `KEY` (no `=`) are the empty string; a line starting
//   with `=` has no key and is skipped, like a comment.
// Verified against `kubectl kustomize` on test/fixtures/kustomize-oracle/env-file*.

export interface EnvPair {
  key: string;
  value: string;
  /** 1-based line of the file. */
  line: number;
}

/** bufio.MaxScanTokenSize: the longest line, newline included, Go's line scanner reads. */
const MAX_LINE_BYTES = 64 * 1024;

/** unicode.IsSpace: Latin-1's spaces (NEL and no-break space included) and Unicode's White_Space. */
const LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

export function readEnvFile(text: string): EnvPair[] {
  const pairs: EnvPair[] = [];
  const lines = text.split('\n');
  // A final newline ends the last line; it does not start an empty one.
  if (lines.at(-1) === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    // The scanner's buffer holds the line and one more byte (its newline, or the end of the file).
    if (Buffer.byteLength(raw, 'utf8') + 1 > MAX_LINE_BYTES) break;
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (index === 0) line = line.replace(/^\uFEFF/, '');
    line = line.replace(LEADING_SPACE, '');
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const key = eq < 0 ? line : line.slice(0, eq);
    if (key === '') continue;
    pairs.push({ key, value: eq < 0 ? '' : line.slice(eq + 1), line: index + 1 });
  }
  return pairs;
}

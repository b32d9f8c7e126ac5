// Patterns a repository or a snapshot supplies are compiled as RE2, the syntax kustomize and Argo CD
// use (Go's regexp), and matched in time linear in the text: a pattern like `(a+)+b` that would make
// a backtracking engine run for hours is matched as fast as any other. re2js is a port of RE2/J,
// itself a port of Go's regexp, so a pattern accepted there is accepted here, with Go's messages.
import { RE2JS } from 're2js';

/** A compiled pattern: `test` says whether the whole text matches. */
export interface Pattern {
  test(text: string): boolean;
}

export type CompiledPattern = { ok: true; pattern: Pattern } | { ok: false; message: string };

/**
 * `source` as an RE2 pattern that must match the whole text: `^(?:source)$`, the anchoring kustomize
 * gives every selector field (api/types/selector.go anchorRegex). Refused: what RE2 refuses
 * (backreferences, lookaround, possessive repeats, counts over 1000), with Go's message.
 */
export function compileAnchored(source: string): CompiledPattern {
  return compileRe2(`^(?:${source})$`);
}

/** `source` as an RE2 pattern, used as written (anchor it yourself). */
export function compileRe2(source: string): CompiledPattern {
  try {
    const compiled = RE2JS.compile(source);
    return { ok: true, pattern: { test: (text) => compiled.test(text) } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `${message}${LINEAR_ONLY}` };
  }
}

/** One match: each group's text (null where the group took no part; 0 is the whole match) and where it is. */
export interface RegexMatch {
  groups: Array<string | null>;
  start: number;
  end: number;
}

/** An RE2 pattern that finds matches, searching on from an index with the whole text as context. */
export interface Finder {
  find(text: string, from: number): RegexMatch | undefined;
  /** Group names by group number ('' for an unnamed group). */
  names: string[];
}

/** `source` as Go's regexp.Compile reads it, or Go's parse error (`error parsing regexp: …`). */
export function compileFinder(source: string): { ok: true; finder: Finder } | { ok: false; message: string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const names = Array.from({ length: compiled.groupCount() + 1 }, () => '');
  for (const [name, index] of Object.entries(compiled.namedGroups())) names[index] = name;
  const find = (text: string, from: number): RegexMatch | undefined => {
    const matcher = compiled.matcher(text);
    if (!matcher.find(from)) return undefined;
    const groups = names.map((_, i) => matcher.group(i));
    return { groups, start: matcher.start(), end: matcher.end() };
  };
  return { ok: true, finder: { find, names } };
}

const LINEAR_ONLY = ' (patterns are RE2, as in kustomize and Argo CD: no backreferences or lookaround)';

/** Text quoted so RE2 matches it literally. */
export function quoteRe2(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

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

const LINEAR_ONLY = ' (patterns are RE2, as in kustomize and Argo CD: no backreferences or lookaround)';

/** Text quoted so RE2 matches it literally. */
export function quoteRe2(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

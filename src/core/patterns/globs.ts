// Globs from a repository, translated to RE2 (re2.ts) so they match in linear time too: a glob
// compiled to a backtracking RegExp (`*a*a*a*…b`, or an extglob like `+(a|aa)`) can take
// exponential time on a long name. Two dialects:
// - Argo CD directory include/exclude: github.com/gobwas/glob compiled without separators, as
//   reposerver/repository/repository.go does: `*`, `**` and `?` also cross `/`.
// - driftback's own config (ignore rules, manager lists): `*` and `?` stay within one `/` segment,
//   `**` crosses them, a leading `!` negates; dotfiles are not special.
// Both take `{a,b}` alternatives, `[abc]` / `[!abc]` / `[a-z]` classes and `\` escapes.
import { compileRe2, quoteRe2, type CompiledPattern, type Pattern } from './re2.js';

type Dialect = 'argocd' | 'config' | 'doublestar';

function classAt(glob: string, at: number): { source: string; end: number } | undefined {
  const end = glob.indexOf(']', at + 1);
  if (end < 0) return undefined;
  const body = glob
    .slice(at + 1, end)
    .replace(/^!/, '^')
    .replace(/\\/g, '\\\\');
  return { source: `[${body}]`, end };
}

/**
 * doublestar's `**` at the start of a segment at `at`: a whole segment is zero or more directories;
 * followed by more of its segment, it is a `*`. `last`: the index of the last character it takes.
 */
function doubleStar(glob: string, at: number): { source: string; last: number } {
  let end = at + 1;
  while (glob[end + 1] === '*') end++;
  if (glob[end + 1] === '/') return { source: '(?:.*/)?', last: end + 1 };
  if (end + 1 === glob.length) return { source: '.*', last: end };
  return { source: '[^/]*', last: end };
}

/** The RE2 source a glob stands for (unanchored). */
function globSource(glob: string, dialect: Dialect): string {
  const any = dialect === 'argocd' ? '.' : '[^/]';
  let source = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const segmentStart = i === 0 || glob[i - 1] === '/';
    if (c === '\\' && i + 1 < glob.length) source += quoteRe2(glob[++i]!);
    else if (dialect === 'doublestar' && c === '*' && glob[i + 1] === '*' && segmentStart) {
      const star = doubleStar(glob, i);
      [source, i] = [source + star.source, star.last];
    } else if (c === '*' && glob[i + 1] === '*' && dialect !== 'doublestar') {
      source += '.*';
      while (glob[i + 1] === '*') i++;
    } else if (c === '*') source += `${any}*`;
    else if (c === '?') source += any;
    else if (c === '{') {
      source += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      source += ')';
      depth--;
    } else if (c === ',' && depth > 0) source += '|';
    else if (c === '[' && classAt(glob, i)) {
      const found = classAt(glob, i)!;
      source += found.source;
      i = found.end;
    } else source += quoteRe2(c);
  }
  return source + ')'.repeat(depth);
}

function compileGlob(glob: string, dialect: Dialect): CompiledPattern {
  const compiled = compileRe2(`(?s)^(?:${globSource(glob, dialect)})$`);
  return compiled.ok ? compiled : { ok: false, message: `glob "${glob}": ${compiled.message}` };
}

/** An Argo CD `directory.include` / `directory.exclude` glob. */
export function compileArgoGlob(glob: string): CompiledPattern {
  return compileGlob(glob, 'argocd');
}

/**
 * A doublestar glob (github.com/bmatcuk/doublestar FilepathGlob, Argo CD's helm `valueFiles`): `*`, `?`
 * and classes within one segment, `**` as a whole segment any number of directories, `{a,b}`.
 */
export function compileDoublestarGlob(glob: string): CompiledPattern {
  return compileGlob(glob, 'doublestar');
}

/**
 * Config globs: the text matches when any glob matches it (a glob with a leading `!` matches what
 * the rest does not). A glob RE2 refuses is reported; the others still apply.
 */
export function compileConfigGlobs(globs: readonly string[]): { matches: Pattern; problems: string[] } {
  const problems: string[] = [];
  const tests: Pattern[] = [];
  for (const glob of globs) {
    const negated = glob.startsWith('!') && glob.length > 1;
    const compiled = compileGlob(negated ? glob.slice(1) : glob, 'config');
    if (!compiled.ok) problems.push(compiled.message);
    else tests.push(negated ? { test: (text) => !compiled.pattern.test(text) } : compiled.pattern);
  }
  // An empty text (a cluster-scoped object's namespace) matches no glob: `namespaces: ['*']` means namespaced objects.
  return { matches: { test: (text) => text !== '' && tests.some((pattern) => pattern.test(text)) }, problems };
}

/**
 * A shell pattern of Flux's envsubst (`${VAR#pattern}`; its fork of Go's path.Match): `*` and `?` stay
 * within one `/` segment, except that a trailing `*` takes the rest; `[abc]`, `[^abc]`, `\` escapes.
 */
export function compilePathGlob(glob: string, trailingStarTakesRest = true): CompiledPattern {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += trailingStarTakesRest && i === glob.length - 1 ? '.*' : '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '\\' && i + 1 < glob.length) source += quoteRe2(glob[++i]!);
    else if (c === '[' && classAt(glob, i)) {
      const found = classAt(glob, i)!;
      source += found.source;
      i = found.end;
    } else source += quoteRe2(c);
  }
  const compiled = compileRe2(`(?s)^(?:${source})$`);
  return compiled.ok ? compiled : { ok: false, message: `pattern "${glob}": ${compiled.message}` };
}

/**
 * A pattern of Go's path.Match (the ApplicationSet git directories generator): as above, but a trailing
 * `*` stays within its segment too.
 */
export function compileGoPathMatch(glob: string): CompiledPattern {
  return compilePathGlob(glob, false);
}

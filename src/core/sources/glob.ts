// Argo CD directory include/exclude globs (github.com/gobwas/glob compiled without separators, as
// reposerver/repository/repository.go does): `*` and `?` also cross `/`, `{a,b}` alternatives,
// `[abc]` classes.
export function globMatcher(pattern: string): (path: string) => boolean {
  let source = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '{') {
      source += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      source += ')';
      depth--;
    } else if (c === ',' && depth > 0) source += '|';
    else if (c === '[') {
      const end = pattern.indexOf(']', i);
      if (end < 0) source += '\\[';
      else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else source += c.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
}

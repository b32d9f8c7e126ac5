// The one gate every ref write passes: the App writes only branches under its own prefix and
// never the default branch, so a bug elsewhere cannot overwrite people's work.
export class ForbiddenRefError extends Error {
  constructor(
    readonly ref: string,
    reason: string,
  ) {
    super(`refusing to write ${ref}: ${reason}`);
    this.name = 'ForbiddenRefError';
  }
}

/**
 * Accepts `refs/heads/<name>`, `heads/<name>` or `<name>`; returns the branch name when it is the
 * App's to write, throws ForbiddenRefError otherwise.
 */
export function assertOwnBranch(ref: string, prefix: string, defaultBranch: string): string {
  if (prefix.trim() === '')
    throw new ForbiddenRefError(ref, 'no branch prefix is configured (pullRequests.branchPrefix)');
  if (ref.startsWith('refs/') && !ref.startsWith('refs/heads/'))
    throw new ForbiddenRefError(ref, 'only branches (refs/heads/…) are written');
  const branch = ref.replace(/^refs\/heads\//, '').replace(/^heads\//, '');
  if (branch === defaultBranch || branch === `refs/heads/${defaultBranch}`)
    throw new ForbiddenRefError(ref, `it is the default branch (${defaultBranch})`);
  if (!branch.startsWith(prefix) || branch.length === prefix.length)
    throw new ForbiddenRefError(ref, `it is outside the branch prefix "${prefix}"`);
  // `..`, empty segments and other tricks could name a ref outside the prefix after normalisation.
  if (
    branch.split('/').some((segment) => segment === '' || segment === '.' || segment === '..') ||
    /[\s~^:?*[\\]|\.\.|@\{/.test(branch)
  ) {
    throw new ForbiddenRefError(ref, 'it is not a valid branch name');
  }
  return branch;
}

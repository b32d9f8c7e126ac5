// Whether the App itself wrote a comment, an issue or a pull request. A marker in a body says which
// of the App's documents it is, and a branch name which drift branch a PR is from, but anyone can
// type either: only what GitHub attributes to the App is adopted (GitHub sets
// `performed_via_github_app` to the App that acted, and the author to `<slug>[bot]`).

/** The App as GitHub names it: its numeric id and, when known, its bot login `<slug>[bot]`. */
export interface AppIdentity {
  appId: number;
  login?: string;
}

export interface Authored {
  user?: { login?: string; type?: string } | null;
  performed_via_github_app?: { id?: number } | null;
}

export function isAppAuthored(item: Authored, app: AppIdentity): boolean {
  if (item.user?.type !== 'Bot') return false;
  if (item.performed_via_github_app?.id === app.appId) return true;
  return app.login !== undefined && item.user.login === app.login;
}

export interface AuthoredPull {
  number: number;
  user?: { login?: string; type?: string } | null;
  head: { ref: string; repo?: { full_name?: string } | null };
}

/**
 * A pull request is the App's when the App opened it from its branch in this repository: GitHub names
 * the App's bot user as the author, and the head is that branch of this repository (never a fork's
 * branch of the same name). Without the bot login (GitHub could not say), only the PR the App
 * recorded opening (`opened`) is its own.
 */
export function isAppPullRequest(
  pull: AuthoredPull,
  app: AppIdentity,
  from: { owner: string; repo: string; branch: string; opened?: number },
): boolean {
  if (pull.head.ref !== from.branch) return false;
  if (pull.head.repo?.full_name?.toLowerCase() !== `${from.owner}/${from.repo}`.toLowerCase()) return false;
  if (app.login === undefined) return pull.number === from.opened;
  return pull.user?.type === 'Bot' && pull.user.login === app.login;
}

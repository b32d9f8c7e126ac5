// Whether the App itself wrote a comment or an issue. A marker in a body says which of the App's
// documents it is, but anyone can type a marker: only what GitHub attributes to the App is adopted
// (GitHub sets `performed_via_github_app` to the App that acted, and the author to `<slug>[bot]`).

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

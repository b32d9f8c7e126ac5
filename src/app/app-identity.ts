// Who the App is on GitHub: its id (APP_ID) and its bot login. What it wrote (comments, issues,
// commits) is recognised by them.
import type { Probot } from 'probot';
import type { AppIdentity } from '../github/index.js';

/** `<slug>[bot]`, asked once; undefined when GitHub cannot say (the App's own commit list still works). */
function appLoginOf(app: Probot): () => Promise<string | undefined> {
  let login: Promise<string | undefined> | undefined;
  return () => {
    login ??= app
      .auth()
      .then(async (octokit) => {
        const { data } = await octokit.rest.apps.getAuthenticated();
        return data?.slug ? `${data.slug}[bot]` : undefined;
      })
      .catch((error: unknown) => {
        app.log.warn({ err: error }, "could not read the App's slug; its commits are recognised by sha only");
        login = undefined;
        return undefined;
      });
    return login;
  };
}

export function appIdentityOf(app: Probot, appId: number): () => Promise<AppIdentity> {
  const appLogin = appLoginOf(app);
  return async () => {
    const login = await appLogin();
    return { appId, ...(login ? { login } : {}) };
  };
}

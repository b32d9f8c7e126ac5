// The stand-in's GraphQL endpoint: the one query the App sends (a repository's default branch and
// its HEAD commit), answered in GitHub's shape. GitHub answers 200 with an `errors` list for a query
// it cannot resolve; so does the stand-in, and for any query it does not know.
import type { Router, RouteContext } from './http-kit.js';
import type { StandInState } from './state.js';

type Context = RouteContext<StandInState>;

/** `repository(owner: $owner, name: $name) { defaultBranchRef { name target { oid } } }`, spacing aside. */
const DEFAULT_HEAD =
  /^query(\s*\([^)]*\))?\s*\{\s*repository\s*\(\s*owner\s*:\s*\$owner\s*,\s*name\s*:\s*\$name\s*\)\s*\{\s*defaultBranchRef\s*\{\s*name\s+target\s*\{\s*oid\s*\}\s*\}\s*\}\s*\}$/;

function defaultHead(context: Context, variables: Record<string, unknown>): unknown {
  const owner = String(variables.owner ?? '');
  const name = String(variables.name ?? '');
  const repo = context.state.repos.get(`${owner}/${name}`.toLowerCase());
  if (!repo)
    return {
      data: { repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          locations: [{ line: 1, column: 1 }],
          message: `Could not resolve to a Repository with the name '${owner}/${name}'.`,
        },
      ],
    };
  const oid = repo.refs.get(`refs/heads/${repo.defaultBranch}`);
  // An empty repository has no default branch ref.
  return {
    data: { repository: { defaultBranchRef: oid ? { name: repo.defaultBranch, target: { oid } } : null } },
  };
}

export function registerGraphqlRoutes(router: Router<StandInState>): void {
  router.add('POST', '/graphql', (context) => {
    const query = String(context.body?.query ?? '').trim();
    const variables = (context.body?.variables ?? {}) as Record<string, unknown>;
    if (DEFAULT_HEAD.test(query)) return { status: 200, body: defaultHead(context, variables) };
    return { status: 200, body: { errors: [{ message: `the stand-in does not answer this query: ${query}` }] } };
  });
}

// Routing, errors and pagination for the GitHub stand-in, shaped like GitHub's REST API answers.
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Bytes sent as they are (an archive), with their content type. */
  bytes?: { data: Buffer; contentType: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: unknown[],
  ) {
    super(message);
  }

  toReply(): Reply {
    return {
      status: this.status,
      body: {
        message: this.message,
        documentation_url: 'https://docs.github.com/rest',
        ...(this.errors ? { errors: this.errors } : {}),
        status: String(this.status),
      },
    };
  }
}

export const notFound = (): ApiError => new ApiError(404, 'Not Found');
export const unprocessable = (message: string, errors?: unknown[]): ApiError => new ApiError(422, message, errors);

export interface RouteContext<State> {
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  /** Login of the caller, from its token. */
  actor: string;
  /** Absolute request URL (for Link headers). */
  url: URL;
  state: State;
}

export type Handler<State> = (context: RouteContext<State>) => Reply;

interface Route<State> {
  method: string;
  template: string;
  segments: string[];
  handler: Handler<State>;
}

/**
 * Matches `/repos/{owner}/{repo}/git/ref/{ref+}`-style templates; a `+` parameter takes the rest of
 * the path. Segments are decoded after matching, because Octokit encodes `/` inside a parameter.
 */
export class Router<State> {
  private readonly routes: Route<State>[] = [];

  add(method: string, template: string, handler: Handler<State>): void {
    this.routes.push({
      method,
      template: template.replace('+}', '}'),
      segments: template.split('/').slice(1),
      handler,
    });
  }

  match(method: string, pathname: string): { route: Route<State>; params: Record<string, string> } | undefined {
    const parts = pathname.split('/').slice(1);
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const params = matchSegments(route.segments, parts);
      if (params) return { route, params };
    }
    return undefined;
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index];
    const param = /^\{(\w+)(\+?)\}$/.exec(segment);
    if (param?.[2] === '+') {
      if (index >= parts.length) return undefined;
      params[param[1]] = parts.slice(index).map(decodeURIComponent).join('/');
      return params;
    }
    if (index >= parts.length) return undefined;
    if (param) params[param[1]] = decodeURIComponent(parts[index]);
    else if (segment !== parts[index]) return undefined;
  }
  return segments.length === parts.length ? params : undefined;
}

/** GitHub's page/per_page pagination with a `Link` header (first, prev, next, last). */
export function paginate<T>(context: RouteContext<unknown>, items: T[], wrap?: (page: T[]) => unknown): Reply {
  const perPage = Math.min(Math.max(Number(context.query.get('per_page') ?? 30) || 30, 1), 100);
  const page = Math.max(Number(context.query.get('page') ?? 1) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (n: number, rel: string): string => {
    const target = new URL(context.url);
    target.searchParams.set('per_page', String(perPage));
    target.searchParams.set('page', String(n));
    return `<${target.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'), link(1, 'first'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  return { status: 200, body: wrap ? wrap(slice) : slice, headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

export function requireString(body: any, field: string): string {
  const value = body?.[field];
  if (typeof value !== 'string' || value === '') {
    throw unprocessable('Invalid request.', [
      { resource: 'Request', field, code: 'missing_field', message: `"${field}" wasn't supplied.` },
    ]);
  }
  return value;
}

export function optionalString(body: any, field: string): string | undefined {
  const value = body?.[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw unprocessable(`Invalid request.\n\nFor '${field}', ${JSON.stringify(value)} is not a string.`);
  return value;
}

export function checkBodyLength(body: string | undefined, field = 'body'): void {
  if (body !== undefined && body.length > 65536) {
    throw unprocessable('Validation Failed', [
      { resource: 'Issue', field, code: 'custom', message: `${field} is too long (maximum is 65536 characters)` },
    ]);
  }
}

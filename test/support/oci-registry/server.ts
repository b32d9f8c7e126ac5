// An OCI registry stand-in (distribution spec, the endpoints `helm push` and `helm pull` use) with
// token authentication as Docker's registries do it: a request without a valid token is answered 401
// with `WWW-Authenticate: Bearer realm=…,service=…,scope=…`; the realm (GET /token) issues a token,
// anonymously for public repositories, only for the configured user for repositories under a private
// prefix (an anonymous token then grants nothing there, and the registry answers 401 again). Blobs are
// served by a redirect to a second address (a "CDN", as Docker Hub's blob store is), which refuses any
// request carrying an Authorization header: credentials must not follow a redirect to another host.
// Blobs of repositories under `tampered/` come back with one byte changed, as a corrupted store would.
// The realm also exchanges an identity token (an OAuth2 refresh token) for the user's token, as the
// OAuth2 token endpoint of the distribution spec does (POST, grant_type=refresh_token); a realm that
// refuses POSTs (as GCR's does, 404) takes the identity token as Basic credentials of `<token>` on a
// GET instead. With `hostnames`, the registry answers only requests for those names (Host header).
// With `basicUser`, there is no realm: every request needs the user's Basic credentials, challenged
// with `WWW-Authenticate: Basic realm=…` (as the distribution registry's htpasswd authentication).
// With `requestLog`, each request of the realm is appended to that file (how it came, never a secret).
// While the file `passwordGrantOnly` names exists, the realm takes the user's password only in the
// OAuth2 password grant, refusing it as Basic credentials on a GET.
// Run in its own process (`node --import tsx server.ts '<json options>'`): it prints its port.
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface RegistryOptions {
  /** Repository name prefixes (`private/`) that need the user's credentials. */
  privatePrefixes?: string[];
  user?: { username: string; password: string };
  /** Tags per page of a tag list, at most (the client's `n` may ask for fewer); the next page is in a Link header. */
  pageSize?: number;
  /** An identity token the realm exchanges for a token of `user`. */
  identityToken?: string;
  /** The status the realm answers every POST with (a realm without the OAuth2 endpoint). */
  refusePost?: number;
  /** The host names the registry serves; a request naming another host is answered 421. */
  hostnames?: string[];
  basicUser?: { username: string; password: string };
  requestLog?: string;
  /** A scope the challenge names besides the repository's (space-separated, as a registry names several). */
  alsoScope?: string;
  /** While this file exists, the realm takes the user's password only in the OAuth2 password grant. */
  passwordGrantOnly?: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as RegistryOptions;
const passwordGrantOnly = () => options.passwordGrantOnly !== undefined && existsSync(options.passwordGrantOnly);
const blobs = new Map<string, Buffer>();
const manifests = new Map<string, { type: string; body: Buffer }>();
const tags = new Map<string, Set<string>>();
const uploads = new Map<string, Buffer[]>();
/** token → the user it was issued to (undefined: anonymous). */
const tokens = new Map<string, string | undefined>();
let port = 0;
let cdnPort = 0;

const sha256 = (body: Buffer) => `sha256:${createHash('sha256').update(body).digest('hex')}`;
const isPrivate = (name: string) => (options.privatePrefixes ?? []).some((p) => name.startsWith(p));

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number> = {},
  data?: Buffer | string,
) {
  res.writeHead(status, headers);
  res.end(data);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, { 'content-type': 'application/json' }, JSON.stringify(value));

/** The user Basic credentials name on a GET of the realm: the user's own, or the identity token where POSTs are refused. */
function basicUser(auth: string): string | undefined {
  const [username, password] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
    .toString()
    .split(':');
  const asUser = options.user && username === options.user.username && password === options.user.password;
  if (asUser && !passwordGrantOnly()) return username;
  const identity = options.refusePost !== undefined && username === '<token>' && password === options.identityToken;
  return identity && options.identityToken !== undefined ? options.user?.username : undefined;
}

/** The OAuth2 password grant: the user's username and password in the form. */
function passwordGrant(form: URLSearchParams, res: ServerResponse) {
  const { username, password } = options.user ?? {};
  if (form.get('username') !== username || form.get('password') !== password)
    return json(res, 401, { error: 'invalid_grant' });
  const issued = randomUUID();
  tokens.set(issued, username);
  json(res, 200, { access_token: issued, expires_in: 300 });
}

/** POST /token: the OAuth2 exchange of an identity token, every field the request must carry checked. */
async function oauthToken(req: IncomingMessage, res: ServerResponse) {
  if (options.refusePost !== undefined) return json(res, options.refusePost, { errors: [{ code: 'UNSUPPORTED' }] });
  const form = new URLSearchParams((await body(req)).toString());
  const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
  log({
    method: 'POST',
    grant: form.get('grant_type'),
    service: form.get('service'),
    clientId: form.get('client_id'),
    scopes,
  });
  const bad = (why: string) => json(res, 400, { error: 'invalid_request', error_description: why });
  if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return bad('not a form');
  if (passwordGrantOnly() && form.get('grant_type') === 'password') return passwordGrant(form, res);
  if (form.get('grant_type') !== 'refresh_token') return bad('grant_type must be refresh_token');
  if (!form.get('client_id') || form.get('service') !== 'oci-stand-in' || !form.get('scope'))
    return bad('client_id, service and scope are required');
  if (!options.identityToken || form.get('refresh_token') !== options.identityToken)
    return json(res, 401, { error: 'invalid_grant' });
  const issued = randomUUID();
  tokens.set(issued, options.user?.username);
  json(res, 200, { access_token: issued, scope: form.get('scope'), expires_in: 300 });
}

/** GET /token: Basic credentials, if any, must be the user's; the token remembers who asked. */
function token(req: IncomingMessage, res: ServerResponse) {
  if (req.method === 'POST') return void oauthToken(req, res);
  const auth = req.headers.authorization;
  const url = new URL(req.url ?? '/', 'http://stand-in');
  log({
    method: 'GET',
    service: url.searchParams.get('service'),
    scopes: url.searchParams.getAll('scope'),
    basic: !!auth,
  });
  const user = auth ? basicUser(auth) : undefined;
  if (auth && user === undefined)
    return json(res, 401, { errors: [{ code: 'UNAUTHORIZED', message: 'bad credentials' }] });
  const issued = randomUUID();
  tokens.set(issued, user);
  json(res, 200, { token: issued, access_token: issued });
}

function log(entry: object) {
  if (options.requestLog) appendFileSync(options.requestLog, `${JSON.stringify(entry)}\n`);
}

/** Whether the request carries the Basic credentials of `basicUser`; else the Basic challenge is sent. */
function basicAuthorized(req: IncomingMessage, res: ServerResponse, user: { username: string; password: string }) {
  const expected = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
  if (req.headers.authorization === expected) return true;
  send(res, 401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="oci-stand-in"' }, '{}');
  return false;
}

/** Whether the request's bearer token may reach `name`; else the 401 challenge is sent. */
function authorized(req: IncomingMessage, res: ServerResponse, name: string | undefined, actions: string): boolean {
  if (options.basicUser) return basicAuthorized(req, res, options.basicUser);
  const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const known = given !== undefined && tokens.has(given);
  if (known && (!name || !isPrivate(name) || tokens.get(given) !== undefined)) return true;
  const also = options.alsoScope ? ` ${options.alsoScope}` : '';
  const scope = name ? `,scope="repository:${name}:${actions}${also}"` : '';
  send(
    res,
    401,
    {
      'content-type': 'application/json',
      'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="oci-stand-in"${scope}`,
    },
    JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }),
  );
  return false;
}

async function blobUpload(req: IncomingMessage, res: ServerResponse, name: string, id: string | undefined, url: URL) {
  const data = await body(req);
  if (req.method === 'POST') {
    const monolithic = url.searchParams.get('digest');
    if (monolithic && sha256(data) === monolithic) {
      blobs.set(monolithic, data);
      return send(res, 201, { location: `/v2/${name}/blobs/${monolithic}`, 'docker-content-digest': monolithic });
    }
    const uuid = randomUUID();
    uploads.set(uuid, data.length ? [data] : []);
    return send(res, 202, { location: `/v2/${name}/blobs/uploads/${uuid}`, 'docker-upload-uuid': uuid, range: '0-0' });
  }
  const parts = id ? uploads.get(id) : undefined;
  if (!parts) return json(res, 404, { errors: [{ code: 'BLOB_UPLOAD_UNKNOWN' }] });
  parts.push(data);
  const all = Buffer.concat(parts);
  if (req.method === 'PATCH')
    return send(res, 202, { location: `/v2/${name}/blobs/uploads/${id}`, range: `0-${Math.max(all.length - 1, 0)}` });
  const digest = url.searchParams.get('digest') ?? '';
  if (sha256(all) !== digest) return json(res, 400, { errors: [{ code: 'DIGEST_INVALID' }] });
  blobs.set(digest, all);
  uploads.delete(id!);
  send(res, 201, { location: `/v2/${name}/blobs/${digest}`, 'docker-content-digest': digest });
}

async function manifest(req: IncomingMessage, res: ServerResponse, name: string, ref: string) {
  if (req.method === 'PUT') {
    const data = await body(req);
    const digest = sha256(data);
    const stored = { type: String(req.headers['content-type'] ?? ''), body: data };
    manifests.set(`${name}@${digest}`, stored);
    if (!ref.startsWith('sha256:')) {
      manifests.set(`${name}:${ref}`, stored);
      tags.set(name, (tags.get(name) ?? new Set()).add(ref));
    }
    return send(res, 201, { location: `/v2/${name}/manifests/${digest}`, 'docker-content-digest': digest });
  }
  const found = manifests.get(ref.startsWith('sha256:') ? `${name}@${ref}` : `${name}:${ref}`);
  if (!found) return json(res, 404, { errors: [{ code: 'MANIFEST_UNKNOWN' }] });
  const headers = {
    'content-type': found.type,
    'content-length': found.body.length,
    'docker-content-digest': sha256(found.body),
  };
  send(res, 200, headers, req.method === 'HEAD' ? undefined : found.body);
}

function blob(req: IncomingMessage, res: ServerResponse, name: string, digest: string) {
  const found = blobs.get(digest);
  if (!found) return json(res, 404, { errors: [{ code: 'BLOB_UNKNOWN' }] });
  if (req.method === 'HEAD') return send(res, 200, { 'content-length': found.length, 'docker-content-digest': digest });
  const tamper = name.startsWith('tampered/') ? '?tamper=1' : '';
  send(res, 307, { location: `http://127.0.0.2:${cdnPort}/blobs/${digest}${tamper}` });
}

/** One page of the repository's tags in lexical order, after `last`, as the distribution spec pages them. */
function tagList(res: ServerResponse, name: string, url: URL) {
  const sorted = [...(tags.get(name) ?? [])].sort();
  const last = url.searchParams.get('last');
  const rest = last === null ? sorted : sorted.filter((tag) => tag > last);
  const n = Math.min(Number(url.searchParams.get('n') ?? Infinity), options.pageSize ?? Infinity);
  const page = rest.slice(0, n);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (page.length < rest.length)
    headers.link = `</v2/${name}/tags/list?n=${Number.isFinite(n) ? n : page.length}&last=${page.at(-1)}>; rel="next"`;
  send(res, 200, headers, JSON.stringify({ name, tags: page }));
}

async function registry(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  if (url.pathname === '/token') return token(req, res);
  const named = req.headers.host?.replace(/:\d+$/, '') ?? '';
  if (options.hostnames && !options.hostnames.includes(named))
    return json(res, 421, { errors: [{ code: 'MISDIRECTED', message: `${named} is not served here` }] });
  if (url.pathname === '/v2/' || url.pathname === '/v2')
    return authorized(req, res, undefined, '') && json(res, 200, {});
  const m = /^\/v2\/(.+?)\/(tags\/list|manifests\/([^/]+)|blobs\/uploads\/?([^/]*)|blobs\/([^/]+))$/.exec(url.pathname);
  if (!m) return json(res, 404, { errors: [{ code: 'NAME_UNKNOWN' }] });
  const name = m[1]!;
  const writes = req.method !== 'GET' && req.method !== 'HEAD';
  if (!authorized(req, res, name, writes ? 'pull,push' : 'pull')) return;
  if (m[2] === 'tags/list') return tagList(res, name, url);
  if (m[3] !== undefined) return manifest(req, res, name, m[3]);
  if (m[2]!.startsWith('blobs/uploads')) return blobUpload(req, res, name, m[4] || undefined, url);
  return blob(req, res, name, m[5]!);
}

/** The blob store another host serves: a request that brought credentials along is refused. */
function cdn(req: IncomingMessage, res: ServerResponse) {
  if (req.headers.authorization) return send(res, 403, {}, 'credentials were sent to another host');
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const stored = blobs.get(url.pathname.replace(/^\/blobs\//, ''));
  if (!stored) return send(res, 404);
  const found = Buffer.from(stored);
  if (url.searchParams.has('tamper')) found[found.length - 1]! ^= 1;
  send(res, 200, { 'content-type': 'application/octet-stream', 'content-length': found.length }, found);
}

const main = createServer((req, res) => void registry(req, res));
const store = createServer(cdn);
store.listen(0, '127.0.0.2', () => {
  cdnPort = (store.address() as { port: number }).port;
  main.listen(0, '127.0.0.1', () => {
    port = (main.address() as { port: number }).port;
    process.stdout.write(`${port}\n`);
  });
});

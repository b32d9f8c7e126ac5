// A token server for the distribution registry's token authentication (`auth.token`): the registry
// answers a request without a valid token 401 with `WWW-Authenticate: Bearer realm=…,service=…,
// scope=…`, the client asks this realm, and the registry checks the token it brings — an ES256 JWT
// whose `x5c` header holds the certificate the registry's `rootcertbundle` trusts, issued by `issuer`
// for the audience `service`, its `access` claim the scopes granted. The realm speaks both request
// forms of the distribution spec: a GET (`service`, one `scope` parameter per scope, Basic credentials
// or none) and the OAuth2 POST (`grant_type=password` or `refresh_token`; with `access_type=offline` a
// password grant also answers a `refresh_token`, the identity token `docker login` stores). Anonymous
// requests get `pull` on repositories outside the private prefixes and nothing inside them; the user
// gets what it asks. While the file `postOnly` names exists, a GET carrying credentials is refused 401
// (as realms that take credentials only in the OAuth2 password grant do). Each request is appended to `requestLog` (method,
// grant, scopes, whether Basic credentials came, never their value) for the test to read.
// Run in its own process (`node --import tsx token-server.ts '<json options>'`): it prints its port.
import { createPrivateKey, randomBytes, randomUUID, sign, X509Certificate } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface TokenServerOptions {
  service: string;
  issuer: string;
  /** PEM files of the signing key (P-256) and its self-signed certificate. */
  keyFile: string;
  certFile: string;
  user: { username: string; password: string };
  /** Repository name prefixes (`private/`) that anonymous tokens grant nothing on. */
  privatePrefixes: string[];
  /** While this file exists, a GET carrying credentials is refused. */
  postOnly: string;
  /** A file each request is logged to, one JSON line. */
  requestLog: string;
}

interface Access {
  type: string;
  name: string;
  actions: string[];
}

const options = JSON.parse(process.argv[2] ?? '{}') as TokenServerOptions;
const key = createPrivateKey(readFileSync(options.keyFile));
const certificate = new X509Certificate(readFileSync(options.certFile));
/** Refresh tokens issued by password grants with access_type=offline. */
const refreshTokens = new Set<string>();

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

/** `repository:name:pull,push` as the access it asks for, granted in full to the user, `pull` to anyone where public. */
function grant(user: string | undefined, scopes: string[]): Access[] {
  return scopes.flatMap((scope) => {
    const m = /^(repository):(.+):([a-z*,]+)$/.exec(scope);
    if (!m) return [];
    const wanted = m[3]!.split(',');
    const open = !options.privatePrefixes.some((p) => m[2]!.startsWith(p));
    const actions = user !== undefined ? wanted : open ? wanted.filter((a) => a === 'pull') : [];
    return actions.length ? [{ type: m[1]!, name: m[2]!, actions }] : [];
  });
}

const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** The signed JWT the registry verifies. */
function jwt(user: string | undefined, access: Access[]): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: 'JWT', alg: 'ES256', x5c: [certificate.raw.toString('base64')] };
  const claims = {
    iss: options.issuer,
    sub: user ?? '',
    aud: options.service,
    exp: now + 300,
    nbf: now - 10,
    iat: now,
    jti: randomUUID(),
    access,
  };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

function issue(res: ServerResponse, user: string | undefined, scopes: string[], extra: object = {}) {
  const token = jwt(user, grant(user, scopes));
  json(res, 200, { token, access_token: token, expires_in: 300, issued_at: new Date().toISOString(), ...extra });
}

const isUser = (username: string | null, password: string | null) =>
  username === options.user.username && password === options.user.password;

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

/** The OAuth2 POST: a password grant (with a refresh token when offline access is asked) or a refresh token grant. */
async function oauth(req: IncomingMessage, res: ServerResponse) {
  const form = new URLSearchParams(await body(req));
  const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
  const grantType = form.get('grant_type');
  log({ method: 'POST', grant: grantType, service: form.get('service'), clientId: form.get('client_id'), scopes });
  if (form.get('service') !== options.service || !form.get('client_id'))
    return json(res, 400, { error: 'invalid_request' });
  if (grantType === 'refresh_token') {
    if (!refreshTokens.has(form.get('refresh_token') ?? '')) return json(res, 401, { error: 'invalid_grant' });
    return issue(res, options.user.username, scopes);
  }
  if (grantType !== 'password') return json(res, 400, { error: 'unsupported_grant_type' });
  if (!isUser(form.get('username'), form.get('password'))) return json(res, 401, { error: 'invalid_grant' });
  if (form.get('access_type') !== 'offline') return issue(res, options.user.username, scopes);
  const refresh = randomBytes(24).toString('hex');
  refreshTokens.add(refresh);
  issue(res, options.user.username, scopes, { refresh_token: refresh });
}

/** The GET of the distribution spec: anonymous, or the user's Basic credentials. */
function distribution(req: IncomingMessage, res: ServerResponse, url: URL) {
  const scopes = url.searchParams.getAll('scope');
  const auth = req.headers.authorization;
  log({ method: 'GET', service: url.searchParams.get('service'), scopes, basic: auth !== undefined });
  if (url.searchParams.get('service') !== options.service) return json(res, 400, { errors: [{ code: 'DENIED' }] });
  if (auth === undefined) return issue(res, undefined, scopes);
  const decoded = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString();
  const colon = decoded.indexOf(':');
  if (existsSync(options.postOnly) || !isUser(decoded.slice(0, colon), decoded.slice(colon + 1)))
    return json(res, 401, { errors: [{ code: 'UNAUTHORIZED', message: 'bad credentials' }] });
  issue(res, options.user.username, scopes);
}

function log(entry: object) {
  appendFileSync(options.requestLog, `${JSON.stringify(entry)}\n`);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://realm');
  if (url.pathname !== '/token') return json(res, 404, {});
  if (req.method === 'POST') return void oauth(req, res);
  distribution(req, res, url);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));

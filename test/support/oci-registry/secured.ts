// Registries that ask for credentials, for the OCI authentication tests: the distribution registry
// itself with htpasswd Basic authentication (bcrypt lines made by the system's crypt(3), through Perl,
// which Debian always has: libxcrypt makes `$2b$` hashes), or with token authentication against the
// token server (token-server.ts) whose self-signed certificate (made by `openssl`) the registry
// trusts. Where the machine has no `docker-registry` (or cannot make what it needs), the stand-in
// plays the same part: Basic challenges, or its own token realm. Either way the realm's requests are
// logged (never a credential) for the test to read, and stopping removes every process and file.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distributionBinary, startDistribution } from './distribution.js';
import { startRegistry, startServer, type StandInRegistry } from './index.js';

export interface RegistryUser {
  username: string;
  password: string;
}

/** One token request the realm received: how it came, never the credentials themselves. */
export interface RealmRequest {
  method: 'GET' | 'POST';
  service: string | null;
  scopes: string[];
  /** GET: whether Basic credentials came with it. */
  basic?: boolean;
  /** POST: the OAuth2 grant type. */
  grant?: string | null;
  clientId?: string | null;
}

export interface SecuredRegistry extends StandInRegistry {
  /** The token realm's requests so far (none for Basic authentication). */
  realmRequests: () => RealmRequest[];
  /** An identity token (OAuth2 refresh token) for the user, as `docker login` obtains one. */
  identityToken: () => Promise<string>;
  /** Whether the realm takes the user's password only in the OAuth2 password grant (as Quay's), from now on. */
  passwordGrantOnly: (on: boolean) => void;
}

export interface SecuredVariant {
  /** Which registry runs, for the test's name. */
  label: string;
  start: () => Promise<SecuredRegistry>;
}

/** A bcrypt htpasswd line for the user, or undefined where crypt(3) makes no `$2b$` hash. */
function htpasswdLine(user: RegistryUser): string | undefined {
  const alphabet = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const salt = [...randomBytes(22)].map((b) => alphabet[b % 64]).join('');
  const run = spawnSync('perl', ['-e', '$p = <STDIN>; chomp $p; print crypt($p, $ARGV[0])', `$2b$05$${salt}`], {
    input: `${user.password}\n`,
    encoding: 'utf8',
  });
  return run.status === 0 && /^\$2b\$05\$.{53}$/.test(run.stdout) ? `${user.username}:${run.stdout}\n` : undefined;
}

const noRealm = {
  realmRequests: () => [],
  identityToken: () => Promise.reject(new Error('no token realm')),
  passwordGrantOnly: () => {
    throw new Error('no token realm');
  },
};

/** Creates or removes the flag file a realm reads on each request. */
const flag = (file: string, on: boolean) => (on ? writeFileSync(file, '') : rmSync(file, { force: true }));

/** The registry with htpasswd authentication for `user`: every request needs its Basic credentials. */
export function basicAuthRegistry(user: RegistryUser): SecuredVariant {
  const binary = distributionBinary();
  const line = binary ? htpasswdLine(user) : undefined;
  if (binary && line)
    return {
      label: `docker-registry with htpasswd (${binary})`,
      start: async () => ({ ...(await startDistribution(binary, { htpasswd: line })), ...noRealm }),
    };
  const why = binary ? 'crypt(3) makes no bcrypt hash here' : 'no docker-registry on this machine';
  return {
    label: `the stand-in with Basic authentication (${why})`,
    start: async () => ({ ...(await startRegistry({ basicUser: user })), ...noRealm }),
  };
}

/** A P-256 key and its self-signed certificate (PEM files in `dir`), or undefined without `openssl`. */
function issuerCertificate(dir: string): { keyFile: string; certFile: string } | undefined {
  const keyFile = join(dir, 'issuer.key');
  const certFile = join(dir, 'issuer.pem');
  const run = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
      ...['-subj', '/CN=driftback test token issuer', '-keyout', keyFile, '-out', certFile],
    ],
    { stdio: 'ignore' },
  );
  return run.status === 0 && existsSync(certFile) ? { keyFile, certFile } : undefined;
}

const readLog = (file: string): RealmRequest[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RealmRequest)
    : [];

/** docker-registry with `auth.token`, and the token server it trusts. */
async function startTokenDistribution(binary: string, dir: string, user: RegistryUser, privatePrefixes: string[]) {
  const issuer = issuerCertificate(dir)!;
  const service = 'driftback-test-registry';
  const requestLog = join(dir, 'realm.log');
  const postOnly = join(dir, 'password-grant-only');
  const server = { service, issuer: 'driftback-test-issuer', ...issuer, user, privatePrefixes, requestLog, postOnly };
  const realm = await startServer('token-server.ts', server);
  const certificate = readFileSync(issuer.certFile, 'utf8');
  const registry = await startDistribution(binary, {
    token: { realm: `http://127.0.0.1:${realm.port}/token`, service, issuer: server.issuer, certificate },
  }).catch((error: unknown) => {
    realm.stop();
    throw error;
  });
  const identityToken = async () => {
    const form = new URLSearchParams({ grant_type: 'password', access_type: 'offline', client_id: 'test', service });
    form.set('username', user.username);
    form.set('password', user.password);
    const answer = await fetch(`http://127.0.0.1:${realm.port}/token`, { method: 'POST', body: form });
    return ((await answer.json()) as { refresh_token: string }).refresh_token;
  };
  const stop = () => [registry.stop, realm.stop].forEach((s) => s());
  const passwordGrantOnly = (on: boolean) => flag(postOnly, on);
  return { host: registry.host, stop, realmRequests: () => readLog(requestLog), identityToken, passwordGrantOnly };
}

/**
 * The registry with token authentication: anonymous tokens pull repositories outside
 * `privatePrefixes`, the user's tokens anything.
 */
export function tokenAuthRegistry(user: RegistryUser, privatePrefixes: string[]): SecuredVariant {
  const binary = distributionBinary();
  const probe = mkdtempSync(join(tmpdir(), 'token-issuer-'));
  const openssl = issuerCertificate(probe) !== undefined;
  rmSync(probe, { recursive: true, force: true });
  const withDir = async (start: (dir: string) => Promise<SecuredRegistry>): Promise<SecuredRegistry> => {
    const dir = mkdtempSync(join(tmpdir(), 'token-realm-'));
    const started = await start(dir).catch((error: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    });
    return { ...started, stop: () => (started.stop(), rmSync(dir, { recursive: true, force: true })) };
  };
  if (binary && openssl)
    return {
      label: `docker-registry with token authentication (${binary})`,
      start: () => withDir((dir) => startTokenDistribution(binary, dir, user, privatePrefixes)),
    };
  const why = binary ? 'no openssl to make the token issuer certificate' : 'no docker-registry on this machine';
  const identity = `refresh-${randomBytes(8).toString('hex')}`;
  return {
    label: `the stand-in with its token realm (${why})`,
    start: () =>
      withDir(async (dir) => {
        const requestLog = join(dir, 'realm.log');
        const passwordGrantOnly = join(dir, 'password-grant-only');
        const registry = await startRegistry({
          privatePrefixes,
          user,
          identityToken: identity,
          requestLog,
          passwordGrantOnly,
        });
        return {
          ...registry,
          realmRequests: () => readLog(requestLog),
          identityToken: async () => identity,
          passwordGrantOnly: (on: boolean) => flag(passwordGrantOnly, on),
        };
      }),
  };
}

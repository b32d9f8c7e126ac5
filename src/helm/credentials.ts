// Credentials for private chart repositories, configured for the App (DRIFTBACK_CHART_CREDENTIALS
// names a YAML file): each entry names a repository URL prefix — `https://charts.example.com/private`
// for a Helm repository, `oci://ghcr.io/acme` for an OCI registry — with a username and password, a
// token, or an identity token (an OAuth2 refresh token, as `docker login` stores one: the username
// `<token>` with the identity token as password, or `identityToken`). They are used only by the App's
// own downloads, only for URLs the prefix covers (the longest prefix wins), never passed to Helm, never
// written to a reason or a log. Docker Hub's `docker.io` and `registry-1.docker.io` are one registry:
// an entry for either covers both, as Helm's credential store keys them.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface ChartCredential {
  /** The URL prefix it applies to, without a trailing slash. */
  url: string;
  username?: string;
  password?: string;
  /** Sent as `Authorization: Bearer <token>` (a Helm repository or registry that takes tokens). */
  token?: string;
  /** An OAuth2 refresh token, exchanged at a registry's token realm for an access token. */
  identityToken?: string;
}

/** The username under which Docker's credential stores keep an identity token. */
const IDENTITY_USERNAME = '<token>';

/** The configured credentials, or why the file cannot be used (every fetch then says so). */
export type ChartCredentials = { entries: readonly ChartCredential[] } | { problem: string };

function entryProblem(entry: unknown, n: number): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `entry ${n} is not a map`;
  const { url, username, password, token, identityToken } = entry as Record<string, unknown>;
  if (typeof url !== 'string' || !/^(https?|oci):\/\/[^/\s]+/.test(url))
    return `entry ${n}: url must be an http(s):// or oci:// URL prefix`;
  for (const [key, value] of Object.entries({ username, password, token, identityToken }))
    if (value !== undefined && typeof value !== 'string') return `entry ${n} (${url}): ${key} must be a string`;
  if (token === undefined && identityToken === undefined && (username === undefined || password === undefined))
    return `entry ${n} (${url}): give username and password, token, or identityToken`;
  return undefined;
}

/** Reads the credentials file: a YAML list of `{url, username, password}`, `{url, token}` or `{url, identityToken}`. */
export function loadChartCredentials(path: string): ChartCredentials {
  let list: unknown;
  try {
    list = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? 'not YAML';
    return { problem: `DRIFTBACK_CHART_CREDENTIALS ${path} cannot be read (${why})` };
  }
  if (!Array.isArray(list))
    return {
      problem: `DRIFTBACK_CHART_CREDENTIALS ${path}: a list of {url, username, password}, {url, token} or {url, identityToken}`,
    };
  const entries: ChartCredential[] = [];
  for (const [i, entry] of list.entries()) {
    const problem = entryProblem(entry, i + 1);
    if (problem) return { problem: `DRIFTBACK_CHART_CREDENTIALS ${path}: ${problem}` };
    const { url, username, password, token } = entry as ChartCredential;
    const identityToken =
      (entry as ChartCredential).identityToken ?? (username === IDENTITY_USERNAME ? password : undefined);
    entries.push({
      url: url.replace(/\/+$/, ''),
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
      ...(token !== undefined ? { token } : {}),
      ...(identityToken !== undefined ? { identityToken } : {}),
    });
  }
  return { entries };
}

/**
 * `oci://docker.io/…` as `oci://registry-1.docker.io/…` (Docker Hub's registry, which Helm reaches for
 * the alias `docker.io`, and one key in Helm's credential store); any other URL as it is.
 */
export function canonicalUrl(url: string): string {
  return url.replace(/^oci:\/\/docker\.io(?=\/|$)/, 'oci://registry-1.docker.io');
}

/** The entry for `url` (a repository URL, or `oci://host/path/name`): the longest prefix that covers it. */
export function credentialFor(url: string, credentials: ChartCredentials | undefined): ChartCredential | undefined {
  if (!credentials || 'problem' in credentials) return undefined;
  let best: ChartCredential | undefined;
  const wanted = canonicalUrl(url);
  for (const entry of credentials.entries) {
    const prefix = canonicalUrl(entry.url);
    const covers = wanted === prefix || wanted.startsWith(`${prefix}/`);
    if (covers && (!best || entry.url.length > best.url.length)) best = entry;
  }
  return best;
}

/**
 * The Authorization header an entry gives: Bearer for a token, else Basic (an identity token as the
 * password of the username `<token>`, unless the entry names another).
 */
export function authorization(entry: ChartCredential): string {
  if (entry.token !== undefined) return `Bearer ${entry.token}`;
  const username = entry.username ?? IDENTITY_USERNAME;
  const password =
    entry.identityToken !== undefined && entry.password === undefined ? entry.identityToken : entry.password;
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** The reason when a server asks for credentials: none configured, or the ones given were refused. */
export function authReason(host: string, entry: ChartCredential | undefined, status: number): string {
  return entry
    ? `${host} refused the configured credentials (HTTP ${status})`
    : `authentication required (configure credentials for ${host})`;
}

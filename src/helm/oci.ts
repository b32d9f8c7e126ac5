// Fetching a chart from an OCI registry as Helm pulls it (distribution spec): the tag (a chart
// version, `+` written `_`), or for a range the highest version among the repository's tags that the
// range allows (as Helm and Flux pick it); the manifest, whose config must be a Helm chart config and
// one layer the chart archive; then that blob, its size and sha256 checked against the manifest. A
// registry that answers 401 with a Bearer challenge is asked for a token at its realm (anonymously, or
// with the credentials configured for it) and the request retried; an identity token is exchanged
// there as oras-go does it (an OAuth2 POST, grant_type=refresh_token), with a GET and Basic
// credentials for a realm that refuses the POST, as containerd does; a username and password go to
// the realm as Basic credentials on a GET, then in an OAuth2 password grant where the realm refuses
// them there (as Helm's registry client retries). The token's scopes are the challenge's merged with
// the repository's `pull`, as oras-go merges them. Basic challenges take the configured credentials.
// `oci://docker.io/…` is pulled from registry-1.docker.io, as Helm does.
// Every request is a bounded download with the private-address guard.
import { createHash } from 'node:crypto';
import { authReason, authorization, canonicalUrl, credentialFor, type ChartCredential } from './credentials.js';
import { download, type DownloadFailure } from './download.js';
import type { ChartFetchOptions } from './fetch.js';
import { compareSemver, parseSemver, satisfiesRange, type Semver } from '../core/charts/index.js';

const MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const HELM_CONFIG = 'application/vnd.cncf.helm.config.v1+json';
const CHART_LAYERS = ['application/vnd.cncf.helm.chart.content.v1.tar+gzip', 'application/tar+gzip'];
/** Bytes a manifest, a tag list or a token answer may hold. */
const SMALL = 4 * 1024 * 1024;

interface Registry {
  /** `https://host[:port]` (http for hosts named plain-HTTP). */
  base: string;
  host: string;
  repository: string;
  credential: ChartCredential | undefined;
  options: ChartFetchOptions;
  /** The Authorization header that worked (or was obtained), once challenged. */
  auth?: string;
  challenged?: boolean;
}

/** `oci://host[:port]/path` and a chart name as the registry session that pulls it. */
export function ociRegistry(url: string, name: string, options: ChartFetchOptions): Registry | { reason: string } {
  const m = /^oci:\/\/([^/?#\s]+)((?:\/[^/?#\s]+)*)\/*$/.exec(canonicalUrl(url));
  if (!m || !/^[a-z0-9]+(?:[._-][a-z0-9]+)*$/.test(name)) return { reason: `${url}: not an OCI reference to ${name}` };
  const host = m[1]!;
  const repository = `${m[2]!.replace(/^\//, '')}/${name}`.replace(/^\//, '');
  const plain = (options.plainHttp ?? []).some((h) => h === host || h === host.replace(/:\d+$/, ''));
  const credential = credentialFor(`oci://${host}/${repository}`, options.credentials);
  return { base: `${plain ? 'http' : 'https'}://${host}`, host, repository, credential, options };
}

/** `Bearer realm="…",service="…"` as its scheme and parameters. */
function parseChallenge(text: string): { scheme: string; params: Record<string, string> } {
  const scheme = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '';
  const params: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="([^"]*)"/g)) params[m[1]!.toLowerCase()] = m[2]!;
  return { scheme, params };
}

/** Statuses with which a token realm refuses the OAuth2 POST (GCR 404, Artifactory 401, ACR 400), as containerd lists them. */
const POST_REFUSED = [400, 401, 404, 405];
/** The OAuth2 client a token request names. */
const CLIENT_ID = 'driftback';

/**
 * The scopes to ask a token for, as oras-go merges them: the repository's `pull` with those the
 * challenge names (space-separated), the actions of one resource joined, sorted.
 */
export function tokenScopes(repository: string, challenged: string | undefined): string[] {
  const actions = new Map<string, Set<string>>([[`repository:${repository}`, new Set(['pull'])]]);
  const kept = new Set<string>();
  for (const scope of (challenged ?? '').split(' ').filter(Boolean)) {
    const m = /^(.+):([^:]*)$/.exec(scope);
    if (!m || !m[1]!.includes(':')) kept.add(scope);
    else
      for (const action of m[2]!.split(',').filter(Boolean))
        actions.set(m[1]!, (actions.get(m[1]!) ?? new Set()).add(action));
  }
  for (const [resource, set] of actions) kept.add(`${resource}:${set.has('*') ? '*' : [...set].sort().join(',')}`);
  return [...kept].sort();
}

/** The OAuth2 form of a token request: a refresh token grant for an identity token, else a password grant. */
function oauthForm(entry: ChartCredential, service: string | undefined, scopes: string[]): string {
  const grant: Record<string, string> =
    entry.identityToken !== undefined
      ? { grant_type: 'refresh_token', refresh_token: entry.identityToken }
      : { grant_type: 'password', username: entry.username ?? '', password: entry.password ?? '' };
  const form = { ...grant, service: service ?? '', client_id: CLIENT_ID, scope: scopes.join(' ') };
  return new URLSearchParams(form).toString();
}

/**
 * The realm's answer to a token request. An identity token: an OAuth2 POST exchanging it
 * (grant_type=refresh_token), then a GET with Basic credentials where the realm refuses the POST.
 * Otherwise a GET (`service`, one `scope` parameter per scope), anonymous or with the configured
 * username and password as Basic; where the realm refuses those, the OAuth2 password grant (as
 * Helm's registry client retries with it), the GET's refusal kept if that fails too.
 */
function requestToken(registry: Registry, params: Record<string, string>, scopes: string[]): Buffer | DownloadFailure {
  const entry = registry.credential;
  const options = { ...registry.options, maxBytes: SMALL };
  const query = new URLSearchParams();
  if (params.service) query.set('service', params.service);
  for (const scope of scopes) query.append('scope', scope);
  const realm = params.realm!;
  const get = () =>
    download(
      `${realm}${realm.includes('?') ? '&' : '?'}${query}`,
      options,
      entry ? { Authorization: authorization(entry) } : {},
    );
  if (!entry) return get();
  const post = () => download(realm, options, {}, {}, oauthForm(entry, params.service, scopes));
  if (entry.identityToken !== undefined) {
    const posted = post();
    if ('reason' in posted && posted.status !== undefined && POST_REFUSED.includes(posted.status)) return get();
    return posted;
  }
  const got = get();
  if (!('reason' in got) || (got.status !== 401 && got.status !== 403)) return got;
  const posted = post();
  return 'reason' in posted ? got : posted;
}

/** The Authorization header a challenge asks for: a token from its realm, or Basic credentials. */
function answerChallenge(registry: Registry, challenge: string): string | DownloadFailure {
  const { scheme, params } = parseChallenge(challenge);
  const entry = registry.credential;
  if (entry?.token !== undefined) return authorization(entry);
  if (scheme === 'basic') return entry ? authorization(entry) : { reason: authReason(registry.host, entry, 401) };
  if (scheme !== 'bearer' || !params.realm || !/^https?:\/\//.test(params.realm))
    return { reason: `${registry.host} asks for authentication this client does not speak (${scheme || 'none'})` };
  const answer = requestToken(registry, params, tokenScopes(registry.repository, params.scope));
  if ('reason' in answer)
    return answer.status === 401 || answer.status === 403
      ? { reason: authReason(registry.host, entry, answer.status) }
      : { reason: `token for ${registry.host}: ${answer.reason}` };
  let token: unknown;
  try {
    const parsed = JSON.parse(answer.toString('utf8')) as { token?: unknown; access_token?: unknown };
    token = parsed.access_token || parsed.token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || !token) return { reason: `${params.realm} answered no token for ${registry.host}` };
  return `Bearer ${token}`;
}

/** GET `path` of the registry (or a path from its root, `/v2/…`), answering one authentication challenge. */
function registryGet(
  registry: Registry,
  path: string,
  accept: string,
  maxBytes: number,
  answer: { link?: string } = {},
): Buffer | DownloadFailure {
  const url = path.startsWith('/') ? `${registry.base}${path}` : `${registry.base}/v2/${registry.repository}/${path}`;
  const options = { ...registry.options, maxBytes };
  const send = () =>
    download(url, options, { Accept: accept, ...(registry.auth ? { Authorization: registry.auth } : {}) }, answer);
  let got = send();
  if ('reason' in got && got.status === 401 && !registry.challenged) {
    registry.challenged = true;
    const auth = answerChallenge(registry, got.challenge ?? '');
    if (typeof auth !== 'string') return auth;
    registry.auth = auth;
    got = send();
  }
  if ('reason' in got && (got.status === 401 || got.status === 403))
    return { reason: authReason(registry.host, registry.credential, got.status) };
  return got;
}

/** The tag to pull: the version's own tag, or the highest tag the range allows (exact tag text first, as Helm). */
export function pickTag(tags: readonly string[], version: string): string | undefined {
  if (version && tags.includes(version.replaceAll('+', '_'))) return version.replaceAll('+', '_');
  let best: { tag: string; parsed: Semver } | undefined;
  for (const tag of tags) {
    const parsed = parseSemver(tag.replaceAll('_', '+'));
    if (!parsed || !satisfiesRange(parsed, version || '*')) continue;
    if (!best || compareSemver(parsed, best.parsed) > 0) best = { tag, parsed };
  }
  return best?.tag;
}

/** Pages of a tag list followed, at most. */
const TAG_PAGES = 50;

/**
 * The repository's tags (`/v2/<name>/tags/list`), every page: a registry that pages its answer names
 * the next one in a `Link: <…>; rel="next"` header, on its own host.
 */
export function listTags(registry: Registry): string[] | { reason: string } {
  const all: string[] = [];
  let path = 'tags/list';
  for (let page = 0; page < TAG_PAGES; page++) {
    const answer: { link?: string } = {};
    const got = registryGet(registry, path, 'application/json', SMALL, answer);
    if ('reason' in got) return { reason: got.reason };
    try {
      const tags = (JSON.parse(got.toString('utf8')) as { tags?: unknown }).tags;
      if (Array.isArray(tags)) all.push(...tags.filter((t): t is string => typeof t === 'string'));
    } catch {
      return { reason: `${registry.base}/v2/${registry.repository}/tags/list is not JSON` };
    }
    const next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(answer.link ?? '')?.[1];
    if (!next) return all;
    const url = new URL(next, registry.base);
    if (url.origin !== registry.base) return { reason: `${registry.host} names a tag page on another host` };
    path = url.pathname + url.search;
  }
  return { reason: `${registry.host}/${registry.repository} has more than ${TAG_PAGES} pages of tags` };
}

interface Descriptor {
  mediaType?: unknown;
  digest?: unknown;
  size?: unknown;
}

/** `host/name:tag`, or `host/name@sha256:…` for a manifest digest. */
function referenceOf(registry: Registry, tag: string): string {
  return `${registry.host}/${registry.repository}${tag.startsWith('sha256:') ? '@' : ':'}${tag}`;
}

/** The chart layer of the tag's (or manifest digest's) manifest, or why it is not a Helm chart. */
function chartLayer(registry: Registry, tag: string): { digest: string; size: number } | { reason: string } {
  const where = referenceOf(registry, tag);
  const got = registryGet(registry, `manifests/${tag}`, MANIFEST, SMALL);
  if ('reason' in got) return { reason: got.status === 404 ? `${where} does not exist` : got.reason };
  const manifestDigest = `sha256:${createHash('sha256').update(got).digest('hex')}`;
  if (tag.startsWith('sha256:') && manifestDigest !== tag)
    return { reason: `the manifest served for ${where} has digest ${manifestDigest}` };
  let manifest: { config?: Descriptor; layers?: Descriptor[] };
  try {
    manifest = JSON.parse(got.toString('utf8')) as typeof manifest;
  } catch {
    return { reason: `the manifest of ${where} is not JSON` };
  }
  if (manifest.config?.mediaType !== HELM_CONFIG)
    return { reason: `${where} is not a Helm chart (config media type ${String(manifest.config?.mediaType)})` };
  const layer = (Array.isArray(manifest.layers) ? manifest.layers : []).find((l) =>
    CHART_LAYERS.includes(String(l?.mediaType)),
  );
  if (!layer || typeof layer.digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(layer.digest))
    return { reason: `${where} has no chart layer with a sha256 digest` };
  const size = Number(layer.size);
  if (!Number.isSafeInteger(size) || size < 0) return { reason: `${where}: the chart layer has no size` };
  return { digest: layer.digest, size };
}

/** The chart archive of `tag`: its layer's blob, size and digest checked. */
export function pullChart(registry: Registry, tag: string): Buffer | { reason: string } {
  const layer = chartLayer(registry, tag);
  if ('reason' in layer) return layer;
  const maxBytes = registry.options.maxBytes ?? 20 * 1024 * 1024;
  const where = referenceOf(registry, tag);
  if (layer.size > maxBytes)
    return { reason: `${where} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB, the limit of one download` };
  const blob = registryGet(registry, `blobs/${layer.digest}`, '*/*', maxBytes);
  if ('reason' in blob) return { reason: blob.reason };
  const got = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
  if (got !== layer.digest || blob.length !== layer.size)
    return {
      reason: `the chart layer of ${where} has digest ${got} (${blob.length} bytes), its manifest says ${layer.digest} (${layer.size} bytes)`,
    };
  return blob;
}

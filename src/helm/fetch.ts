// Fetching a chart for the App when DRIFTBACK_FETCH_CHARTS allows it: from a Helm repository over
// HTTPS (its index.yaml, then the archive it lists; the archive's sha256 must equal the index's digest)
// or from an OCI registry (oci.ts). Each download is bounded (download.ts). Archives are kept in a
// cache directory by repository URL, name and version, so a chart is downloaded once; a repository
// with configured credentials has a cache of its own, never served to a fetch without them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compareSemver, isExactVersion, parseSemver, satisfiesRange, type Semver } from '../core/charts/index.js';
import {
  authReason,
  authorization,
  canonicalUrl,
  credentialFor,
  type ChartCredential,
  type ChartCredentials,
} from './credentials.js';
import { download, type DownloadFailure, type DownloadOptions } from './download.js';
import { listTags, ociRegistry, pickTag, pullChart } from './oci.js';

export interface ChartFetchOptions extends DownloadOptions {
  /** Where fetched archives are kept (`<sha256 of the URL>/<name>-<version>.tgz`). */
  cacheDir: string;
  /** Credentials for private repositories (DRIFTBACK_CHART_CREDENTIALS); none for a fork's pull request. */
  credentials?: ChartCredentials;
  /** Registry hosts (`host` or `host:port`) reached over plain HTTP rather than HTTPS (DRIFTBACK_FETCH_PLAIN_HTTP). */
  plainHttp?: readonly string[];
}

interface IndexEntry {
  version: string;
  urls: string[];
  digest?: string;
}

/** The index's entry for `name` at `version` (exact, else the newest release the range allows). */
function pickEntry(index: unknown, name: string, version: string): IndexEntry | undefined {
  const entries = (index as { entries?: Record<string, IndexEntry[]> } | undefined)?.entries?.[name];
  if (!Array.isArray(entries)) return undefined;
  let best: { entry: IndexEntry; parsed: Semver } | undefined;
  for (const entry of entries) {
    const parsed = parseSemver(String(entry?.version ?? ''));
    if (!parsed || !Array.isArray(entry.urls)) continue;
    const ok = isExactVersion(version)
      ? compareSemver(parsed, parseSemver(version)!) === 0
      : satisfiesRange(parsed, version || '*');
    if (ok && (!best || compareSemver(parsed, best.parsed) > 0)) best = { entry, parsed };
  }
  return best?.entry;
}

type Fetched = { path: string; bytes: Buffer } | { reason: string };

/** Where a repository's archives are kept: by its URL, apart when credentials reach it. */
function cacheDirOf(url: string, entry: ChartCredential | undefined, options: ChartFetchOptions): string {
  const key = entry ? `${url}\0credentials for ${entry.url}` : url;
  return join(options.cacheDir, createHash('sha256').update(key).digest('hex').slice(0, 32));
}

function kept(dir: string, name: string, version: string): { path: string; bytes: Buffer } | undefined {
  const path = join(dir, `${name}-${version}.tgz`);
  return existsSync(path) ? { path, bytes: readFileSync(path) } : undefined;
}

function keep(dir: string, name: string, version: string, bytes: Buffer): { path: string; bytes: Buffer } {
  const path = join(dir, `${name}-${version}.tgz`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${path}.part`, bytes);
  renameSync(`${path}.part`, path);
  return { path, bytes };
}

/** A failed download as a reason; a server asking for credentials names the host to configure them for. */
function failed(what: string, url: string, failure: DownloadFailure, entry: ChartCredential | undefined) {
  if (failure.status === 401 || failure.status === 403)
    return { reason: `${what}: ${authReason(new URL(url).host, entry, failure.status)}` };
  return { reason: `${what}: ${failure.reason}` };
}

/** The archive of `name` at `version` from the Helm repository at `url`: cached, else downloaded and checked. */
function fetchFromIndex(url: string, name: string, version: string, options: ChartFetchOptions): Fetched {
  const base = url.replace(/\/+$/, '');
  const entry = credentialFor(base, options.credentials);
  const dir = cacheDirOf(url, entry, options);
  const cached = isExactVersion(version) ? kept(dir, name, version) : undefined;
  if (cached) return cached;
  // Credentials go to the repository's own origin only (an archive elsewhere is fetched without them).
  const headersFor = (target: string): Record<string, string> =>
    entry && new URL(target).origin === new URL(base).origin ? { Authorization: authorization(entry) } : {};
  const indexUrl = `${base}/index.yaml`;
  const indexText = download(indexUrl, options, headersFor(indexUrl));
  if ('reason' in indexText) return failed(`chart ${name} ${version}`, indexUrl, indexText, entry);
  let index: unknown;
  try {
    index = parse(indexText.toString('utf8'), { maxAliasCount: 100, uniqueKeys: false });
  } catch {
    return { reason: `${base}/index.yaml is not YAML` };
  }
  const listed = pickEntry(index, name, version);
  if (!listed) return { reason: `${base}/index.yaml lists no ${name} ${version || '(any version)'}` };
  const again = kept(dir, name, listed.version);
  if (again) return again;
  const archiveUrl = new URL(listed.urls[0]!, `${base}/`).href;
  const bytes = download(archiveUrl, options, headersFor(archiveUrl));
  if ('reason' in bytes) return failed(`chart ${name} ${listed.version}`, archiveUrl, bytes, entry);
  const got = createHash('sha256').update(bytes).digest('hex');
  if (listed.digest && listed.digest.replace(/^sha256:/, '') !== got)
    return { reason: `${archiveUrl} has sha256 ${got}, the index says ${listed.digest}` };
  return keep(dir, name, listed.version, bytes);
}

/** The archive of `name` at `version` (a tag, or a range over the tags) from the OCI registry at `url`. */
function fetchFromRegistry(url: string, name: string, version: string, options: ChartFetchOptions): Fetched {
  const registry = ociRegistry(url, name, options);
  if ('reason' in registry) return registry;
  const dir = cacheDirOf(canonicalUrl(url.replace(/\/+$/, '')), registry.credential, options);
  const what = `chart ${name} ${version || '(any version)'}`;
  let tag = version.replaceAll('+', '_');
  // A manifest digest (an OCIRepository's ref.digest) is pulled as it is; its archive is kept by digest.
  if (/^sha256:[0-9a-f]{64}$/.test(version)) tag = version;
  else if (!isExactVersion(version)) {
    const tags = listTags(registry);
    if ('reason' in tags) return { reason: `${what}: ${tags.reason}` };
    const picked = pickTag(tags, version);
    if (!picked) return { reason: `${what}: ${registry.host}/${registry.repository} has no tag the version allows` };
    tag = picked;
  }
  const chosen = tag.startsWith('sha256:') ? tag : tag.replaceAll('_', '+');
  // An archive pinned by manifest digest is kept as `<name>-sha256-<hex>.tgz`.
  const file = chosen.replace(':', '-');
  const cached = kept(dir, name, file);
  if (cached) return cached;
  const bytes = pullChart(registry, tag);
  if ('reason' in bytes) return { reason: `chart ${name} ${chosen}: ${bytes.reason}` };
  return keep(dir, name, file, bytes);
}

/** A repository chart's archive: from a Helm repository (http/https) or an OCI registry (`oci://`). */
export function fetchChart(url: string, name: string, version: string, options: ChartFetchOptions): Fetched {
  if (options.credentials && 'problem' in options.credentials) return { reason: options.credentials.problem };
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.'))
    return { reason: `chart ${name}: a name that is not one file name` };
  return url.startsWith('oci://')
    ? fetchFromRegistry(url, name, version, options)
    : fetchFromIndex(url, name, version, options);
}

// Fetching a chart from a Helm repository over HTTPS (its index.yaml, then the archive it lists), for
// the App when DRIFTBACK_FETCH_CHARTS allows it. Bounded: each download runs in a child process with a
// wall-clock limit and stops at a size limit (a huge or endless answer ends with a reason, never a
// stalled job); the archive's sha256 must equal the index's digest; archives are kept in a cache
// directory by repository URL, name and version, so a chart is downloaded once. OCI registries are not
// fetched: their charts come from the offline charts directory.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compareSemver, isExactVersion, parseSemver, satisfiesRange, type Semver } from '../core/charts/index.js';

export interface ChartFetchOptions {
  /** Where fetched archives are kept (`<sha256 of the URL>/<name>-<version>.tgz`). */
  cacheDir: string;
  /** Bytes one download may hold (index or archive). Default 20 MiB. */
  maxBytes?: number;
  /** Wall-clock time of one download. Default 20 s. */
  timeMs?: number;
  /**
   * Hosts (names or addresses, as URLs spell them) that may be, or resolve to, private or internal
   * addresses (`DRIFTBACK_FETCH_ALLOW_PRIVATE`). Default: none, every such address is refused.
   */
  allowPrivate?: readonly string[];
}

/**
 * Downloads `url` in a child process; its body, or why not. Every hop (redirects followed by hand, at
 * most 5) is refused when its host is, or resolves to, a private or internal address (loopback,
 * RFC 1918, CGNAT, link-local with the cloud metadata address 169.254.169.254, unique-local IPv6, …)
 * that the allow-list does not name. The check runs in the lookup the connection itself uses, so a
 * name cannot resolve to a public address for the check and to a private one for the connection.
 */
const DOWNLOAD = `
const [http, https, dns, net] = await Promise.all(['node:http', 'node:https', 'node:dns', 'node:net'].map((m) => import(m)));
const [url, max, ms, allowText] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
const allowed = new Set(JSON.parse(allowText));
const blocked = new net.BlockList();
for (const [a, p] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3]]) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]]) blocked.addSubnet(a, p, 'ipv6');
const fail = (code, text) => { process.stderr.write(text); process.exit(code); };
function isPrivate(address) {
  const mapped = /^::ffff:(\\d+\\.\\d+\\.\\d+\\.\\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, net.isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
const refuse = (host, address) => fail(7, host === address
  ? address + ' is a private or internal address (DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it)'
  : host + ' resolves to ' + address + ', a private or internal address (DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it)');
function get(target, hops) {
  const u = new URL(target);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(6, target + ': only http and https are fetched');
  const host = u.hostname.replace(/^\\[|\\]$/g, '');
  const open = allowed.has(host);
  if (!open && net.isIP(host) && isPrivate(host)) refuse(host, host);
  const lookup = (name, options, callback) => dns.lookup(name, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error);
    const bad = open ? undefined : addresses.find((a) => isPrivate(a.address));
    if (bad) return refuse(host, bad.address);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
  const request = (u.protocol === 'https:' ? https : http).get(u, { lookup }, (res) => {
    if ([301, 302, 303, 307, 308].includes(res.statusCode) && res.headers.location) {
      res.resume();
      if (hops >= 5) fail(5, 'more than 5 redirects');
      return get(new URL(res.headers.location, u).href, hops + 1);
    }
    if (res.statusCode < 200 || res.statusCode > 299) fail(3, 'HTTP ' + res.statusCode);
    if (Number(res.headers['content-length'] ?? 0) > max) fail(4, 'too large');
    const chunks = []; let total = 0;
    res.on('data', (chunk) => { total += chunk.length; if (total > max) fail(4, 'too large'); chunks.push(chunk); });
    res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
    res.on('error', (error) => fail(5, String(error.message || error)));
  });
  request.on('error', (error) => fail(5, String(error.message || error)));
}
setTimeout(() => fail(5, 'timed out'), ms).unref();
get(url, 0);
`;

function download(url: string, options: ChartFetchOptions): Buffer | { reason: string } {
  if (!/^https?:\/\//.test(url)) return { reason: `${url}: only http and https repositories are fetched` };
  const maxBytes = options.maxBytes ?? 20 * 1024 * 1024;
  const timeMs = options.timeMs ?? 20_000;
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      DOWNLOAD,
      url,
      String(maxBytes),
      String(timeMs),
      JSON.stringify(options.allowPrivate ?? []),
    ],
    {
      timeout: timeMs + 2_000,
      killSignal: 'SIGKILL',
      maxBuffer: maxBytes + 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const mib = Math.round(maxBytes / 1024 / 1024);
  if (run.status === 4 || (run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOBUFS')
    return { reason: `${url} is larger than ${mib} MiB, the limit of one download` };
  if (run.signal || run.status === null) return { reason: `${url} took more than ${Math.round(timeMs / 1000)} s` };
  if (run.status !== 0) return { reason: `${url}: ${run.stderr.toString().trim() || 'download failed'}` };
  return run.stdout;
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

/** The archive of `name` at `version` from the Helm repository at `url`: cached, else downloaded and checked. */
export function fetchChart(
  url: string,
  name: string,
  version: string,
  options: ChartFetchOptions,
): { path: string; bytes: Buffer } | { reason: string } {
  if (url.startsWith('oci://'))
    return { reason: `${url}: charts of OCI registries are not fetched (give --charts DIR)` };
  const dir = join(options.cacheDir, createHash('sha256').update(url).digest('hex').slice(0, 32));
  const cached = join(dir, `${name}-${version}.tgz`);
  if (isExactVersion(version) && existsSync(cached)) return { path: cached, bytes: readFileSync(cached) };
  const base = url.replace(/\/+$/, '');
  const indexText = download(`${base}/index.yaml`, options);
  if ('reason' in indexText) return { reason: `chart ${name} ${version}: ${indexText.reason}` };
  let index: unknown;
  try {
    index = parse(indexText.toString('utf8'), { maxAliasCount: 100, uniqueKeys: false });
  } catch {
    return { reason: `${base}/index.yaml is not YAML` };
  }
  const entry = pickEntry(index, name, version);
  if (!entry) return { reason: `${base}/index.yaml lists no ${name} ${version || '(any version)'}` };
  const path = join(dir, `${name}-${entry.version}.tgz`);
  if (existsSync(path)) return { path, bytes: readFileSync(path) };
  const archiveUrl = new URL(entry.urls[0]!, `${base}/`).href;
  const bytes = download(archiveUrl, options);
  if ('reason' in bytes) return { reason: `chart ${name} ${entry.version}: ${bytes.reason}` };
  const got = createHash('sha256').update(bytes).digest('hex');
  if (entry.digest && entry.digest.replace(/^sha256:/, '') !== got)
    return { reason: `${archiveUrl} has sha256 ${got}, the index says ${entry.digest}` };
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${path}.part`, bytes);
  renameSync(`${path}.part`, path);
  return { path, bytes };
}

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
}

/** Downloads `url` in a child process; its body, or why not. */
const DOWNLOAD = `
const [url, max, ms] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
try {
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(ms) });
  if (!res.ok) { process.stderr.write('HTTP ' + res.status); process.exit(3); }
  if (Number(res.headers.get('content-length') ?? 0) > max) { process.stderr.write('too large'); process.exit(4); }
  const chunks = []; let total = 0;
  for await (const chunk of res.body) {
    total += chunk.length;
    if (total > max) { process.stderr.write('too large'); process.exit(4); }
    chunks.push(chunk);
  }
  process.stdout.write(Buffer.concat(chunks));
} catch (error) { process.stderr.write(String(error && error.message || error)); process.exit(5); }
`;

function download(url: string, options: ChartFetchOptions): Buffer | { reason: string } {
  if (!/^https?:\/\//.test(url)) return { reason: `${url}: only http and https repositories are fetched` };
  const maxBytes = options.maxBytes ?? 20 * 1024 * 1024;
  const timeMs = options.timeMs ?? 20_000;
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', DOWNLOAD, url, String(maxBytes), String(timeMs)],
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

// The chart renderer the core is handed: Helm found once, each chart rendered by a sandboxed
// `helm template` (run.ts), the output cached by everything that decides it — the chart's files (or
// archive) digest, the values digest, the Kubernetes version and API versions, release name and
// namespace — so an unchanged reconcile does not run Helm again. Repository charts (HelmRepository,
// OCI, Argo CD `chart:`) come from a directory of archives as `helm pull` writes them
// (`<name>-<version>.tgz`, DRIFTBACK_CHARTS_DIR or `--charts`), digest-checked when pinned, else are
// fetched from their Helm repository or OCI registry when the App allows it (fetch.ts).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareSemver,
  isExactVersion,
  parseSemver,
  satisfiesRange,
  type ChartOutput,
  type ChartRenderer,
  type ChartRequest,
  type Semver,
} from '../core/charts/index.js';
import type { HelmBinary } from './locate.js';
import { archiveDefaults, chartWithValuesFiles } from './archive-values.js';
import { fetchChart, type ChartFetchOptions } from './fetch.js';
import { DEFAULT_HELM_LIMITS, helmTemplate, type HelmLimits } from './run.js';

export interface ChartRendererOptions {
  helm: HelmBinary;
  limits?: HelmLimits;
  /** Date.now() value past which no chart starts and a running one is stopped (the job's end). */
  deadlineMs?: number;
  /** Directory of chart archives (`<name>-<version>.tgz`). */
  chartsDir?: string;
  /** Fetch repository charts missing from `chartsDir` (the App, when DRIFTBACK_FETCH_CHARTS allows it). */
  fetch?: ChartFetchOptions;
  /** Rendered outputs by key; shared across renders of a process. */
  cache?: Map<string, ChartOutput>;
}

/** Outputs kept per process: the newest 256 renders. */
const CACHE_ENTRIES = 256;

function digest(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(typeof part === 'string' ? part : Buffer.from(part)).update('\0');
  return hash.digest('hex');
}

/** The version `helm pull` would take: the exact one, else the highest archive in `chartsDir` the range allows. */
function pickVersion(chartsDir: string, name: string, version: string): string | undefined {
  if (isExactVersion(version)) return version;
  let best: { text: string; parsed: Semver } | undefined;
  for (const file of readdirSync(chartsDir)) {
    if (!file.startsWith(`${name}-`) || !file.endsWith('.tgz')) continue;
    const text = file.slice(name.length + 1, -4);
    const parsed = parseSemver(text);
    if (!parsed || !satisfiesRange(parsed, version)) continue;
    if (!best || compareSemver(parsed, best.parsed) > 0) best = { text, parsed };
  }
  return best?.text;
}

/** The archive of a repository chart in `chartsDir`, or why there is none. */
export function offlineArchive(
  request: ChartRequest,
  chartsDir: string | undefined,
): { path: string; bytes: Buffer } | { reason: string } {
  if (request.chart.type !== 'repository') return { reason: 'not a repository chart' };
  const { name, version: asked, digest: pinned, manifest } = request.chart;
  if (manifest)
    return {
      reason: `chart ${name} from ${request.chart.url} is pinned at manifest ${manifest}: the charts directory holds versions, so it is fetched (DRIFTBACK_FETCH_CHARTS) or not rendered`,
    };
  if (!chartsDir)
    return {
      reason: `chart ${name} ${asked} from ${request.chart.url} is not available offline (give --charts DIR or set DRIFTBACK_CHARTS_DIR)`,
    };
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return { reason: `chart ${name}: a name that is not one file name` };
  const version = pickVersion(chartsDir, name, asked || '*');
  if (!version) return { reason: `chart ${name} ${asked}: no archive in ${chartsDir} has a version it allows` };
  const path = join(chartsDir, `${name}-${version}.tgz`);
  if (!existsSync(path))
    return { reason: `chart ${name} ${version} is not in ${chartsDir} (as ${name}-${version}.tgz)` };
  const bytes = readFileSync(path);
  if (pinned) {
    const got = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (got !== pinned.replace(/^(?!sha256:)/, 'sha256:'))
      return { reason: `${path} has digest ${got}, the source pins ${pinned}` };
  }
  return { path, bytes };
}

function valuesFilesKey(chart: ChartRequest['chart']): string {
  const listed = chart.type === 'repository' ? chart.valuesFiles : undefined;
  return listed ? JSON.stringify(listed) : '';
}

function cacheKey(request: ChartRequest, archive: Buffer | undefined): string {
  const chart =
    request.chart.type === 'files'
      ? [...request.chart.files].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([path, text]) => [path, text])
      : [request.chart.url, request.chart.name, request.chart.version, archive ?? '', valuesFilesKey(request.chart)];
  const values = [...request.valueFiles, ...request.set.flatMap((s) => [s.kind, s.name, s.value])];
  return digest([
    digest(chart),
    digest(values),
    request.kubeVersion ?? '',
    request.apiVersions.join(','),
    request.releaseName,
    request.namespace,
    String(request.includeCrds),
    String(request.skipTests ?? false),
    String(request.isUpgrade ?? false),
  ]);
}

/** A repository chart's archive: from the offline directory, else fetched when the options allow it. */
function repositoryArchive(
  request: ChartRequest,
  options: ChartRendererOptions,
): { path: string; bytes: Buffer } | { reason: string } {
  const offline = offlineArchive(request, options.chartsDir);
  if (!('reason' in offline) || !options.fetch || request.chart.type !== 'repository') return offline;
  const { url, name, version, digest: pinned, manifest } = request.chart;
  const fetched = fetchChart(url, name, manifest ?? version, options.fetch);
  if ('reason' in fetched || !pinned) return fetched;
  const got = `sha256:${createHash('sha256').update(fetched.bytes).digest('hex')}`;
  return got === pinned.replace(/^(?!sha256:)/, 'sha256:')
    ? fetched
    : { reason: `${fetched.path} has digest ${got}, the source pins ${pinned}` };
}

/**
 * `helm template` of the request, with a repository chart's archive: as is, or, with `valuesFiles`, as the
 * chart source-controller builds (the listed files of the archive merged into its values.yaml).
 */
function runHelm(
  request: ChartRequest,
  options: ChartRendererOptions,
  archive: { path: string; bytes: Buffer } | undefined,
): ChartOutput {
  const deadline = options.deadlineMs ? { deadlineMs: options.deadlineMs } : {};
  const limits = options.limits ?? DEFAULT_HELM_LIMITS;
  const listed = request.chart.type === 'repository' ? request.chart.valuesFiles : undefined;
  if (archive && listed) {
    const built = chartWithValuesFiles(archive.bytes, listed);
    if ('reason' in built) return { ok: false, reason: built.reason };
    const ran = helmTemplate(
      options.helm,
      { ...request, chart: { type: 'files', files: built.files } },
      limits,
      deadline,
    );
    return ran.ok ? { ...ran, memo: new Map(), defaults: built.defaults } : ran;
  }
  const ran = helmTemplate(options.helm, request, limits, {
    ...deadline,
    ...(archive ? { archive: archive.path } : {}),
  });
  // The core keeps its parse of the output beside it: a cached output is not parsed again.
  // A repository chart's defaults come with its output: codify adds a value only they set.
  const defaults = ran.ok && archive ? archiveDefaults(archive.bytes) : undefined;
  return ran.ok ? { ...ran, memo: new Map(), ...(defaults ? { defaults } : {}) } : ran;
}

export function createChartRenderer(options: ChartRendererOptions): ChartRenderer {
  const cache = options.cache ?? new Map<string, ChartOutput>();
  return (request) => {
    let archive: { path: string; bytes: Buffer } | undefined;
    if (request.chart.type === 'repository') {
      const found = repositoryArchive(request, options);
      if ('reason' in found) return { ok: false, reason: found.reason };
      archive = found;
    }
    const key = cacheKey(request, archive?.bytes);
    const cached = cache.get(key);
    if (cached) return cached;
    const output = runHelm(request, options, archive);
    // A time limit depends on the job, not the chart: only what Helm decided is kept.
    if (output.ok || !/time limit|no time left/.test(output.reason)) {
      cache.set(key, output);
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    }
    return output;
  };
}

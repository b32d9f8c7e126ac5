// `helm template`, sandboxed. The chart is written from Git blobs into a fresh temporary directory as
// regular files only (a path that leaves the chart is refused; symlinks are never written, so nothing
// outside the chart can be read through one). Helm runs with a temporary HOME and Helm directories
// holding no credentials and no repositories, no KUBECONFIG (`lookup` finds nothing), proxies pointed
// at a closed local port (no network), DNS functions off (Helm's default), and a wall-clock, memory
// (address space) and output limit. Hooks are printed (no `--no-hooks`; test hooks are left out with
// `--skip-tests`): the core drops those no deletion runs and sets the delete hooks aside, which run when
// a plan deletes the release or the Application (core/charts/output.ts). The chart is written to memory-backed storage
// (/dev/shm) where the machine has it: a chart of a hundred files written to and removed from a busy
// disk costs more than Helm's own run; a full /dev/shm falls back to the temporary directory.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChartOutput, ChartRequest } from '../core/charts/index.js';
import { fileContent } from '../core/model/index.js';
import type { HelmBinary } from './locate.js';

export interface HelmLimits {
  /** Wall-clock time of one `helm template`. Default 30 s. */
  timeMs: number;
  /** Address space of the Helm process. Default 2048 MiB. */
  memoryMb: number;
  /** Bytes Helm may print. Default 16 MiB. */
  outputBytes: number;
}

export const DEFAULT_HELM_LIMITS: HelmLimits = { timeMs: 30_000, memoryMb: 2048, outputBytes: 16 * 1024 * 1024 };

/** A chart file's path as Helm reads it, or why it is refused. */
function chartPath(path: string): string | undefined {
  if (path === '' || path.startsWith('/') || path.includes('\0')) return undefined;
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return path;
}

/** Writes the request's chart (and values files) under `dir`; returns the chart directory or a reason. */
export function materialise(
  request: ChartRequest,
  dir: string,
  archive?: string,
): { chart: string } | { reason: string } {
  if (request.chart.type === 'repository') {
    if (!archive) return { reason: `chart ${request.chart.name} ${request.chart.version} is not available offline` };
    return { chart: archive };
  }
  const chart = join(dir, 'chart');
  mkdirSync(chart);
  const made = new Set<string>();
  for (const [path, text] of request.chart.files) {
    const safe = chartPath(path);
    if (!safe) return { reason: `chart file ${JSON.stringify(path)} leaves the chart directory` };
    const parent = dirname(safe);
    if (parent !== '.' && !made.has(parent)) {
      mkdirSync(join(chart, parent), { recursive: true });
      made.add(parent);
    }
    // A file that is not UTF-8 (a packaged subchart, `charts/<name>-<version>.tgz`) is written as its bytes.
    writeFileSync(join(chart, safe), fileContent(text), { flag: 'wx', mode: 0o644 });
  }
  return { chart };
}

function templateArgs(request: ChartRequest, chart: string, dir: string): string[] {
  // Test hooks never run at a deletion, and their names are often random: left out.
  const args = ['template', request.releaseName, chart, '--namespace', request.namespace, '--skip-tests'];
  if (request.includeCrds) args.push('--include-crds');
  if (request.isUpgrade) args.push('--is-upgrade');
  if (request.kubeVersion) args.push('--kube-version', request.kubeVersion);
  for (const api of request.apiVersions) args.push('--api-versions', api);
  request.valueFiles.forEach((text, i) => {
    const file = join(dir, `values-${i}.yaml`);
    writeFileSync(file, text, { mode: 0o600 });
    args.push('--values', file);
  });
  request.set.forEach((entry, i) => {
    if (entry.kind === 'file') {
      const file = join(dir, `set-file-${i}`);
      writeFileSync(file, entry.value, { mode: 0o600 });
      args.push('--set-file', `${entry.name}=${file}`);
    } else args.push(entry.kind === 'string' ? '--set-string' : '--set', `${entry.name}=${entry.value}`);
  });
  return args;
}

function sandboxEnv(dir: string): NodeJS.ProcessEnv {
  const home = join(dir, 'home');
  mkdirSync(home);
  const closed = 'http://127.0.0.1:9';
  return {
    HOME: home,
    PATH: '/usr/bin:/bin',
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    KUBECONFIG: join(home, 'no-kubeconfig'),
    HTTP_PROXY: closed,
    HTTPS_PROXY: closed,
    NO_PROXY: '',
    GOMEMLIMIT: '512MiB',
  };
}

/**
 * Helm's error line without its `Error: ` prefix. A chain of nested template calls repeats itself
 * (`error calling include: …` per level): its start (where) and its end (why) are kept.
 */
function helmError(stderr: string): string {
  const line = stderr.split('\n').find((l) => l.startsWith('Error:')) ?? stderr.trim().split('\n').pop() ?? '';
  const text = line.replace(/^Error:\s*/, '');
  if (!text) return 'helm failed without a message';
  return text.length <= 400
    ? text
    : `${text.slice(0, 160)} … ${text.slice(text.lastIndexOf(': error calling ') + 2)}`.slice(0, 600);
}

/** What a finished `helm template` gives: its manifest, or which limit stopped it, or Helm's error. */
function outcome(run: SpawnSyncReturns<string>, limits: HelmLimits, timeMs: number): ChartOutput {
  const error = run.error as NodeJS.ErrnoException | undefined;
  const mib = Math.round(limits.outputBytes / 1024 / 1024);
  if (error?.code === 'ENOBUFS')
    return { ok: false, reason: `helm printed more than ${mib} MiB, the output limit of one chart` };
  if (error?.code === 'ETIMEDOUT' || run.signal === 'SIGKILL') {
    return { ok: false, reason: `helm ran for more than ${Math.round(timeMs / 1000)} s, the time limit of one chart` };
  }
  if (error) return { ok: false, reason: `helm did not run: ${error.message}` };
  if (run.status === 0) return { ok: true, manifest: run.stdout };
  if (/out of memory|cannot allocate memory/i.test(run.stderr))
    return { ok: false, reason: `helm needed more than ${limits.memoryMb} MiB of memory, the limit of one chart` };
  return { ok: false, reason: `helm template failed: ${helmError(run.stderr)}` };
}

/** Memory-backed scratch space when the machine has one (Linux /dev/shm, writable), else none. */
const SHM = ((): string | undefined => {
  try {
    if (!statSync('/dev/shm').isDirectory()) return undefined;
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return undefined;
  }
})();

/** A fresh directory with the request's chart (and values) written in it, in `base`. */
function scratch(request: ChartRequest, base: string, archive?: string) {
  const dir = mkdtempSync(join(base, 'driftback-helm-'));
  try {
    const chart = materialise(request, dir, archive);
    return { dir, chart, args: 'reason' in chart ? [] : templateArgs(request, chart.chart, dir) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The scratch directory in /dev/shm, or in the temporary directory when there is none or it is full. */
function scratchDir(request: ChartRequest, archive?: string): ReturnType<typeof scratch> {
  if (SHM === undefined) return scratch(request, tmpdir(), archive);
  try {
    return scratch(request, SHM, archive);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    return scratch(request, tmpdir(), archive);
  }
}

/**
 * Runs `helm template` for one request under `limits`; `deadlineMs` (a Date.now() value): the job's end,
 * which shortens the time limit. `archive`: the chart archive of a repository chart, found offline.
 */
export function helmTemplate(
  helm: HelmBinary,
  request: ChartRequest,
  limits: HelmLimits = DEFAULT_HELM_LIMITS,
  options: { deadlineMs?: number; archive?: string } = {},
): ChartOutput {
  const timeMs = Math.min(limits.timeMs, options.deadlineMs ? options.deadlineMs - Date.now() : limits.timeMs);
  if (timeMs <= 0) return { ok: false, reason: 'the job has no time left to run helm' };
  const { dir, chart, args } = scratchDir(request, options.archive);
  try {
    if ('reason' in chart) return { ok: false, reason: chart.reason };
    // The shell sets the address-space limit, then becomes Helm.
    const run = spawnSync(
      '/bin/sh',
      ['-c', `ulimit -v ${limits.memoryMb * 1024} && exec "$0" "$@"`, helm.path, ...args],
      {
        cwd: dir,
        env: sandboxEnv(dir),
        timeout: timeMs,
        killSignal: 'SIGKILL',
        maxBuffer: limits.outputBytes,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return outcome(run, limits, timeMs);
  } finally {
    removeScratch(dir, request);
  }
}

/**
 * Removes the scratch directory: the chart files written are unlinked by name first, which spares
 * the recursive removal a stat per file; it then removes the directories and anything else.
 */
function removeScratch(dir: string, request: ChartRequest): void {
  if (request.chart.type === 'files')
    for (const path of request.chart.files.keys()) {
      const safe = chartPath(path);
      try {
        if (safe) unlinkSync(join(dir, 'chart', safe));
      } catch {
        // Not written (the chart was refused part way): the recursive removal below has nothing more to do.
      }
    }
  rmSync(dir, { recursive: true, force: true });
}

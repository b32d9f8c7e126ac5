// What the OCI chart tests share around a registry (the stand-in, the distribution registry, or one
// that asks for credentials): a Helm home of its own (where `helm registry login` keeps its login),
// `helm push` of packaged archives, fetch options that reach the registry on loopback over plain HTTP
// (its blobs may come from 127.0.0.2) with a fresh chart cache, and credential files for the App.
// `stop()` ends the registry and removes every temporary directory the session made.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChartCredentials, type ChartCredentials } from '../../../src/helm/credentials.js';
import type { ChartFetchOptions } from '../../../src/helm/fetch.js';
import { pinnedHelm } from '../tools.js';
import type { StandInRegistry } from './index.js';

export interface OciSession {
  /** `127.0.0.1:<port>`, as an `oci://` reference spells the registry. */
  host: string;
  /** Runs the pinned Helm with the session's home; its output (stdout and stderr), or throws with stderr. */
  helm: (args: string[], stdin?: string) => string;
  /** `helm registry login`: the user's credentials kept in the session's Helm home for later pushes. */
  login: (user: { username: string; password: string }) => void;
  /** `helm push` of an archive to `oci://<host>/<repository>`; the manifest digest Helm printed. */
  push: (archive: string, repository: string) => string;
  /** Options for fetching from the registry, with a cache of their own. */
  options: (extra?: Partial<ChartFetchOptions>) => ChartFetchOptions;
  /** `DRIFTBACK_CHART_CREDENTIALS` holding `yaml`, as the App loads it. */
  credentials: (yaml: string) => ChartCredentials;
  /** A temporary directory removed when the session stops. */
  tempDir: (prefix: string) => string;
  stop: () => void;
}

export function openOciSession(registry: StandInRegistry): OciSession {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const env = { HOME: tempDir('helm-home-'), PATH: '/usr/bin:/bin' };
  const helm = (args: string[], stdin?: string) => {
    const run = spawnSync(pinnedHelm(), args, { encoding: 'utf8', env, ...(stdin ? { input: stdin } : {}) });
    if (run.status !== 0) throw new Error(`helm ${args[0]}: ${run.stderr}`);
    return run.stdout + run.stderr;
  };
  return {
    host: registry.host,
    helm,
    login: ({ username, password }) =>
      void helm(
        ['registry', 'login', registry.host, '--plain-http', '--username', username, '--password-stdin'],
        password,
      ),
    push: (archive, repository) => {
      const pushed = helm(['push', archive, `oci://${registry.host}/${repository}`, '--plain-http']);
      return /Digest: (sha256:[0-9a-f]{64})/.exec(pushed)![1]!;
    },
    options: (extra = {}) => ({
      cacheDir: tempDir('chart-cache-'),
      allowPrivate: ['127.0.0.1', '127.0.0.2'],
      plainHttp: [registry.host],
      ...extra,
    }),
    credentials: (yaml) => {
      const file = join(tempDir('credentials-'), 'chart-credentials.yaml');
      writeFileSync(file, yaml);
      return loadChartCredentials(file);
    },
    tempDir,
    stop: () => {
      registry.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

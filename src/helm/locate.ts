// Where the Helm binary is: HELM_BINARY, else `helm` on PATH, else the pinned one `npm ci` extracts
// into .tools/bin (scripts/extract-tools.mjs). Its version is asked once (`helm version --short`) and
// must be Helm 3 or 4; anything else is "not found" with the reason, and charts stay reported, not
// rendered — never compared against nothing.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HelmBinary {
  readonly path: string;
  /** `v4.1.4+g05fa379`, as `helm version --short` prints it. */
  readonly version: string;
}

export type HelmLookup = { found: true; helm: HelmBinary } | { found: false; reason: string };

const PINNED = join(dirname(fileURLToPath(import.meta.url)), '../../.tools/bin/helm');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidate(env: NodeJS.ProcessEnv): string | undefined {
  if (env.HELM_BINARY) return env.HELM_BINARY;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, 'helm'))) return join(dir, 'helm');
  }
  return executable(PINNED) ? PINNED : undefined;
}

/** Finds Helm and checks its version; never throws. */
export function locateHelm(env: NodeJS.ProcessEnv = process.env): HelmLookup {
  const path = candidate(env);
  if (!path) return { found: false, reason: 'helm not found (set HELM_BINARY or put helm on PATH)' };
  let version: string;
  try {
    version = execFileSync(path, ['version', '--short'], {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: env.PATH ?? '', HOME: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { found: false, reason: `helm not found: ${path} did not run (${why})` };
  }
  if (!/^v[34]\./.test(version)) {
    return { found: false, reason: `helm not found: ${path} is ${version || 'of unknown version'}, not Helm 3 or 4` };
  }
  return { found: true, helm: { path, version } };
}

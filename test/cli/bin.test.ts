// The installed command: `npm run build`, then the package's `bin` entry (what `npx driftback`
// runs) as a separate process, with real exit codes and streams.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO_ROOT } from '../support/fixtures.js';

const run = promisify(execFile);

async function driftback(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = join(
    REPO_ROOT,
    (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: { driftback: string } }).bin.driftback,
  );
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: join(FIXTURES, 'k8s-diff'),
      env: { PATH: process.env.PATH, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the driftback command after npm run build', () => {
  beforeAll(async () => {
    // A type error elsewhere still emits JavaScript; what matters here is that the CLI runs.
    await run('npm', ['run', 'build'], { cwd: REPO_ROOT }).catch(() => undefined);
    expect(existsSync(join(REPO_ROOT, 'dist', 'cli', 'commands', 'diff.js'))).toBe(true);
  }, 300_000);

  it('diffs a live/desired pair and exits 1 on drift', async () => {
    const result = await driftback([
      'diff',
      '--desired',
      'argo-cd-controller/target-deployment.yaml',
      '--live',
      'argo-cd-controller/live-deployment.yaml',
      '--format',
      'json',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).summary).toMatchObject({ modified: 1 });
  });

  it('prints a token, and exits 2 with one line when the secret is unset', async () => {
    const ok = await driftback(['token', '--repository', 'acme/platform-gitops', '--cluster', 'prod-eu'], {
      DRIFTBACK_TOKEN_SECRET: 's3cret-0123456789abcdef0123456789',
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^dbk_\S+\n$/);
    const missing = await driftback(['token', '--repository', 'acme/platform-gitops', '--cluster', 'prod-eu']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'driftback token: DRIFTBACK_TOKEN_SECRET is not set: export the same secret the App runs with\n',
    );
  });
});

// The CI script: valid bash, and its docker-registry install step cannot fail CI where apt-get is
// missing or refuses (no root, no network): the OCI chart tests then run against the stand-in.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fixtures.js';

const script = join(REPO_ROOT, '.ci/run');

describe('.ci/run', () => {
  it('is valid bash', () => {
    const run = spawnSync('bash', ['-n', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('installs docker-registry in a step that succeeds even when apt-get is unavailable', () => {
    const step = readFileSync(script, 'utf8')
      .split('\n')
      .filter((line) => line.includes('apt-get install') && line.includes('docker-registry'));
    expect(step).toHaveLength(1);
    // Neither docker-registry nor apt-get on PATH, under the script's own strict mode.
    const run = spawnSync('/bin/bash', ['-euo', 'pipefail', '-c', step[0]!], {
      encoding: 'utf8',
      env: { PATH: '/nonexistent' },
    });
    expect(run.status).toBe(0);
    const failing = spawnSync('/bin/bash', ['-euo', 'pipefail', '-c', step[0]!.replace(/\|\| true\s*$/, '')], {
      encoding: 'utf8',
      env: { PATH: '/nonexistent' },
    });
    expect(failing.status).not.toBe(0);
  });
});

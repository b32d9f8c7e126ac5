// One pipeline, two doors, for drift: the snapshots the App received, given to `driftback codify`
// oldest first, write exactly the files the App's drift pull request commits — the same persistence
// gate (a change seen once is not proposed yet), the same edits, byte for byte.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { appliedObjects, CLUSTER, configText, gitopsRepository, scaled, snapshotOf, withEnv } from './live.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-drift-parity-'));
let harness: AppHarness | undefined;
afterAll(async () => {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

it('codify on the same snapshots writes what the App commits to its drift branch', async () => {
  const files = gitopsRepository(configText().replace('minSnapshots: 1', 'minSnapshots: 2'));
  const h = (harness = await startAppHarness({ files }));
  const live = appliedObjects(files);
  const first = scaled(live, 'frontend', 5);
  // Replicas stay at 5 (persisted); an env var appears in the second snapshot only (not yet drift).
  const second = withEnv(first, 'frontend', { name: 'DEBUG', value: 'true' });
  const snapshots = [
    snapshotOf(h.repository, first, '2026-12-02T03:05:00Z'),
    snapshotOf(h.repository, second, '2026-12-02T03:15:00Z'),
  ];
  for (const snapshot of snapshots) {
    expect((await uploadSnapshot(h, snapshot)).status).toBe(202);
    await drain(h);
  }
  const branch = h.standIn.readFiles(h.owner, h.repo, `driftback/${CLUSTER}`);

  const repo = join(work, 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  const lives = snapshots.map((snapshot, i) => {
    const path = join(work, `snapshot-${i}.json`);
    writeFileSync(path, JSON.stringify(snapshot));
    return ['--live', path];
  });
  const cli = await runCli(['codify', '--repo', repo, '--cluster', CLUSTER, ...lives.flat()], { cwd: work });
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);

  const frontend = 'clusters/prod-eu/frontend-deployment.yaml';
  expect(branch.get(frontend)).toContain('replicas: 5');
  expect(branch.get(frontend)).not.toContain('DEBUG');
  for (const path of Object.keys(files)) expect(readFileSync(join(repo, path), 'utf8')).toBe(branch.get(path));
});

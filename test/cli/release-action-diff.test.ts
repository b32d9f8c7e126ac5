// `driftback diff` of a Flux HelmRelease whose chart renders differently at install and at upgrade: the
// cluster holds the output of the release's newest revision (revision 1: the install's; later ones: an
// upgrade's, where Helm deleted the install-only object). Neither is reported as drift.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartFiles, liveReleaseAction, RELEASE_ACTION } from '../support/charts.js';
import { pinnedHelm } from '../support/tools.js';
import { snapshotText, writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const LABELS = { 'helm.toolkit.fluxcd.io/name': 'action', 'helm.toolkit.fluxcd.io/namespace': 'apps' };

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'apps', labels: LABELS },
  data,
});

describe('driftback diff of a HelmRelease whose chart branches on install and upgrade', () => {
  const files = chartFiles('charts/release-action', 'charts/release-action');
  files.set('clusters/prod/release.yaml', RELEASE_ACTION);
  files.set('.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n');
  const repo = writeRepository('release-action', files);
  const env = { HELM_BINARY: pinnedHelm(), PATH: '/usr/bin:/bin' };

  async function diff(items: unknown[]) {
    const snapshot = join(repo, `snapshot-${items.length}.json`);
    writeFileSync(snapshot, snapshotText(items));
    return runCli(['diff', '--desired', repo, '--live', snapshot, '--cluster', 'prod'], { env, cwd: repo });
  }

  const installed = configMap('action-action', { action: 'install', isInstall: 'true', replicas: '1' });
  const upgraded = configMap('action-action', { action: 'upgrade', isInstall: 'false', replicas: '1' });
  const firstInstall = configMap('action-first-install', { note: 'made once, at the first install' });
  it.each([
    ['after the install (revision 1), the install-only object included', 1, [installed, firstInstall]],
    ['after an upgrade removed the install-only object', 2, [upgraded]],
  ])('finds no drift %s', async (_, version, objects) => {
    const { code, stdout } = await diff([liveReleaseAction([{ status: 'deployed', version }]), ...objects]);
    expect(stdout).toContain(`${objects.length + 1} in sync, 0 modified, 0 missing, 0 extra`);
    expect(code).toBe(0);
  });

  it('shows the install output as drift once the release was upgraded', async () => {
    const { code, stdout } = await diff([liveReleaseAction([{ status: 'deployed', version: 2 }]), installed]);
    expect(stdout).toContain('-  action: upgrade\n');
    expect(stdout).toContain('+  action: install');
    expect(code).toBe(1);
  });
});

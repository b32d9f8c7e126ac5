// What `driftback diff` and `plan` say beside the drift, in text, JSON and Markdown: each suspended
// source (since when, by whom, the command that resumes it, and that drift under it is not being
// reverted), who made every entry that is reported and not codified, and the live objects whose name
// keeps them from ever being written as files. The clusters are the controller fixtures built from
// what Flux, Argo CD and kubectl write (test/fixtures/controllers: `emergency`, `hand-made`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonDiffDocument } from '../../src/core/report/index.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { expectGolden } from './golden.js';
import { runCli } from './run-cli.js';

const CONTROLLERS = join(REPO_ROOT, 'test/fixtures/controllers');
const work = mkdtempSync(join(tmpdir(), 'driftback-reports-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `diff` (or `plan`) of one cluster of a controller scenario against one of its snapshots. */
function run(verb: 'diff' | 'plan', scenario: string, cluster: string, snapshot: string, ...more: string[]) {
  const dir = join(CONTROLLERS, scenario);
  const config = ['--config', join(dir, 'repo/.github/driftback.yml'), '--cluster', cluster];
  const manifests = verb === 'plan' ? ['--head', join(dir, 'repo')] : [];
  return runCli([verb, ...manifests, ...config, '--live', join(dir, 'live', snapshot), ...more]);
}

describe('suspended sources', () => {
  it('Flux: the suspended Kustomization, who suspended it and when, and how to resume it (text, markdown)', async () => {
    const text = await run('diff', 'emergency', 'kind-dev', 'flux-2-suspended.json');
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      'Suspended (drift under a suspended source is not being reverted):\n' +
        '  Kustomization/flux-system/apps: suspended since 2026-12-01 10:02 UTC by flux; drift under it is not being reverted (1 drifted)\n' +
        '    resume it: flux resume kustomization apps -n flux-system\n',
    );
    expectGolden('suspended-flux.txt', text.stdout);
    expectGolden(
      'suspended-flux.md',
      (await run('diff', 'emergency', 'kind-dev', 'flux-2-suspended.json', '--format', 'markdown')).stdout,
    );
  });

  it('Flux: JSON lists each suspension with its resume command', async () => {
    const { stdout } = await run('diff', 'emergency', 'kind-dev', 'flux-2-suspended.json', '--format', 'json');
    const document = JSON.parse(stdout) as JsonDiffDocument & { suspensions: unknown[] };
    expect(document.suspensions).toEqual([
      {
        resource: 'Kustomization/flux-system/apps',
        kind: 'flux-kustomization',
        method: 'suspend',
        since: '2026-12-01T10:02:00Z',
        by: 'flux',
        resume: 'flux resume kustomization apps -n flux-system',
        drift: 1,
        note: 'drift under it is not being reverted',
      },
    ]);
  });

  it('Argo CD: automated sync off, with no recorded writer, and the command that turns it back on', async () => {
    const { stdout } = await run('diff', 'emergency', 'kind-argo', 'argo-2-autosync-off.json');
    expect(stdout).toContain(
      '  Application/argocd/guestbook: suspended (since an unrecorded time); drift under it is not being reverted (1 drifted)\n' +
        '    re-enable automated sync: argocd app set guestbook --sync-policy automated\n',
    );
    expectGolden('suspended-argocd.txt', stdout);
  });

  it('plan: the same suspensions in text, JSON and the Markdown comment', async () => {
    const text = await run('plan', 'emergency', 'kind-dev', 'flux-2-suspended.json');
    expect(text.stdout).toContain(
      'Suspended (drift under a suspended source is not being reverted):\n' +
        '  Kustomization/flux-system/apps: suspended since 2026-12-01 10:02 UTC by flux; drift under it is not being reverted\n' +
        '    resume it: flux resume kustomization apps -n flux-system\n',
    );
    const json = JSON.parse(
      (await run('plan', 'emergency', 'kind-dev', 'flux-2-suspended.json', '--format', 'json')).stdout,
    );
    expect(json.suspensions).toEqual([
      expect.objectContaining({
        resource: 'Kustomization/flux-system/apps',
        since: '2026-12-01T10:02:00Z',
        by: 'flux',
        resume: 'flux resume kustomization apps -n flux-system',
      }),
    ]);
    const markdown = await run('plan', 'emergency', 'kind-dev', 'flux-2-suspended.json', '--format', 'markdown');
    expect(markdown.stdout).toContain(
      '\n\n⏸️ `Kustomization/flux-system/apps` has been suspended since 10:02 UTC by `flux`: drift under it is not being reverted; resume it: `flux resume kustomization apps -n flux-system`',
    );
  });

  it('a cluster with nothing suspended shows no such block', async () => {
    const { stdout } = await run('diff', 'emergency', 'kind-dev', 'flux-1-before.json');
    expect(stdout).not.toContain('Suspended');
  });
});

describe('who made what is reported and not codified', () => {
  it('a Pod made by kubectl run, imperative actions and an autoscaled field carry manager, time and cause', async () => {
    const text = await run('diff', 'hand-made', 'kind', 'hand-made.json');
    expect(text.stdout).toContain(
      'reported, not codified: Pod/shop/debug (kubectl-run at 2026-12-01 12:19 UTC, human): ephemeral kind',
    );
    expect(text.stdout).toContain('reported, not codified: spec.replicas (kubectl at 2026-12-01 12:16 UTC, human)');
    const { stdout } = await run('diff', 'hand-made', 'kind', 'hand-made.json', '--format', 'json');
    const reported = (JSON.parse(stdout) as JsonDiffDocument).reported ?? [];
    expect(reported).toContainEqual(
      expect.objectContaining({
        id: { group: '', kind: 'Pod', namespace: 'shop', name: 'debug' },
        manager: 'kubectl-run',
        time: '2026-12-01T12:19:00Z',
        cause: 'human',
      }),
    );
    for (const entry of reported) expect(entry.cause).toMatch(/^(human|controller|applier|unknown)$/);
    expect(reported.filter((entry) => !entry.manager)).toEqual([]);
    expectGolden(
      'hand-made.md',
      (await run('diff', 'hand-made', 'kind', 'hand-made.json', '--format', 'markdown')).stdout,
    );
  });
});

describe('objects never written as files', () => {
  const snapshot = JSON.parse(readFileSync(join(CONTROLLERS, 'hand-made/live/hand-made.json'), 'utf8'));
  const created = '2026-12-01T12:30:00Z';
  const handMade = (kind: string, apiVersion: string, metadata: Record<string, unknown>) => ({
    apiVersion,
    kind,
    metadata: {
      ...metadata,
      uid: `uid-${kind}`,
      creationTimestamp: created,
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion,
          time: created,
          fieldsType: 'FieldsV1',
          fieldsV1: {},
        },
      ],
    },
    ...(kind === 'ClusterRole' ? { rules: [] } : { data: { a: '1' } }),
  });
  snapshot.items.push(
    // RBAC names are path segments: the API server takes a newline, a file system does not.
    handMade('ClusterRole', 'rbac.authorization.k8s.io/v1', { name: 'ops\nadmin' }),
    handMade('ConfigMap', 'v1', { name: 'cfg', namespace: '../../.github' }),
  );
  const file = join(work, 'odd-names.json');
  writeFileSync(file, JSON.stringify(snapshot));
  const diff = (...more: string[]) => {
    const dir = join(CONTROLLERS, 'hand-made');
    return runCli([
      'diff',
      '--config',
      join(dir, 'repo/.github/driftback.yml'),
      '--cluster',
      'kind',
      '--live',
      file,
      ...more,
    ]);
  };

  it('are listed with the reason in text, JSON and Markdown, and the rest of the cluster is compared', async () => {
    const text = await diff();
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain(
      'Not written as files (a name the API server or a file system would refuse):\n' +
        `  items[${snapshot.items.length - 2}] "ClusterRole": "ops\\nadmin" cannot be a file name: it contains a control character; compared, never written as a file\n` +
        `  items[${snapshot.items.length - 1}] "ConfigMap": "../../.github" is not a namespace name:`,
    );
    expect(text.stdout).toContain('~ Gateway/shop/shop  modified');
    const json = JSON.parse((await diff('--format', 'json')).stdout);
    expect(json.skipped).toEqual([
      expect.objectContaining({ path: `items[${snapshot.items.length - 2}].metadata.name`, compared: true }),
      expect.objectContaining({ path: `items[${snapshot.items.length - 1}].metadata.namespace`, compared: false }),
    ]);
    expect((await diff('--format', 'markdown')).stdout).toContain('#### Not written as files');
  });

  it('codify writes no file for a hand-made object whose name no API server accepts, and says why', async () => {
    const odd = JSON.parse(JSON.stringify(snapshot));
    odd.items.push(handMade('ConfigMap', 'v1', { name: 'ops%20cfg', namespace: 'shop' }));
    const oddFile = join(work, 'odd-configmap.json');
    writeFileSync(oddFile, JSON.stringify(odd));
    const dir = join(CONTROLLERS, 'hand-made', 'repo');
    const { stdout, code } = await runCli([
      'codify',
      '--repo',
      dir,
      '--cluster',
      'kind',
      '--live',
      oddFile,
      '--dry-run',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'ConfigMap/shop/ops%20cfg: metadata.name "ops%20cfg" is not a valid ConfigMap name: it must be a lowercase RFC 1123 subdomain',
    );
    expect(stdout).toContain('no file is written for it');
    expect(stdout).not.toMatch(/^\+\+\+ .*ops/m);
    // The other hand-made ConfigMap is still written: one odd object never stops the rest.
    expect(stdout).toContain('new-file     ConfigMap/shop/feature-flags');
  });
});

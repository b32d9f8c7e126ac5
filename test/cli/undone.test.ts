// `driftback diff` given repeated --live snapshots (oldest first) follows a person's change its controller was
// about to undo, as the App does between uploads: when a later snapshot shows Flux took it back, the report
// says so ("undone by Flux … at ~time") instead of letting it vanish. The later snapshot is flux-podinfo's
// hand-changes as kustomize-controller leaves it after its next reconcile (test/support/controllers.ts
// fluxPodinfoAfterReconcile: Git's values back, the kubectl entries taken over, its Apply entry at 12:13:41).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTROLLER_SCENARIOS, fluxPodinfoAfterReconcile } from '../support/controllers.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-undone-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const scenario = join(CONTROLLER_SCENARIOS, 'flux-podinfo');
const before = join(scenario, 'live', 'hand-changes.json');

function afterFluxReconciled(): string {
  const file = join(work, 'after.json');
  writeFileSync(file, JSON.stringify(fluxPodinfoAfterReconcile()));
  return file;
}

const after = afterFluxReconciled();
const args = ['--cluster', 'kind-dev', '--config', join(scenario, 'repo', '.github', 'driftback.yml')];

describe('diff over repeated --live snapshots', () => {
  it("says which person's changes the controller undid, when and whose they were", async () => {
    const run = await runCli(['diff', ...args, '--live', before, '--live', after]);
    expect(run.stdout).toContain(
      "↩️ A person's change was undone by Flux Kustomization flux-system/apps at ~12:13 UTC: Deployment/podinfo/podinfo spec.replicas (kubectl, 12:05 UTC)",
    );
    expect(run.stdout.match(/↩️/g)).toHaveLength(4);
  });

  it('lists them in JSON', async () => {
    const run = await runCli(['diff', ...args, '--live', before, '--live', after, '--format', 'json']);
    const document = JSON.parse(run.stdout) as {
      undone: Array<{ path: string; manager: string; by: string; at: string }>;
    };
    expect(document.undone.map((u) => `${u.path} ${u.manager} ${u.at}`).sort()).toEqual([
      '/spec/replicas kubectl 2026-12-01T12:13:41Z',
      '/spec/template/spec/containers/0/env/3 kubectl-edit 2026-12-01T12:13:41Z',
      '/spec/template/spec/containers/0/image kubectl-set 2026-12-01T12:13:41Z',
      '/spec/template/spec/containers/0/resources/limits/memory kubectl-edit 2026-12-01T12:13:41Z',
    ]);
  });

  it('one snapshot, or a change still there: nothing is said undone', async () => {
    for (const lives of [[before], [before, before]]) {
      const run = await runCli(['diff', ...args, ...lives.flatMap((live) => ['--live', live])]);
      expect(run.stdout).not.toContain('undone by');
    }
  });
});

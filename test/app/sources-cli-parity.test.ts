// One pipeline, two doors, for a Flux cluster (test/fixtures/controllers/flux-podinfo): the App's drift
// branch for the hand-changes snapshot holds exactly what `driftback codify` writes on the same snapshot,
// the changes written where Flux reads them (the Kustomization's patch and image override, the overlay),
// and the pull request body names the source they come from.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-sources-parity-'));
let harness: AppHarness | undefined;
afterAll(async () => {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

it("the App and driftback codify write a Flux cluster's hand changes into the same files", async () => {
  const files = new Map(scenarioRepository('flux-podinfo'));
  // One snapshot is enough here: the gate is the same for both doors and not what this test is about.
  files.set('.github/driftback.yml', `${files.get('.github/driftback.yml')}drift:\n  minSnapshots: 1\n`);
  const h = (harness = await startAppHarness({ files, owner: 'acme', repo: 'podinfo-gitops' }));
  const snapshot = { ...scenarioSnapshot('flux-podinfo', 'hand-changes'), repository: h.repository };
  expect((await uploadSnapshot(h, snapshot)).status).toBe(202);
  await drain(h);
  const branch = h.standIn.readFiles(h.owner, h.repo, 'driftback/kind-dev');
  expect(branch.get('clusters/kind-dev/apps.yaml')).toContain('                      memory: 384Mi\n');
  expect(branch.get('clusters/kind-dev/apps.yaml')).toContain('      newTag: 6.14.1\n');
  expect(branch.get('apps/base/podinfo/deployment.yaml')).toBe(files.get('apps/base/podinfo/deployment.yaml'));
  const [pull] = [...h.standIn.state.repo(h.owner, h.repo).issues.values()].filter((issue) => issue.pull);
  // The body names the source the changes come from, with its drift and the revision Flux applied, under
  // the summary line (its status.lastAppliedRevision in the snapshot).
  // (Above it: what Flux does next to these changes, since kustomize-controller takes them back.)
  const lines = (pull!.body ?? '').split('\n');
  expect(lines[0]).toMatch(/^#### ⏳ Flux Kustomization flux-system\/apps will undo these changes/);
  const at = lines.findIndex((text) => /^\*\*1 object, 4 live changes by /.test(text));
  expect(at).toBeGreaterThan(0);
  const [, , from, line] = lines.slice(at);
  expect(from).toBe('From this source:');
  expect(line).toBe(
    '- `flux-system/apps`: 1 object, 4 live changes, applied `main@sha1:7c1f4e2a9b3d5c8e0f6a1b2c3d4e5f60718293a4`',
  );
  expect(pull!.body ?? '').not.toContain('`flux-system/flux-system`:');

  const repo = join(work, 'repo');
  for (const [path, text] of files) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  const live = join(work, 'snapshot.json');
  writeFileSync(live, JSON.stringify(snapshot));
  const cli = await runCli(['codify', '--repo', repo, '--cluster', 'kind-dev', '--live', live], { cwd: work });
  expect(cli.stderr).toBe('');
  for (const path of branch.keys()) expect(readFileSync(join(repo, path), 'utf8')).toBe(branch.get(path));
});

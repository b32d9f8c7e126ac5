// `driftback plan` on a pull request that deletes a Flux HelmRelease: the Kustomization prunes it,
// helm-controller runs `helm uninstall`, and Helm runs the chart's `pre-delete` hooks before it deletes
// the release's objects and its `post-delete` hooks after (helm-controller reconcileDelete; Helm
// pkg/action/uninstall.go) — not when the HelmRelease is suspended or `spec.uninstall.disableHooks` is
// set. Helm runs the hooks of the release it installed: the base commit's render, listed as such.
import { dirname, join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { RELEASE, RELEASE_PATH, releaseRepository, renderedRelease } from '../support/helmrelease-emergency.js';
import { pinnedHelm } from '../support/tools.js';
import { snapshotText, writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const HOOK = `apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}-backup
  annotations:
    helm.sh/hook: pre-delete,post-delete
    helm.sh/hook-delete-policy: hook-succeeded
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: backup, image: 'busybox:1.37'}]
`;

const SETTINGS = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: podinfo}\ndata: {a: b}\n';

/** Base: the HelmRelease with a chart that has a delete hook; head: the HelmRelease removed. */
function scenario(release: string) {
  const base = releaseRepository(release);
  base.set('charts/web/templates/backup-hook.yaml', HOOK);
  base.set('clusters/prod/settings.yaml', SETTINGS);
  const head = new Map(base);
  head.delete(RELEASE_PATH);
  const live = renderedRelease(base).map((object): KubeObject => ({ ...object }));
  const dir = writeRepository('helmrelease-delete-hooks', []);
  for (const [name, files] of [
    ['base', base],
    ['head', head],
  ] as const)
    for (const [path, text] of files) writeFileText(join(dir, name, path), text);
  writeFileSync(join(dir, 'live.json'), snapshotText(live));
  return dir;
}

function writeFileText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

async function plan(dir: string, format = 'text') {
  const args = ['plan', '--head', 'head', '--base', 'base', '--live', 'live.json', '--cluster', 'prod'];
  return runCli([...args, '--format', format], { cwd: dir, env: { HELM_BINARY: pinnedHelm(), PATH: '/usr/bin:/bin' } });
}

const uninstall = (spec: string) => RELEASE.replace('spec:\n', `spec:\n${spec}`);

describe('driftback plan when a pull request deletes a HelmRelease whose chart has delete hooks', () => {
  it('lists the hooks helm uninstall runs, from the release base installed', async () => {
    const dir = scenario(RELEASE);
    const result = await plan(dir);
    expect(result.stdout).toContain('  - HelmRelease/podinfo/podinfo');
    expect(result.stdout).not.toMatch(/[+-] Job\//);
    expect(result.stdout).toContain(
      'Hooks (run when the plan deletes their HelmRelease, not desired state):\n' +
        '  > Job/podinfo/podinfo-backup: Helm hook (pre-delete,post-delete) of HelmRelease podinfo/podinfo: when its ' +
        "HelmRelease is deleted (helm uninstall: pre-delete, before the release's objects are deleted; post-delete, " +
        "after the release's objects are deleted); listed from the base commit's render: helm uninstall runs the " +
        'hooks of the release it installed\n',
    );
    const doc = JSON.parse((await plan(dir, 'json')).stdout);
    expect(doc.deleteHooks).toHaveLength(1);
    expect(doc.deleteHooks[0]).toMatchObject({
      application: { group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease', namespace: 'podinfo', name: 'podinfo' },
      id: { kind: 'Job', namespace: 'podinfo', name: 'podinfo-backup' },
      onDelete: ['PreDelete', 'PostDelete'],
      file: 'charts/web/templates/backup-hook.yaml',
      origin: { at: 'base' },
    });
    expect(doc.hooks).toBeUndefined();
    expect((await plan(dir, 'markdown')).stdout).toContain(
      'Hooks that run when the plan deletes their HelmRelease (not desired state): `Job/podinfo/podinfo-backup` ' +
        '(Helm hook (pre-delete,post-delete) of HelmRelease `podinfo/podinfo`: when its HelmRelease is deleted',
    );
  });

  it('lists none when the HelmRelease is suspended (no uninstall) or disables uninstall hooks', async () => {
    for (const spec of ['  suspend: true\n', '  uninstall: {disableHooks: true}\n']) {
      const result = await plan(scenario(uninstall(spec)));
      expect(result.stdout).toContain('  - HelmRelease/podinfo/podinfo');
      expect(result.stdout).not.toContain('Hooks (run when the plan deletes');
    }
  });
});

describe('what deleting a HelmRelease leaves in the cluster', () => {
  it("helm uninstall deletes the release's objects but not the CRDs of the chart's crds/ directory", async () => {
    const { stdout } = await plan(scenario(RELEASE));
    expect(stdout).toContain('prod: 0 to create, 0 to update, 4 to prune, 1 unchanged');
    for (const id of [
      'ConfigMap/podinfo/podinfo-web-settings',
      'Service/podinfo/podinfo-web',
      'Deployment/podinfo/podinfo-web',
    ])
      expect(stdout).toContain(`  - ${id}\n`);
    expect(stdout).toContain(
      "  = CustomResourceDefinition/widgets.example.com: helm uninstall never deletes the CRDs of a chart's crds/ " +
        'directory (HelmRelease podinfo/podinfo)\n',
    );
    expect(stdout).not.toContain('prune-protected');
  });
  it('a suspended HelmRelease is let go without an uninstall: its objects stay', async () => {
    const { stdout } = await plan(scenario(uninstall('  suspend: true\n')));
    expect(stdout).toContain('prod: 0 to create, 0 to update, 1 to prune, 1 unchanged');
    expect(stdout).toContain('  - HelmRelease/podinfo/podinfo\n');
    for (const id of ['ConfigMap/podinfo/podinfo-web-settings', 'Deployment/podinfo/podinfo-web'])
      expect(stdout).toContain(
        `  = ${id}: HelmRelease podinfo/podinfo is suspended: helm-controller lets it go without uninstalling the ` +
          'release, so this stays\n',
      );
    const doc = JSON.parse((await plan(scenario(uninstall('  suspend: true\n')), 'json')).stdout);
    expect(doc.prune.map((entry: { id: { kind: string } }) => entry.id.kind)).toEqual(['HelmRelease']);
  });
});

// `driftback plan` on a pull request after which an ApplicationSet no longer generates one of its
// Applications (its directory removed): the ApplicationSet controller deletes that Application, and Argo CD
// deletes what it deployed when it carries the resources finalizer (the default; not with
// `syncPolicy.preserveResourcesOnDeletion`). Under the `create-update` policy nothing is deleted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { appSetSnapshot, appSetTree, writeTree, type AppSetOptions } from '../support/appset-repo.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-appset-delete-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Base generates `web` and `api`, head only `web`; live is what base left, the Applications included. */
function snapshot(name: string, options: AppSetOptions): void {
  const files = writeTree(work, `${name}-base`, appSetTree({ web: 1, api: 1 }, options));
  writeFileSync(join(work, `${name}-live.json`), appSetSnapshot(files, { applications: true }));
  writeTree(work, `${name}-head`, appSetTree({ web: 1 }, options));
}

const plan = (name: string) =>
  runCli(
    ['plan', '--head', `${name}-head`, '--base', `${name}-base`, '--live', `${name}-live.json`, '--cluster', 'prod'],
    {
      cwd: work,
    },
  );

const job = (name: string, hook: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  annotations:
    argocd.argoproj.io/hook: ${hook}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: 'busybox:1.37'}]
`;

/** Delete hooks in both directories; head keeps `apps/api` but the generator excludes it. */
function hooksScenario(): void {
  const more = {
    'apps/api/cleanup.yaml': job('cleanup', 'PostDelete'),
    'apps/api/drain.yaml': job('drain', 'PreDelete'),
    'apps/web/cleanup.yaml': job('cleanup', 'PostDelete'),
  };
  const files = writeTree(work, 'hooks-base', appSetTree({ web: 1, api: 1 }, { more }));
  writeFileSync(join(work, 'hooks-live.json'), appSetSnapshot(files, { applications: true }));
  const directories = [{ path: 'apps/*' }, { path: 'apps/api', exclude: true }];
  const generators = [{ git: { repoURL: 'https://github.com/acme/gitops.git', revision: 'HEAD', directories } }];
  writeTree(work, 'hooks-head', appSetTree({ web: 1, api: 1 }, { more, generators }));
}

/**
 * Delete hooks in `apps/api`, which head removes: the ApplicationSet no longer generates `api`, and its
 * source no longer renders; the live Application carries the finalizers Argo CD set for its hooks.
 */
function hooksGoneScenario(): void {
  const more = {
    'apps/api/cleanup.yaml': job('cleanup', 'PostDelete'),
    'apps/api/drain.yaml': job('drain', 'PreDelete'),
  };
  const files = writeTree(work, 'gone-base', appSetTree({ web: 1, api: 1 }, { more }));
  const live = JSON.parse(appSetSnapshot(files, { applications: true })) as { items: KubeObject[] };
  for (const item of live.items)
    if (item.kind === 'Application' && item.metadata.name === 'api')
      item.metadata.finalizers = [
        'resources-finalizer.argocd.argoproj.io',
        'pre-delete-finalizer.argocd.argoproj.io',
        'post-delete-finalizer.argocd.argoproj.io',
      ];
  writeFileSync(join(work, 'gone-live.json'), JSON.stringify(live));
  writeTree(work, 'gone-head', appSetTree({ web: 1 }));
}

snapshot('cascade', {});
hooksGoneScenario();
hooksScenario();
snapshot('preserve', { syncPolicy: { preserveResourcesOnDeletion: true } });
snapshot('create-update', { syncPolicy: { applicationsSync: 'create-update' } });

describe('driftback plan when an ApplicationSet stops generating an Application', () => {
  it('prunes the Application and what it deployed (the resources finalizer)', async () => {
    const result = await plan('cascade');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 2 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).toContain('  - Deployment/api/api');
    expect(result.stdout).not.toContain('Deployment/web/web');
  });

  it('prunes only the Application under preserveResourcesOnDeletion: what it deployed stays', async () => {
    const result = await plan('preserve');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 1 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).toContain(
      '  = Deployment/api/api: ApplicationSet argocd/apps no longer generates Application argocd/api: the controller ' +
        'deletes it without the resources finalizer (syncPolicy.preserveResourcesOnDeletion), so this stays in the ' +
        'cluster, managed by no Application',
    );
  });

  it('deletes nothing under the create-update policy', async () => {
    const result = await plan('create-update');
    expect(result.stdout).not.toContain('Application/argocd/api');
    expect(result.stdout).not.toMatch(/- Deployment\/api\/api/);
    // The Application stays, its path gone: Argo CD's repo server refuses it, so it syncs nothing.
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 0 to prune');
    expect(result.stdout).toContain(
      'argocd/api: not rendered: apps/api: spec.source.path: Application argocd/api: app path apps/api does not exist',
    );
  });

  it('says which delete hooks run when the Application is deleted; they are never created or pruned', async () => {
    const result = await plan('hooks');
    // The ApplicationSet's own change is the one update.
    expect(result.stdout).toContain('prod: 0 to create, 1 to update, 2 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).not.toMatch(/[+-] Job\//);
    expect(result.stdout).toContain(
      'Hooks (run when the plan deletes their Application, not desired state):\n' +
        '  > Job/api/drain: Argo CD PreDelete hook of Application argocd/api: when its Application is deleted ' +
        '(PreDelete, before what it deployed is deleted)\n' +
        '  > Job/api/cleanup: Argo CD PostDelete hook of Application argocd/api: when its Application is deleted ' +
        '(PostDelete, after what it deployed is deleted)\n',
    );
    // The Application that stays runs no delete hook, and no sync runs one.
    expect(result.stdout).not.toContain('Job/web/cleanup');
    const json = await runCli(
      [
        'plan',
        '--head',
        'hooks-head',
        '--base',
        'hooks-base',
        '--live',
        'hooks-live.json',
        '--cluster',
        'prod',
        '--format',
        'json',
      ],
      { cwd: work },
    );
    const doc = JSON.parse(json.stdout);
    expect(
      doc.deleteHooks.map((entry: { id: { name: string }; onDelete: string[] }) => [entry.id.name, entry.onDelete]),
    ).toEqual([
      ['drain', ['PreDelete']],
      ['cleanup', ['PostDelete']],
    ]);
    expect(doc.deleteHooks[0].application).toEqual({
      group: 'argoproj.io',
      kind: 'Application',
      namespace: 'argocd',
      name: 'api',
    });
    expect(doc.hooks).toBeUndefined();
    const markdown = await runCli(
      ['plan', '--head', 'hooks-head', '--base', 'hooks-base', '--live', 'hooks-live.json', '--cluster', 'prod'].concat(
        ['--format', 'markdown'],
      ),
      { cwd: work },
    );
    expect(markdown.stdout).toContain(
      'Hooks that run when the plan deletes their Application (not desired state): ' +
        '`Job/api/drain` (Argo CD PreDelete hook of Application `argocd/api`: when its Application is deleted ' +
        '(PreDelete, before what it deployed is deleted)), `Job/api/cleanup` (Argo CD PostDelete hook of ' +
        'Application `argocd/api`: when its Application is deleted (PostDelete, after what it deployed is deleted))',
    );
    expect(markdown.stdout).not.toContain('Job/web/cleanup');
  });

  it("lists the delete hooks from base's render when head removes the Application's path, and says so", async () => {
    const result = await plan('gone');
    expect(result.stdout).toContain('  - Application/argocd/api');
    const reason = 'apps/api: spec.source.path: Application argocd/api: app path apps/api does not exist';
    const from = `listed from the base commit's render, as its source does not render at head (${reason})`;
    expect(result.stdout).toContain(
      'Hooks (run when the plan deletes their Application, not desired state):\n' +
        '  > Job/api/drain: Argo CD PreDelete hook of Application argocd/api: when its Application is deleted ' +
        `(PreDelete, before what it deployed is deleted); ${from}\n` +
        '  > Job/api/cleanup: Argo CD PostDelete hook of Application argocd/api: when its Application is deleted ' +
        `(PostDelete, after what it deployed is deleted); ${from}\n`,
    );
    expect(result.stdout).toContain(
      '! not-rendered Application/argocd/api: The Application carries pre-delete-finalizer.argocd.argoproj.io ' +
        'and post-delete-finalizer.argocd.argoproj.io: deleting it runs its PreDelete and PostDelete hooks',
    );
    const args = [
      'plan',
      '--head',
      'gone-head',
      '--base',
      'gone-base',
      '--live',
      'gone-live.json',
      '--cluster',
      'prod',
    ];
    const doc = JSON.parse((await runCli([...args, '--format', 'json'], { cwd: work })).stdout);
    expect(doc.deleteHooks.map((entry: { id: { name: string } }) => entry.id.name)).toEqual(['drain', 'cleanup']);
    expect(doc.deleteHooks[0].origin).toEqual({ at: 'base', reason });
    expect(doc.deleteHooks[0].file).toBe('apps/api/drain.yaml');
    const markdown = (await runCli([...args, '--format', 'markdown'], { cwd: work })).stdout;
    expect(markdown).toContain(`(PreDelete, before what it deployed is deleted); ${from})`);
  });

  it('says which delete hooks are not known when neither base nor the cluster shows them', async () => {
    const result = await runCli(['plan', '--head', 'gone-head', '--live', 'gone-live.json', '--cluster', 'prod'], {
      cwd: work,
    });
    expect(result.stdout).not.toContain('Hooks (run when the plan deletes');
    expect(result.stdout).toContain(
      'Which hooks run is not known: neither the base commit nor the cluster shows them.',
    );
  });
});

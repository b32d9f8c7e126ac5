// `driftback plan` on a pull request after which an ApplicationSet no longer generates one of its
// Applications (its directory removed): the ApplicationSet controller deletes that Application, and Argo CD
// deletes what it deployed when it carries the resources finalizer (the default; not with
// `syncPolicy.preserveResourcesOnDeletion`). Under the `create-update` policy nothing is deleted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

snapshot('cascade', {});
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
});

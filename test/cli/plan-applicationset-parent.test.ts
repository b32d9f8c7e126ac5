// `driftback plan` when the ApplicationSet is deployed by an app of apps that only the cluster shows:
// no cluster path, the parent Application live only. A generated Application waits for the parent that
// lists its ApplicationSet, so the ApplicationSet is expanded before the Application is planned; when
// no source of this repository renders the ApplicationSet, its live spec is expanded against head
// (its git generator reads this repository all the same); when that cannot be done, the plan says so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { appSetSnapshot, appSetTree, writeTree, type AppSetOptions } from '../support/appset-repo.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-appset-parent-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The app of apps: it deployed the ApplicationSet from `path` of `repoURL`. */
const root = (repoURL: string, path: string): KubeObject => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name: 'root', namespace: 'argocd', finalizers: ['resources-finalizer.argocd.argoproj.io'] },
  spec: {
    project: 'default',
    source: { repoURL, targetRevision: 'HEAD', path },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' },
    syncPolicy: { automated: { prune: true } },
  },
  status: {
    resources: [
      { group: 'argoproj.io', version: 'v1alpha1', kind: 'ApplicationSet', namespace: 'argocd', name: 'apps' },
    ],
  },
});

const THIS = 'https://github.com/acme/gitops.git';
const OTHER = 'https://github.com/acme/platform.git';

type Dirs = Record<string, number>;

/**
 * Base generates `web` and `api`, head only `web` (unless `dirs` says otherwise); the ApplicationSet is
 * in `appsets/`, no cluster path; `parent` undefined: it was applied by hand.
 */
function scenario(
  name: string,
  parent: KubeObject | undefined,
  options: AppSetOptions = {},
  edit?: (live: KubeObject) => void,
  dirs: { base: Dirs; head: Dirs } = { base: { web: 1, api: 1 }, head: { web: 1 } },
) {
  const layout = { appsetFile: 'appsets/apps.yaml', config: 'clusters:\n  - name: prod\n' };
  const files = writeTree(work, `${name}-base`, appSetTree(dirs.base, { ...layout, ...options }));
  const snapshot = appSetSnapshot(files, {
    applications: true,
    appsetFile: layout.appsetFile,
    path: 'appsets',
    more: parent ? [parent] : [],
  });
  const live = JSON.parse(snapshot) as { items: KubeObject[] };
  for (const item of live.items) if (item.kind === 'ApplicationSet') edit?.(item);
  writeFileSync(join(work, `${name}-live.json`), JSON.stringify(live));
  writeTree(work, `${name}-head`, appSetTree(dirs.head, { ...layout, ...options }));
}

const plan = (name: string) =>
  runCli(
    ['plan', '--head', `${name}-head`, '--base', `${name}-base`, '--live', `${name}-live.json`, '--cluster', 'prod'],
    {
      cwd: work,
    },
  );

const scm = (appset: KubeObject) => {
  (appset.spec as Record<string, unknown>).generators = [{ scmProvider: { github: { organization: 'acme' } } }];
};

scenario('parent', root(THIS, 'appsets'));
scenario('elsewhere', root(OTHER, 'appsets'));
scenario('elsewhere-preserve', root(OTHER, 'appsets'), { syncPolicy: { preserveResourcesOnDeletion: true } });
scenario('unrendered', root(THIS, 'gone'));
scenario('unexpandable', root(OTHER, 'appsets'), {}, scm);

const grows = { base: { web: 1 }, head: { web: 1, api: 1 } };
scenario('new', root(OTHER, 'appsets'), {}, undefined, grows);
scenario('by-hand', undefined, {}, undefined, { base: {}, head: { web: 2 } });
scenario('by-hand-scm', undefined, {}, scm, { base: {}, head: { web: 2 } });

describe('driftback plan with an ApplicationSet a live-only app of apps deploys', () => {
  it('renders the parent first: the Application no longer generated is deleted, with what it deployed', async () => {
    const result = await plan('parent');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 2 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).toContain('  - Deployment/api/api');
    expect(result.stdout).not.toContain('not rendered');
  });

  it('expands the live ApplicationSet against head when its parent applies another repository', async () => {
    const result = await plan('elsewhere');
    expect(result.stdout).toContain('argocd/root: another repository, not checked');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 2 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).toContain('  - Deployment/api/api');
  });

  it('says the ApplicationSet was read from the cluster where its Application is deleted', async () => {
    const result = await plan('elsewhere-preserve');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 1 to prune');
    expect(result.stdout).toContain(
      '  = Deployment/api/api: ApplicationSet argocd/apps no longer generates Application argocd/api: the controller ' +
        'deletes it without the resources finalizer (syncPolicy.preserveResourcesOnDeletion), so this stays in the ' +
        'cluster, managed by no Application; the ApplicationSet was read from the cluster (argocd/root, which applies ' +
        'it, is of another repository), so a change of the ApplicationSet itself in this repository is not seen',
    );
  });

  it('keeps what the generated Application deployed when the parent is not rendered, and says why', async () => {
    const result = await plan('unrendered');
    expect(result.stdout).toContain('argocd/root: not rendered');
    expect(result.stdout).toContain('0 to prune');
    expect(result.stdout).toMatch(
      /= Application\/argocd\/api: may be made by a part of the source driftback does not render/,
    );
    expect(result.stdout).toMatch(
      /= Deployment\/api\/api: may be made by a part of the source driftback does not render/,
    );
  });

  it('says a live ApplicationSet that cannot be expanded is not rendered, and why', async () => {
    const result = await plan('unexpandable');
    expect(result.stdout).toContain(
      '! not-rendered: ApplicationSet/argocd/apps: not rendered: ApplicationSet argocd/apps, read from the cluster ' +
        '(argocd/root, which applies it, is of another repository), so a change of the ApplicationSet itself in this ' +
        'repository is not seen: scmProvider generator is not expanded; its Applications are rendered from their live spec',
    );
    expect(result.stderr).toContain(
      'warning: ApplicationSet/argocd/apps: not rendered: ApplicationSet argocd/apps, read from the cluster',
    );
    expect(result.stdout).not.toContain('- Application/argocd/api');
  });
});

describe('driftback plan when a live-only ApplicationSet generates a new Application at head', () => {
  it('plans the new Application and what it deploys, marked as generated by the live ApplicationSet', async () => {
    const result = await plan('new');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('prod: 1 to create, 0 to update, 0 to prune');
    expect(result.stdout).toContain(
      '  argocd/api: 1 to create (new Application, generated by the live ApplicationSet argocd/apps)',
    );
    expect(result.stdout).toContain('  + Deployment/api/api');
    expect(result.stdout).toContain('  argocd/web: no changes\n');
  });

  it('gives the JSON and the pull request comment the same Application', async () => {
    const args = ['plan', '--head', 'new-head', '--base', 'new-base', '--live', 'new-live.json', '--cluster', 'prod'];
    const json = JSON.parse((await runCli([...args, '--format', 'json'], { cwd: work })).stdout);
    const api = json.sources.find((source: { name: string }) => source.name === 'argocd/api');
    expect(api.createdBy).toEqual({ applicationSet: 'argocd/apps', readFromCluster: true });
    expect(api.counts).toEqual({ create: 1 });
    expect(json.create.map((entry: { id: { name: string } }) => entry.id.name)).toEqual(['api']);
    const markdown = (await runCli([...args, '--format', 'markdown'], { cwd: work })).stdout;
    expect(markdown).toContain(
      'argocd/api: 1 to create (new Application, generated by the live ApplicationSet argocd/apps)',
    );
  });

  it('plans the first Application of an ApplicationSet applied by hand that has generated none yet', async () => {
    const result = await plan('by-hand');
    expect(result.stdout).toContain('prod: 1 to create, 0 to update, 0 to prune');
    expect(result.stdout).toContain(
      '  argocd/web: 1 to create (new Application, generated by the live ApplicationSet argocd/apps)',
    );
    expect(result.stdout).toContain('  + Deployment/web/web');
  });

  it('says so when the live ApplicationSet cannot be expanded, rather than no changes', async () => {
    const result = await plan('by-hand-scm');
    expect(result.stdout).toContain(
      '! not-rendered: ApplicationSet/argocd/apps: not rendered: ApplicationSet argocd/apps, read from the cluster ' +
        '(no source of this repository declares it), so a change of the ApplicationSet itself in this repository is ' +
        'not seen: scmProvider generator is not expanded',
    );
    expect(result.stdout).not.toContain('no changes');
  });
});

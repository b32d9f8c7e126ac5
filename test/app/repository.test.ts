// loadRepositoryAt: the config and manifests at a commit, blobs through the store's cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepRead, loadRepositoryAt, readMore } from '../../src/app/repository.js';
import { renderManifests } from '../../src/core/manifests/index.js';
import { fileText } from '../../src/core/model/index.js';
import { createOctokit } from '../../src/github/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { GitHubStandIn } from '../support/github/index.js';
import { gitopsRepository } from './live.js';

const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const BLOBS = 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}';
const TREES = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}';
const REF = 'GET /repos/{owner}/{repo}/git/ref/{ref}';
const COMMIT = 'GET /repos/{owner}/{repo}/git/commits/{commit_sha}';
const REPOSITORY = 'GET /repos/{owner}/{repo}';
const CONTENTS = 'GET /repos/{owner}/{repo}/contents/{path}';
const NOW = Date.parse('2026-12-02T12:00:00Z');
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(files: Record<string, string | Uint8Array>) {
  const standIn = await GitHubStandIn.start();
  const head = standIn.seedRepository({ owner: 'acme', repo: 'gitops', files });
  const dir = mkdtempSync(join(tmpdir(), 'driftback-repository-'));
  const store: Store = await openStore({ dataDir: dir });
  cleanup.push(
    () => standIn.close(),
    () => store.close(),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  const octokit = createOctokit({
    baseUrl: standIn.baseUrl,
    auth: 'ghs_app',
    backoffUnitMs: 1,
    writeSpacingMs: 0,
    log: QUIET,
  });
  return { standIn, head, store, octokit };
}

describe('loadRepositoryAt', () => {
  it('reads the config and every manifest at the default branch HEAD; a second read fetches no blob', async () => {
    const files: Record<string, string> = { ...gitopsRepository(), 'docs/logo.png': 'binary' };
    const { standIn, head, store, octokit } = await setup(files);
    const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    // As a reconcile does once its render read them (here: every manifest).
    await keepRead(store, first, first.files.keys(), NOW);
    expect(first).toMatchObject({ headSha: head, defaultBranch: 'main', config: { ok: true } });
    expect(first.files.get('clusters/prod-eu/frontend-deployment.yaml')).toBe(
      files['clusters/prod-eu/frontend-deployment.yaml'],
    );
    // An image is listed, not fetched: no render has asked for it.
    expect(first.files.has('docs/logo.png')).toBe(false);
    expect(first.unread.has('docs/logo.png')).toBe(true);
    expect(first.listing).toBeDefined();
    expect(standIn.callsTo(BLOBS)).toBe(first.blobsFetched);
    // The config comes from the same listing: no contents call.
    expect(standIn.callsTo(CONTENTS)).toBe(0);

    standIn.resetCalls();
    const again = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops', sha: head }, store);
    expect(again.files).toEqual(first.files);
    expect(standIn.callsTo(BLOBS)).toBe(0);
    expect(again.blobsFetched).toBe(0);
  });

  it('reads a repository at HEAD the first time in three calls: the default branch and HEAD, the tree, the archive', async () => {
    const configMaps = Array.from({ length: 30 }, (_, i) => [
      `clusters/prod-eu/settings-${i}.yaml`,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${i}\n  namespace: shop\n`,
    ]);
    const { standIn, head, store, octokit } = await setup({ ...gitopsRepository(), ...Object.fromEntries(configMaps) });
    const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    expect(first).toMatchObject({ headSha: head, defaultBranch: 'main', defaultBranchRead: true });
    expect(first.files.get('clusters/prod-eu/settings-29.yaml')).toContain('name: settings-29');
    expect(standIn.calls().total).toBe(3);
    expect(standIn.calls().byRoute).toMatchObject({
      'POST /graphql': 1,
      'GET /repos/{owner}/{repo}/git/trees/{tree_sha}': 1,
      'GET /repos/{owner}/{repo}/tarball/{ref}': 1,
    });
  });

  it('reads the default branch and HEAD over REST when GraphQL does not answer', async () => {
    const { standIn, head, store, octokit } = await setup(gitopsRepository());
    standIn.injectFault({ route: 'POST /graphql', kind: 'server-error', times: 50 });
    const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    expect(first).toMatchObject({ headSha: head, defaultBranch: 'main', config: { ok: true } });
    expect(standIn.calls().byRoute).toMatchObject({
      'GET /repos/{owner}/{repo}': 1,
      'GET /repos/{owner}/{repo}/git/ref/{ref}': 1,
    });
  });

  it('reports a missing config as a problem that says what to add', async () => {
    const { store, octokit } = await setup({ 'clusters/prod/app.yaml': 'kind: ConfigMap\n' });
    const loaded = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops', ref: 'main' }, store);
    expect(loaded.config).toEqual({
      ok: false,
      problems: [
        { file: '.github/driftback.yml', message: expect.stringContaining('add one that lists the clusters') },
      ],
    });
  });

  describe('with the default branch and its HEAD remembered', () => {
    const EDITED = 'clusters/prod-eu/frontend-deployment.yaml';
    type Change = 'none' | 'push' | 'rename';
    /** What happens to the repository after the first read. */
    function change(standIn: GitHubStandIn, how: Change): string | undefined {
      if (how === 'none') return undefined;
      if (how === 'push')
        return standIn.pushCommit({
          owner: 'acme',
          repo: 'gitops',
          branch: 'main',
          files: { [EDITED]: 'kind: ConfigMap\n' },
        });
      // The default branch renamed: `main` is gone, `trunk` holds one more commit.
      const sha = standIn.pushCommit({
        owner: 'acme',
        repo: 'gitops',
        branch: 'trunk',
        files: { [EDITED]: 'kind: ConfigMap\n' },
      });
      const repo = standIn.state.repo('acme', 'gitops');
      repo.refs.delete('refs/heads/main');
      repo.defaultBranch = 'trunk';
      return sha;
    }

    it.each([
      {
        name: 'HEAD unchanged: one tree call by branch name, no repository, ref or contents read',
        how: 'none' as const,
        branch: 'main',
        routes: { [TREES]: 1 },
        read: false,
      },
      {
        name: 'HEAD moved: the new commit is looked up and its tree checked against the listing',
        how: 'push' as const,
        branch: 'main',
        routes: { [TREES]: 1, [REF]: 1, [COMMIT]: 1, [BLOBS]: 1 },
        read: false,
      },
      {
        name: 'default branch renamed: the 404 makes the name be read again',
        how: 'rename' as const,
        branch: 'trunk',
        routes: { [TREES]: 2, [REPOSITORY]: 1, [REF]: 1, [COMMIT]: 1, [BLOBS]: 1 },
        read: true,
      },
    ])('$name', async ({ how, branch, routes, read }) => {
      const files = gitopsRepository();
      const { standIn, head, store, octokit } = await setup(files);
      const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
      await keepRead(store, first, first.files.keys(), NOW);
      const moved = change(standIn, how);
      standIn.resetCalls();
      const again = await loadRepositoryAt(
        octokit,
        {
          owner: 'acme',
          repo: 'gitops',
          defaultBranch: 'main',
          knownHead: { commitSha: head, treeSha: first.treeSha },
        },
        store,
      );
      expect(standIn.calls().byRoute).toEqual(routes);
      expect(again).toMatchObject({
        headSha: moved ?? head,
        defaultBranch: branch,
        defaultBranchRead: read,
        config: { ok: true },
      });
      expect(again.files.get(EDITED)).toBe(moved ? 'kind: ConfigMap\n' : files[EDITED]);
      // The tree read belongs to the commit reported: what writeBranch builds on is what was read.
      expect(again.treeSha).toBe(standIn.state.git.commit(again.headSha)!.tree);
    });

    it('pairs the commit with its own files when a push lands between the tree listing and the ref read', async () => {
      const files = gitopsRepository();
      const { standIn, head, store, octokit } = await setup(files);
      const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
      // HEAD moved since the remembered read, and moves again right after the listing by branch name.
      const pushed = [
        standIn.pushCommit({ owner: 'acme', repo: 'gitops', branch: 'main', files: { [EDITED]: 'kind: Secret\n' } }),
      ];
      octokit.hook.after('request', (_response, options) => {
        if (options.url.includes('/git/trees/') && pushed.length === 1)
          pushed.push(
            standIn.pushCommit({
              owner: 'acme',
              repo: 'gitops',
              branch: 'main',
              files: { [EDITED]: 'kind: ConfigMap\n' },
            }),
          );
      });
      const again = await loadRepositoryAt(
        octokit,
        {
          owner: 'acme',
          repo: 'gitops',
          defaultBranch: 'main',
          knownHead: { commitSha: head, treeSha: first.treeSha },
        },
        store,
      );
      expect(again.headSha).toBe(pushed[1]);
      expect(again.files.get(EDITED)).toBe('kind: ConfigMap\n');
      expect(again.treeSha).toBe(standIn.state.git.commit(pushed[1])!.tree);
    });
  });

  describe('the blob cache keeps what renders read', () => {
    it('caches only the files kept (what the render read, the config and kustomizations), each at most 4 MiB', async () => {
      const files: Record<string, string> = {
        ...gitopsRepository(),
        'docs/notes.md': 'x'.repeat(1024 * 1024),
        'clusters/prod-eu/huge.yaml': `# ${'x'.repeat(5 * 1024 * 1024)}\n`,
        'apps/kustomization.yaml': 'resources: []\n',
      };
      const { standIn, store, octokit } = await setup(files);
      const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
      await keepRead(store, first, ['clusters/prod-eu/frontend-deployment.yaml', 'clusters/prod-eu/huge.yaml'], NOW);
      const sha = (path: string) => first.entries.get(path)!.sha;
      const cached = await store.getBlobs(Object.keys(files).map(sha));
      expect(
        Object.keys(files)
          .filter((path) => cached.has(sha(path)))
          .sort(),
      ).toEqual(['.github/driftback.yml', 'apps/kustomization.yaml', 'clusters/prod-eu/frontend-deployment.yaml']);
      // The listing is cached by tree sha: a reconcile trusting this HEAD lists nothing.
      standIn.resetCalls();
      const trusted = await loadRepositoryAt(
        octokit,
        {
          owner: 'acme',
          repo: 'gitops',
          defaultBranch: 'main',
          trustedHead: { commitSha: first.headSha, treeSha: first.treeSha },
          fetch: () => false,
        },
        store,
      );
      expect(standIn.calls().total).toBe(0);
      expect(trusted.files.get('clusters/prod-eu/frontend-deployment.yaml')).toBe(
        files['clusters/prod-eu/frontend-deployment.yaml'],
      );
      expect(trusted.unread.has('docs/notes.md')).toBe(true);
    });
  });
});

describe("files no manifest is (a generator's image or keystore): fetched when a render reads one", () => {
  /** A kustomization generating ConfigMap `assets` from `sources`, the files given as bytes. */
  const generating = (sources: Record<string, Uint8Array>) => ({
    'app/kustomization.yaml': `configMapGenerator:\n  - name: assets\n    files: [${Object.keys(sources).join(', ')}]\n`,
    ...Object.fromEntries(Object.entries(sources).map(([name, bytes]) => [`app/${name}`, bytes])),
  });
  const bytes = (length: number, fill = 0xff) => new Uint8Array(length).fill(fill);
  const problemsOf = (files: ReadonlyMap<string, string>) =>
    renderManifests(files, 'app').errors.map((problem) => problem.message);

  it('reads its bytes once asked for, as the command line reads the file', async () => {
    const logo = bytes(64);
    const { standIn, store, octokit } = await setup(generating({ 'logo.png': logo }));
    const loaded = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    expect(standIn.callsTo(BLOBS)).toBe(1);
    expect(await readMore(octokit, loaded, ['app/logo.png'])).toBe(1);
    expect(standIn.callsTo(BLOBS)).toBe(2);
    expect(loaded.files.get('app/logo.png')).toBe(fileText(logo));
    expect(problemsOf(loaded.files)).toEqual([]);
  });

  it('a file over the limit of one file is not fetched, and the render says why', async () => {
    const { standIn, store, octokit } = await setup(generating({ 'huge.bin': bytes(5 * 1024 * 1024) }));
    const loaded = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    standIn.resetCalls();
    await readMore(octokit, loaded, ['app/huge.bin']);
    expect(standIn.callsTo(BLOBS)).toBe(0);
    expect(loaded.unread.size).toBe(0);
    expect(problemsOf(loaded.files)).toEqual([
      'file "huge.bin" (app/huge.bin) was not read: it is 5 MiB, over the 4 MiB driftback reads of one file: make it smaller or take it out',
    ]);
  });

  it('a file over the limit is not fetched either when the listing comes from the cache', async () => {
    const { standIn, store, octokit } = await setup(generating({ 'huge.bin': bytes(5 * 1024 * 1024) }));
    const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    await keepRead(store, first, first.files.keys(), NOW);
    standIn.resetCalls();
    const trustedHead = { commitSha: first.headSha, treeSha: first.treeSha };
    const at = { owner: 'acme', repo: 'gitops', defaultBranch: 'main', trustedHead };
    const cached = await loadRepositoryAt(octokit, at, store);
    expect(standIn.calls().total).toBe(0);
    await readMore(octokit, cached, ['app/huge.bin']);
    expect(standIn.callsTo(BLOBS)).toBe(0);
    expect(problemsOf(cached.files)).toEqual([
      'file "huge.bin" (app/huge.bin) was not read: it is 5 MiB, over the 4 MiB driftback reads of one file: make it smaller or take it out',
    ]);
  });

  it('files past the bytes the job may read are not fetched, and the render says why', async () => {
    const files = generating({ 'a.bin': bytes(600, 0xfe), 'b.bin': bytes(600, 0xfd) });
    const { standIn, store, octokit } = await setup(files);
    const loaded = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops', maxBytes: 1000 }, store);
    standIn.resetCalls();
    await readMore(octokit, loaded, ['app/a.bin', 'app/b.bin']);
    expect(standIn.callsTo(BLOBS)).toBe(1);
    expect(loaded.files.get('app/a.bin')).toBe(fileText(bytes(600, 0xfe)));
    expect(problemsOf(loaded.files)).toEqual([
      'file "b.bin" (app/b.bin) was not read: the files this job reads would pass 1000 bytes, its budget: split the cluster path or remove what it should not read',
    ]);
  });
});

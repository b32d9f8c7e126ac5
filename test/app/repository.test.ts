// loadRepositoryAt: the config and manifests at a commit, blobs through the store's cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRepositoryAt } from '../../src/app/repository.js';
import { createOctokit } from '../../src/github/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { GitHubStandIn } from '../support/github/index.js';
import { gitopsRepository } from './live.js';

const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const BLOBS = 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}';
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(files: Record<string, string>) {
  const standIn = await GitHubStandIn.start();
  const head = standIn.seedRepository({ owner: 'acme', repo: 'gitops', files });
  const dir = mkdtempSync(join(tmpdir(), 'driftback-repository-'));
  const store: Store = await openStore({ dataDir: dir });
  cleanup.push(() => standIn.close(), () => store.close(), () => rmSync(dir, { recursive: true, force: true }));
  const octokit = createOctokit({ baseUrl: standIn.baseUrl, auth: 'ghs_app', backoffUnitMs: 1, writeSpacingMs: 0, log: QUIET });
  return { standIn, head, store, octokit };
}

describe('loadRepositoryAt', () => {
  it('reads the config and every manifest at the default branch HEAD; a second read fetches no blob', async () => {
    const files: Record<string, string> = { ...gitopsRepository(), 'docs/logo.png': 'binary' };
    const { standIn, head, store, octokit } = await setup(files);
    const first = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops' }, store);
    expect(first).toMatchObject({ headSha: head, defaultBranch: 'main', config: { ok: true } });
    expect(first.files.get('clusters/prod-eu/frontend-deployment.yaml')).toBe(files['clusters/prod-eu/frontend-deployment.yaml']);
    expect(first.files.has('docs/logo.png')).toBe(false);
    expect(first.listing).toBeDefined();
    expect(standIn.callsTo(BLOBS)).toBe(first.blobsFetched);

    standIn.resetCalls();
    const again = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops', sha: head }, store);
    expect(again.files).toEqual(first.files);
    expect(standIn.callsTo(BLOBS)).toBe(0);
    expect(again.blobsFetched).toBe(0);
  });

  it('reports a missing config as a problem that says what to add', async () => {
    const { store, octokit } = await setup({ 'clusters/prod/app.yaml': 'kind: ConfigMap\n' });
    const loaded = await loadRepositoryAt(octokit, { owner: 'acme', repo: 'gitops', ref: 'main' }, store);
    expect(loaded.config).toEqual({ ok: false, problems: [{ file: '.github/driftback.yml', message: expect.stringContaining('add one that lists the clusters') }] });
  });
});

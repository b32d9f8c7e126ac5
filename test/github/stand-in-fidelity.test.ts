// The stand-in's shas must be git's: blobs, trees and commits built by real `git` in a temp repo.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitBlobSha, gitTreeSha } from '../../src/github/git-hash.js';
import { blobSha, GitHubStandIn } from '../support/github/index.js';
import { readFixture } from '../support/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'driftback-git-'));
const git = (args: string[], input?: string, env: Record<string, string> = {}): string =>
  execFileSync('git', args, {
    cwd: dir,
    input,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', ...env },
  })
    .toString()
    .trim();
git(['init', '-q']);

const FILES: Record<string, string> = {
  'clusters/prod-eu/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\n',
  'clusters/prod-eu/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
  'clusters/prod-eu.yaml': 'sorted: next to the directory of the same stem\n',
  'clusters/prod-eu-b/x.yaml': 'x: 1\n',
  'README.md': '# repo\n',
  'unicode/ünïcødé.yaml': 'name: "☸"\n',
  'empty.txt': '',
};

describe('stand-in git objects', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(Object.entries(FILES))('blob sha of %s equals git hash-object', (_path, text) => {
    const expected = git(['hash-object', '--stdin'], text);
    expect(blobSha(Buffer.from(text))).toBe(expected);
    expect(gitBlobSha(text)).toBe(expected);
  });

  it('tree and commit shas equal what git computes for the same content', async () => {
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    symlinkSync('README.md', join(dir, 'link'));
    git(['add', '-A']);
    const expectedTree = git(['write-tree']);
    const date = '2026-12-02T03:05:00Z';
    const env = {
      GIT_AUTHOR_NAME: 'octocat',
      GIT_AUTHOR_EMAIL: 'octocat@users.noreply.github.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: 'octocat',
      GIT_COMMITTER_EMAIL: 'octocat@users.noreply.github.com',
      GIT_COMMITTER_DATE: date,
    };

    const standIn = await GitHubStandIn.start({ now: () => new Date(date) });
    try {
      const seeded = standIn.seedRepository({ owner: 'acme', repo: 'r', files: FILES, message: 'Initial commit\n' });
      const withLink = standIn.pushCommit({
        owner: 'acme',
        repo: 'r',
        branch: 'main',
        files: { link: 'README.md' },
        mode: '120000',
      });
      const treeWithLink = standIn.state.git.commit(withLink)!.tree;
      expect(treeWithLink).toBe(expectedTree);
      // The seed commit has no symlink; rebuild git's commit for that tree to compare commit shas.
      git(['rm', '-q', '--cached', 'link']);
      const seedTree = git(['write-tree']);
      expect(standIn.state.git.commit(seeded)!.tree).toBe(seedTree);
      expect(seeded).toBe(git(['commit-tree', seedTree, '-m', 'Initial commit'], undefined, env));

      // The edge's local tree hashing (used to skip unchanged writes) agrees as well.
      const flat = new Map(
        [...standIn.state.git.flatten(treeWithLink)].map(([path, entry]) => [
          path,
          { mode: entry.mode, sha: entry.sha },
        ]),
      );
      expect(gitTreeSha(flat)).toBe(expectedTree);
    } finally {
      await standIn.close();
    }
  });

  it('a commit created through the API has the sha git gives the same text', async () => {
    const standIn = await GitHubStandIn.start({ now: () => new Date('2026-12-02T03:05:00Z') });
    try {
      standIn.seedRepository({ owner: 'acme', repo: 'r', files: FILES });
      const head = standIn.headOf('acme', 'r', 'main')!;
      const response = await fetch(`${standIn.baseUrl}/repos/acme/r/git/commits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: 'Codify drift\n',
          tree: standIn.state.git.commit(head)!.tree,
          parents: [head],
          author: { name: 'driftback[bot]', email: 'bot@example.com', date: '2026-12-02T04:00:00Z' },
        }),
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { sha: string; tree: { sha: string } };
      const env = {
        GIT_AUTHOR_NAME: 'driftback[bot]',
        GIT_AUTHOR_EMAIL: 'bot@example.com',
        GIT_AUTHOR_DATE: '2026-12-02T04:00:00Z',
        GIT_COMMITTER_NAME: 'driftback[bot]',
        GIT_COMMITTER_EMAIL: 'bot@example.com',
        GIT_COMMITTER_DATE: '2026-12-02T04:00:00Z',
      };
      // git needs the objects to exist: write the same files, then the same commit.
      const fresh = mkdtempSync(join(tmpdir(), 'driftback-git2-'));
      try {
        const inFresh = (args: string[], environment: Record<string, string> = {}): string =>
          execFileSync('git', args, {
            cwd: fresh,
            env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', ...environment },
          })
            .toString()
            .trim();
        inFresh(['init', '-q']);
        for (const [path, text] of Object.entries(FILES)) {
          mkdirSync(dirname(join(fresh, path)), { recursive: true });
          writeFileSync(join(fresh, path), text);
        }
        inFresh(['add', '-A']);
        const tree = inFresh(['write-tree']);
        expect(tree).toBe(body.tree.sha);
        const parent = inFresh(['commit-tree', tree, '-m', 'Initial commit'], {
          GIT_AUTHOR_NAME: 'octocat',
          GIT_AUTHOR_EMAIL: 'octocat@users.noreply.github.com',
          GIT_AUTHOR_DATE: '2026-12-02T03:05:00Z',
          GIT_COMMITTER_NAME: 'octocat',
          GIT_COMMITTER_EMAIL: 'octocat@users.noreply.github.com',
          GIT_COMMITTER_DATE: '2026-12-02T03:05:00Z',
        });
        expect(parent).toBe(head);
        expect(inFresh(['commit-tree', tree, '-p', parent, '-m', 'Codify drift'], env)).toBe(body.sha);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    } finally {
      await standIn.close();
    }
  });
});

describe('stand-in authors, as GitHub reports them', () => {
  // GitHub's own issue_comment payload (octokit/webhooks): a person's comment, no App involved.
  const fixture = JSON.parse(readFixture('webhooks', 'octokit', 'issue_comment', 'created.payload.json')) as {
    comment: Record<string, any>;
    issue: Record<string, any>;
  };

  it("a person's comment and issue carry a User and performed_via_github_app null, the App's its Bot and itself", async () => {
    const standIn = await GitHubStandIn.start();
    try {
      standIn.seedRepository({ owner: 'acme', repo: 'r', files: { 'README.md': 'x\n' } });
      standIn.addUser('ghp_codertocat', 'Codertocat');
      const post = async (token: string | undefined, path: string, body: unknown) => {
        const response = await fetch(`${standIn.baseUrl}/repos/acme/r${path}`, {
          method: 'POST',
          headers: token ? { authorization: `token ${token}` } : {},
          body: JSON.stringify(body),
        });
        return (await response.json()) as Record<string, any>;
      };
      const issue = await post('ghp_codertocat', '/issues', { title: 'x' });
      const human = await post('ghp_codertocat', `/issues/${issue.number}/comments`, { body: 'hi' });
      const app = await post('ghs_app', `/issues/${issue.number}/comments`, { body: 'plan' });
      for (const item of [issue, human]) {
        expect(item.performed_via_github_app).toBe(fixture.comment.performed_via_github_app);
        expect(item.user).toMatchObject({ login: fixture.comment.user.login, type: fixture.comment.user.type });
        expect(typeof item.user.id).toBe(typeof fixture.comment.user.id);
      }
      expect(Object.keys(human)).toEqual(expect.arrayContaining(['performed_via_github_app', 'user']));
      expect(app.user).toMatchObject({ login: 'driftback[bot]', type: 'Bot' });
      expect(app.performed_via_github_app).toMatchObject({ id: standIn.state.appId, slug: 'driftback' });
    } finally {
      await standIn.close();
    }
  });
});

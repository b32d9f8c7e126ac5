import { afterEach, describe, expect, it } from 'vitest';
import { deleteBranch, ForbiddenRefError, writeBranch, type WriteBranchOptions } from '../../src/github/index.js';
import { manyFiles, OWNER, PREFIX, REPO, startHarness, type Harness } from './harness.js';

const WRITE_ROUTES = [
  'POST /repos/{owner}/{repo}/git/trees',
  'POST /repos/{owner}/{repo}/git/commits',
  'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
  'POST /repos/{owner}/{repo}/git/refs',
];

describe('writeBranch', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  const options = (files: Map<string, string | null>, extra: Partial<WriteBranchOptions> = {}): WriteBranchOptions => ({
    owner: OWNER,
    repo: REPO,
    branch: 'driftback/prod-eu',
    prefix: PREFIX,
    defaultBranch: 'main',
    baseCommitSha: harness.baseSha,
    files,
    message: 'Codify drift in prod-eu\n',
    ...extra,
  });

  /** alice's commit on the App's branch, as a person pushes one: its sha. */
  const pushByHand = (): string =>
    harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'driftback/prod-eu',
      files: { 'clusters/prod-eu/app-000.yaml': 'by hand\n' },
      login: 'alice',
    });

  const edit = (count: number, version: number): Map<string, string | null> =>
    new Map([...manyFiles(count)].map(([path, text]) => [path, `${text}  version: "${version}"\n`]));

  it('creates the branch with one tree, one commit and one ref call, on top of the base commit', async () => {
    harness = await startHarness(manyFiles(60));
    const result = await writeBranch(
      harness.octokit,
      options(
        new Map([
          ['clusters/prod-eu/app-000.yaml', 'changed: true\n'],
          ['clusters/prod-eu/app-001.yaml', null],
          ['clusters/prod-eu/new.yaml', 'new: true\n'],
        ]),
      ),
    );
    expect(result).toMatchObject({ type: 'written', created: true });
    const files = harness.standIn.readFiles(OWNER, REPO, 'driftback/prod-eu');
    expect(files.get('clusters/prod-eu/app-000.yaml')).toBe('changed: true\n');
    expect(files.has('clusters/prod-eu/app-001.yaml')).toBe(false);
    expect(files.get('clusters/prod-eu/new.yaml')).toBe('new: true\n');
    expect(files.size).toBe(60);
    const commit = harness.standIn.state.git.commit(harness.standIn.headOf(OWNER, REPO, 'driftback/prod-eu')!)!;
    expect(commit.parents).toEqual([harness.baseSha]);
    expect(harness.standIn.headOf(OWNER, REPO, 'main')).toBe(harness.baseSha);
    expect(harness.standIn.calls().writes).toBe(3);
  });

  it('makes the same number of calls for 1 and 50 changed files', async () => {
    harness = await startHarness(manyFiles(60));
    await writeBranch(harness.octokit, options(edit(1, 1)));
    harness.standIn.resetCalls();
    await writeBranch(harness.octokit, options(edit(1, 2)));
    const one = harness.standIn.calls();
    harness.standIn.resetCalls();
    await writeBranch(harness.octokit, options(edit(50, 3)));
    const fifty = harness.standIn.calls();
    expect(fifty.byRoute).toEqual(one.byRoute);
    expect(one.writes).toBe(3);
    expect(harness.standIn.readFile(OWNER, REPO, 'driftback/prod-eu', 'clusters/prod-eu/app-049.yaml')).toContain(
      'version: "3"',
    );
  });

  it('writes nothing when the branch already holds the resulting tree', async () => {
    harness = await startHarness(manyFiles(10));
    const first = await writeBranch(harness.octokit, options(edit(5, 1)));
    harness.standIn.resetCalls();
    const again = await writeBranch(harness.octokit, options(edit(5, 1)));
    expect(again).toEqual({ type: 'unchanged', commitSha: first.type === 'written' ? first.commitSha : 'none' });
    expect(harness.standIn.calls().writes).toBe(0);
    expect(WRITE_ROUTES.map((route) => harness.standIn.callsTo(route))).toEqual([0, 0, 0, 0]);
  });

  it('writes nothing and creates no branch when the edits change nothing', async () => {
    harness = await startHarness(manyFiles(3));
    const result = await writeBranch(
      harness.octokit,
      options(new Map([...manyFiles(3), ['clusters/prod-eu/absent.yaml', null]])),
    );
    expect(result).toEqual({ type: 'unchanged', commitSha: undefined });
    expect(harness.standIn.calls().writes).toBe(0);
    expect(harness.standIn.headOf(OWNER, REPO, 'driftback/prod-eu')).toBeUndefined();
  });

  it('rebuilds on a newer default branch with a force update (the old App commit is replaced)', async () => {
    harness = await startHarness(manyFiles(3));
    await writeBranch(harness.octokit, options(edit(1, 1)));
    const newBase = harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: { 'README.md': 'hello\n' },
    });
    const result = await writeBranch(harness.octokit, options(edit(1, 1), { baseCommitSha: newBase }));
    expect(result).toMatchObject({ type: 'written', created: false });
    expect(harness.standIn.readFile(OWNER, REPO, 'driftback/prod-eu', 'README.md')).toBe('hello\n');
  });

  it('stops when the branch moved since the App last wrote it', async () => {
    harness = await startHarness(manyFiles(3));
    const first = await writeBranch(harness.octokit, options(edit(1, 1)));
    const human = pushByHand();
    harness.standIn.resetCalls();
    const result = await writeBranch(
      harness.octokit,
      options(edit(1, 2), { expectedHeadSha: first.type === 'written' ? first.commitSha : undefined }),
    );
    expect(result).toEqual({ type: 'head-moved', actualHeadSha: human });
    expect(harness.standIn.calls().writes).toBe(0);
    expect(harness.standIn.readFile(OWNER, REPO, 'driftback/prod-eu', 'clusters/prod-eu/app-000.yaml')).toBe(
      'by hand\n',
    );
  });

  describe('with the head seen in the PR list (headSeen)', () => {
    /** The branch written once, and the base listing the App already holds from its repository read. */
    async function written() {
      harness = await startHarness(manyFiles(5));
      const first = await writeBranch(harness.octokit, options(edit(2, 1)));
      if (first.type !== 'written') throw new Error(`expected a write, got ${first.type}`);
      const { data: baseTree } = await harness.octokit.rest.git.getTree({
        owner: OWNER,
        repo: REPO,
        tree_sha: harness.baseSha,
        recursive: 'true',
      });
      const lastWritten = { commitSha: first.commitSha, treeSha: first.treeSha };
      return {
        lastWritten,
        known: { lastWritten, baseTree: { sha: baseTree.sha, tree: baseTree.tree }, expectedHeadSha: first.commitSha },
      };
    }

    it('answers unchanged without any call when the seen head is the last write and the edits give its tree', async () => {
      const { lastWritten, known } = await written();
      harness.standIn.resetCalls();
      expect(
        await writeBranch(harness.octokit, options(edit(2, 1), { ...known, headSeen: lastWritten.commitSha })),
      ).toEqual({ type: 'unchanged', commitSha: lastWritten.commitSha });
      expect(harness.standIn.calls().total).toBe(0);
    });

    it.each([
      ['the edits changed: the ref is read before writing', 2, 'written', 1],
      ['a seen head that is not the last write: the ref is read', 1, 'unchanged', 1],
    ] as const)('%s', async (_name, version, type, refReads) => {
      const { lastWritten, known } = await written();
      harness.standIn.resetCalls();
      const headSeen = version === 1 ? harness.baseSha : lastWritten.commitSha;
      expect(await writeBranch(harness.octokit, options(edit(2, version), { ...known, headSeen }))).toMatchObject({
        type,
      });
      expect(harness.standIn.callsTo('GET /repos/{owner}/{repo}/git/ref/{ref}')).toBe(refReads);
    });

    it('never writes over a push the PR list does not show yet (a stale head sha)', async () => {
      const { lastWritten, known } = await written();
      const human = pushByHand();
      harness.standIn.resetCalls();
      // The PR list still shows the App's commit; the new edits need a write, so the ref is read and tells the truth.
      expect(
        await writeBranch(harness.octokit, options(edit(2, 2), { ...known, headSeen: lastWritten.commitSha })),
      ).toEqual({ type: 'head-moved', actualHeadSha: human });
      expect(harness.standIn.calls().writes).toBe(0);
      expect(harness.standIn.readFile(OWNER, REPO, 'driftback/prod-eu', 'clusters/prod-eu/app-000.yaml')).toBe(
        'by hand\n',
      );
    });
  });

  it('still writes one commit when the base tree listing is truncated', async () => {
    harness = await startHarness(manyFiles(30));
    harness.standIn.truncateTreesAbove(10);
    const result = await writeBranch(harness.octokit, options(edit(2, 1)));
    expect(result).toMatchObject({ type: 'written' });
    expect(harness.standIn.readFile(OWNER, REPO, 'driftback/prod-eu', 'clusters/prod-eu/app-001.yaml')).toContain(
      'version: "1"',
    );
    harness.standIn.resetCalls();
    expect(await writeBranch(harness.octokit, options(edit(2, 1)))).toMatchObject({ type: 'unchanged' });
  });

  it.each([['main'], ['refs/heads/main'], ['feature/x'], ['release']])(
    'refuses to write %s and makes no call',
    async (branch) => {
      harness = await startHarness(manyFiles(1));
      await expect(writeBranch(harness.octokit, options(edit(1, 1), { branch }))).rejects.toThrow(ForbiddenRefError);
      await expect(
        deleteBranch(harness.octokit, { owner: OWNER, repo: REPO, branch, prefix: PREFIX, defaultBranch: 'main' }),
      ).rejects.toThrow(ForbiddenRefError);
      expect(harness.standIn.calls().total).toBe(0);
      expect(harness.standIn.headOf(OWNER, REPO, 'main')).toBe(harness.baseSha);
    },
  );

  it('deletes its own branch, and a branch already gone is no error', async () => {
    harness = await startHarness(manyFiles(1));
    await writeBranch(harness.octokit, options(edit(1, 1)));
    const target = { owner: OWNER, repo: REPO, branch: 'driftback/prod-eu', prefix: PREFIX, defaultBranch: 'main' };
    expect(await deleteBranch(harness.octokit, target)).toEqual({ type: 'deleted' });
    expect(await deleteBranch(harness.octokit, target)).toEqual({ type: 'absent' });
    expect(harness.standIn.headOf(OWNER, REPO, 'driftback/prod-eu')).toBeUndefined();
  });
});

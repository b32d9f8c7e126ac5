import { afterEach, describe, expect, it } from 'vitest';
import { memoryBlobCache, readFileAt, readTreeFiles } from '../../src/github/index.js';
import { readFixtureTree } from '../support/fixtures.js';
import { OWNER, REPO, startHarness, type Harness } from './harness.js';

const TREES = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}';
const BLOBS = 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}';

describe('readTreeFiles', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  /** readTreeFiles of `paths` at the base commit with a fresh blob cache, unless `options` say otherwise. */
  const readPaths = (paths: string[], options: Partial<Parameters<typeof readTreeFiles>[1]> = {}) =>
    readTreeFiles(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      commitSha: harness.baseSha,
      paths,
      blobCache: memoryBlobCache(),
      ...options,
    });

  it('reads a fixture directory with one tree call, then 0 blob fetches with a warm cache at the same HEAD', async () => {
    const fixture = readFixtureTree('manifests');
    const files = new Map([...fixture].map(([path, text]) => [`clusters/${path}`, text]));
    files.set('README.md', '# outside the cluster path\n');
    harness = await startHarness(files);
    const cache = memoryBlobCache();
    const cold = await readPaths(['clusters'], { blobCache: cache });
    expect(cold.files).toEqual(new Map([...files].filter(([path]) => path.startsWith('clusters/'))));
    expect(harness.standIn.callsTo(TREES)).toBe(1);
    const distinctBlobs = new Set(
      [...cold.entries.values()].filter((entry) => entry.kind === 'file').map((entry) => entry.sha),
    ).size;
    expect(harness.standIn.callsTo(BLOBS)).toBe(distinctBlobs);

    harness.standIn.resetCalls();
    const warm = await readPaths(['clusters'], { blobCache: cache });
    expect(warm.files).toEqual(cold.files);
    expect(warm.blobsFetched).toBe(0);
    expect(harness.standIn.calls()).toMatchObject({ total: 1, reads: 1, writes: 0 });
  });

  it('fetches only the blobs a new commit changed', async () => {
    harness = await startHarness({ 'c/a.yaml': 'a: 1\n', 'c/b.yaml': 'b: 1\n', 'c/d/e.yaml': 'e: 1\n' });
    const cache = memoryBlobCache();
    await readPaths(['c'], { blobCache: cache });
    const next = harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: { 'c/b.yaml': 'b: 2\n' },
    });
    harness.standIn.resetCalls();
    const read = await readPaths(['c'], { commitSha: next, blobCache: cache });
    expect(read.files.get('c/b.yaml')).toBe('b: 2\n');
    expect(harness.standIn.callsTo(BLOBS)).toBe(1);
  });

  it('walks the requested subtrees when the recursive listing is truncated', async () => {
    const files = new Map<string, string>();
    for (let index = 0; index < 40; index += 1) files.set(`other/f${index}.txt`, `${index}\n`);
    files.set('clusters/prod/app.yaml', 'kind: ConfigMap\n');
    files.set('clusters/prod/nested/db.yaml', 'kind: Secret\n');
    files.set('clusters/staging/app.yaml', 'kind: ConfigMap\n');
    harness = await startHarness(files);
    harness.standIn.truncateTreesAbove(10);
    const read = await readPaths(['clusters/prod']);
    expect(read.walked).toBe(true);
    expect(read.files).toEqual(
      new Map([
        ['clusters/prod/app.yaml', 'kind: ConfigMap\n'],
        ['clusters/prod/nested/db.yaml', 'kind: Secret\n'],
      ]),
    );
  });

  it('walks level by level when even a subtree listing is truncated', async () => {
    const files = manyFilesUnder('big', 30);
    files.set('big/deep/x.yaml', 'x: 1\n');
    harness = await startHarness(files);
    harness.standIn.truncateTreesAbove(5);
    const read = await readPaths(['big']);
    expect(read.files).toEqual(files);
  });

  it('reports symlinks and submodules without following them', async () => {
    harness = await startHarness({ 'c/app.yaml': 'a: 1\n' });
    harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: { 'c/link.yaml': '../secrets.yaml' },
      mode: '120000',
    });
    const head = harness.standIn.headOf(OWNER, REPO, 'main')!;
    const read = await readPaths(['c'], { commitSha: head });
    expect([...read.files.keys()]).toEqual(['c/app.yaml']);
    expect(read.unfollowed.map((entry) => [entry.path, entry.kind])).toEqual([['c/link.yaml', 'symlink']]);
  });

  it('applies the filter before fetching', async () => {
    harness = await startHarness({ 'c/app.yaml': 'a: 1\n', 'c/notes.md': '# notes\n' });
    const read = await readPaths(['c'], { filter: (path) => path.endsWith('.yaml') });
    expect([...read.files.keys()]).toEqual(['c/app.yaml']);
    expect(harness.standIn.callsTo(BLOBS)).toBe(1);
  });
});

describe('readFileAt', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  it('reads one file in one call and answers undefined for a missing one', async () => {
    harness = await startHarness({ '.github/driftback.yml': 'clusters: []\n' });
    expect(
      await readFileAt(harness.octokit, { owner: OWNER, repo: REPO, ref: 'main', path: '.github/driftback.yml' }),
    ).toBe('clusters: []\n');
    expect(harness.standIn.calls().total).toBe(1);
    expect(
      await readFileAt(harness.octokit, { owner: OWNER, repo: REPO, ref: 'main', path: '.github/missing.yml' }),
    ).toBeUndefined();
  });

  it('refuses a directory with a message naming it', async () => {
    harness = await startHarness({ 'c/app.yaml': 'a: 1\n' });
    await expect(readFileAt(harness.octokit, { owner: OWNER, repo: REPO, ref: 'main', path: 'c' })).rejects.toThrow(
      /c at main is a directory/,
    );
  });
});

function manyFilesUnder(dir: string, count: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let index = 0; index < count; index += 1) files.set(`${dir}/sub${index % 3}/f${index}.yaml`, `i: ${index}\n`);
  return files;
}

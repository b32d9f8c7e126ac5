import { afterEach, describe, expect, it } from 'vitest';
import { memoryBlobCache, readTreeFiles, type BaseTreeListing } from '../../src/github/index.js';
import { ARCHIVE_FROM_BLOBS } from '../../src/github/read-tree.js';
import { readArchiveBlobs } from '../../src/github/read-archive.js';
import { fileContent } from '../../src/core/model/index.js';
import { manyFiles, OWNER, REPO, startHarness, type Harness } from './harness.js';

const TARBALL = 'GET /repos/{owner}/{repo}/tarball/{ref}';
const BLOBS = 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}';

describe('the first read of many files goes through the repository archive', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  const read = (archiveRef: string | undefined, extra: { listing?: BaseTreeListing } = {}) =>
    readTreeFiles(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      commitSha: harness.baseSha,
      paths: ['clusters'],
      blobCache: memoryBlobCache(),
      ...(archiveRef ? { archiveRef } : {}),
      ...extra,
    });

  it('reads 200 manifests with one tree call and one archive call, texts equal to the blob API', async () => {
    const files = manyFiles(200);
    files.set('clusters/prod-eu/long/' + 'a'.repeat(120) + '/deep.yaml', 'kind: ConfigMap\n# ünïcode\n');
    files.set('README.md', '# not under the paths\n');
    harness = await startHarness(files);
    const byArchive = await read(harness.baseSha);
    expect(harness.standIn.calls()).toMatchObject({ total: 2, writes: 0 });
    expect(harness.standIn.callsTo(TARBALL)).toBe(1);
    expect(harness.standIn.callsTo(BLOBS)).toBe(0);
    harness.standIn.resetCalls();
    const byBlobs = await read(undefined);
    expect(harness.standIn.callsTo(BLOBS)).toBeGreaterThan(200);
    expect(byArchive.files).toEqual(byBlobs.files);
    expect(byArchive.files.size).toBe(201);
  });

  it('holds a file that is not UTF-8 as its bytes, by archive and by blob API alike', async () => {
    const files = new Map<string, string | Uint8Array>(manyFiles(ARCHIVE_FROM_BLOBS));
    const keystore = Uint8Array.from([0x30, 0x82, 0x01, 0x0a, 0xff, 0xfe, 0x00, 0xc0]);
    files.set('clusters/prod-eu/keystore.p12', keystore);
    harness = await startHarness(files);
    const byArchive = await read(harness.baseSha);
    expect(harness.standIn.callsTo(TARBALL)).toBe(1);
    const byBlobs = await read(undefined);
    for (const tree of [byArchive, byBlobs]) {
      const held = tree.files.get('clusters/prod-eu/keystore.p12')!;
      expect(fileContent(held)).toEqual(keystore);
      // Held as ASCII: the blob cache and its stores keep it as they keep any text.
      expect(Buffer.from(held, 'utf8').toString('utf8')).toBe(held);
    }
    expect(byArchive.files).toEqual(byBlobs.files);
  });

  it('does not read the archive for fewer files than it saves calls', async () => {
    harness = await startHarness(manyFiles(ARCHIVE_FROM_BLOBS - 1));
    await read(harness.baseSha);
    expect(harness.standIn.callsTo(TARBALL)).toBe(0);
    expect(harness.standIn.callsTo(BLOBS)).toBe(ARCHIVE_FROM_BLOBS - 1);
  });

  it('takes from an archive of a newer commit only the files whose bytes are the listed blobs', async () => {
    harness = await startHarness(manyFiles(30));
    const listed = await read(undefined);
    const { data } = await harness.octokit.rest.git.getTree({
      owner: OWNER,
      repo: REPO,
      tree_sha: harness.baseSha,
      recursive: 'true',
    });
    // A push lands between the listing and the archive of the branch.
    const changed = [...listed.files.keys()].slice(0, 3);
    harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: Object.fromEntries(changed.map((path) => [path, 'kind: Changed\n'])),
    });
    harness.standIn.resetCalls();
    const raced = await read('main', { listing: { sha: data.sha, tree: data.tree } });
    expect(raced.files).toEqual(listed.files);
    expect(harness.standIn.callsTo(TARBALL)).toBe(1);
    expect(harness.standIn.callsTo(BLOBS)).toBe(3);
  });

  it('falls back to the blob API when GitHub fails the archive, with the same texts', async () => {
    harness = await startHarness(manyFiles(30));
    const expected = (await read(undefined)).files;
    harness.standIn.resetCalls();
    harness.standIn.injectFault({ route: TARBALL, kind: 'server-error', times: 10 });
    const read2 = await read(harness.baseSha);
    expect(read2.files).toEqual(expected);
    expect(harness.standIn.callsTo(BLOBS)).toBe(30);
  });

  it('stops reading an archive past its byte bound and says why; what it kept is verified', async () => {
    const files = manyFiles(40);
    harness = await startHarness(files);
    const { data } = await harness.octokit.rest.git.getTree({
      owner: OWNER,
      repo: REPO,
      tree_sha: harness.baseSha,
      recursive: 'true',
    });
    const wanted = new Map(
      data.tree.filter((entry) => entry.type === 'blob').map((entry) => [entry.path!, entry.sha!] as const),
    );
    const cut = await readArchiveBlobs(
      harness.octokit,
      { owner: OWNER, repo: REPO, ref: harness.baseSha, maxBytes: 2_000 },
      wanted,
    );
    expect(cut.problem).toMatch(/archive larger than 2000 bytes unpacked/);
    expect(cut.blobs.size).toBeGreaterThan(0);
    expect(cut.blobs.size).toBeLessThan(wanted.size);
    const whole = await readArchiveBlobs(harness.octokit, { owner: OWNER, repo: REPO, ref: harness.baseSha }, wanted);
    expect(whole.problem).toBeUndefined();
    expect(whole.blobs.size).toBe(new Set(wanted.values()).size);
    for (const [sha, text] of cut.blobs) expect(whole.blobs.get(sha)).toBe(text);
  });

  it('says why when the ref does not exist, and reads nothing', async () => {
    harness = await startHarness(manyFiles(3));
    const missing = await readArchiveBlobs(
      harness.octokit,
      { owner: OWNER, repo: REPO, ref: 'no-such-branch' },
      new Map(),
    );
    expect(missing.blobs.size).toBe(0);
    expect(missing.problem).toMatch(/archive not read/);
  });
});

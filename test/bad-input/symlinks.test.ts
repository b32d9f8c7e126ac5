// Symlinks in a repository tree (git mode 120000), read at a commit through the GitHub edge: never
// followed (the link text is not fetched as a manifest), listed in `unfollowed`, and a kustomization
// that names one gets a problem at its line saying it is a link, rather than the target's content.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryBlobCache, readTreeFiles } from '../../src/github/index.js';
import { renderManifests, type UnfollowedKind } from '../../src/core/manifests/index.js';
import type { TreeRead } from '../../src/github/read-tree.js';
import { OWNER, REPO, startHarness, type Harness } from '../github/harness.js';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n';

/** What the App passes on from the tree read: the entries it did not follow. */
function unfollowedOf(read: TreeRead): Map<string, UnfollowedKind> {
  return new Map(read.unfollowed.map((entry) => [entry.path, entry.kind as UnfollowedKind]));
}

describe('symlinks in the repository tree', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  it.each([
    ['a link out of the repository', '../../../etc/passwd'],
    ['a link to another manifest inside it', 'cm.yaml'],
  ])('%s is reported, not followed', async (_case, target) => {
    harness = await startHarness({
      'apps/kustomization.yaml': 'resources:\n  - cm.yaml\n  - linked.yaml\n',
      'apps/cm.yaml': CONFIGMAP,
    });
    harness.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: { 'apps/linked.yaml': target },
      mode: '120000',
    });
    const head = harness.standIn.headOf(OWNER, REPO, 'main')!;
    const read = await readTreeFiles(harness.octokit, {
      owner: OWNER,
      repo: REPO,
      commitSha: head,
      paths: ['apps'],
      blobCache: memoryBlobCache(),
    });

    expect([...read.files.keys()].sort()).toEqual(['apps/cm.yaml', 'apps/kustomization.yaml']);
    expect(read.unfollowed).toEqual([
      expect.objectContaining({ path: 'apps/linked.yaml', kind: 'symlink', mode: '120000' }),
    ]);

    const result = renderManifests(read.files, 'apps', { unfollowed: unfollowedOf(read) });
    expect(result.objects.map((object) => object.key.name)).toEqual(['fine']);
    expect(result.errors).toEqual([
      {
        file: 'apps/kustomization.yaml',
        line: 3,
        field: 'resources',
        message:
          '"linked.yaml" (apps/linked.yaml) is a symbolic link, and links in the repository are not followed: commit the file itself at this path, or list the link\'s target',
      },
    ]);
    // A caller that does not pass what it left unfollowed still gets a problem at the same line.
    expect(renderManifests(read.files, 'apps').errors).toEqual([
      expect.objectContaining({ line: 3, message: '"linked.yaml" (apps/linked.yaml) does not exist' }),
    ]);
  });

  it('a submodule named as a resource directory is reported as one', () => {
    const files = new Map([
      ['apps/kustomization.yaml', 'resources:\n  - cm.yaml\n  - vendor/charts\n'],
      ['apps/cm.yaml', CONFIGMAP],
    ]);
    const result = renderManifests(files, 'apps', { unfollowed: new Map([['apps/vendor/charts', 'submodule']]) });
    expect(result.objects.map((object) => object.key.name)).toEqual(['fine']);
    expect(result.errors).toEqual([
      {
        file: 'apps/kustomization.yaml',
        line: 3,
        field: 'resources',
        message: expect.stringMatching(/is a git submodule, whose files are not read: vendor the manifests/),
      },
    ]);
  });
});

// Symlinks in a repository tree (git mode 120000), read at a commit through the GitHub edge: never
// followed (the link text is not fetched as a manifest), listed in `unfollowed`, and a kustomization
// that names one gets a problem at its line rather than the link target's content.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryBlobCache, readTreeFiles } from '../../src/github/index.js';
import { renderManifests } from '../../src/core/manifests/index.js';
import { OWNER, REPO, startHarness, type Harness } from '../github/harness.js';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n';

describe('symlinks in the repository tree', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  it.each([
    ['a link out of the repository', '../../../etc/passwd'],
    ['a link to another manifest inside it', 'cm.yaml'],
  ])('%s is reported, not followed', async (_case, target) => {
    harness = await startHarness({ 'apps/kustomization.yaml': 'resources:\n  - cm.yaml\n  - linked.yaml\n', 'apps/cm.yaml': CONFIGMAP });
    harness.standIn.pushCommit({ owner: OWNER, repo: REPO, branch: 'main', files: { 'apps/linked.yaml': target }, mode: '120000' });
    const head = harness.standIn.headOf(OWNER, REPO, 'main')!;
    const read = await readTreeFiles(harness.octokit, { owner: OWNER, repo: REPO, commitSha: head, paths: ['apps'], blobCache: memoryBlobCache() });

    expect([...read.files.keys()].sort()).toEqual(['apps/cm.yaml', 'apps/kustomization.yaml']);
    expect(read.unfollowed).toEqual([expect.objectContaining({ path: 'apps/linked.yaml', kind: 'symlink', mode: '120000' })]);

    const result = renderManifests(read.files, 'apps');
    expect(result.objects.map((object) => object.key.name)).toEqual(['fine']);
    expect(result.errors).toEqual([{ file: 'apps/kustomization.yaml', line: 3, field: 'resources', message: '"linked.yaml" (apps/linked.yaml) does not exist' }]);
  });
});

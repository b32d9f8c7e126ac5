// Which clusters a pull request touches: a file under the cluster path, or any file its build read
// (a shared base, a patch) at head or at base; nothing else.
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { parseConfig } from '../../../src/core/config/index.js';
import { touchedClusters } from '../../../src/core/pipeline/index.js';

const FILES = new Map(
  Object.entries({
    'base/api.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\ndata:\n  A: "1"\n',
    'base/kustomization.yaml': 'resources: [api.yaml]\n',
    'clusters/prod/kustomization.yaml': 'resources: [../../base]\npatches:\n  - path: ../../patches/prod.yaml\n',
    'clusters/staging/kustomization.yaml': 'resources: [../../base]\n',
    'clusters/plain/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
    'patches/prod.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\ndata:\n  A: "2"\n',
    'docs/README.md': '# docs\n',
  }),
);

const config = parseConfig(
  'clusters:\n  - {name: prod, path: clusters/prod}\n  - {name: staging, path: clusters/staging}\n  - {name: plain, path: clusters/plain/}\n',
);
if (!config.ok) throw new Error('config fixture is invalid');
const clusters = config.config.clusters!.map((cluster) => ({
  cluster,
  filesRead: renderManifests(FILES, cluster.path!).filesRead,
}));

describe('touchedClusters', () => {
  it.each([
    { changed: ['base/api.yaml'], expected: ['prod', 'staging'] },
    { changed: ['patches/prod.yaml'], expected: ['prod'] },
    { changed: ['clusters/staging/kustomization.yaml'], expected: ['staging'] },
    { changed: ['clusters/plain/new.yaml'], expected: ['plain'] },
    { changed: ['clusters/plainer/x.yaml'], expected: [] },
    { changed: ['docs/README.md'], expected: [] },
    { changed: [], expected: [] },
  ])('$changed → $expected', ({ changed, expected }) => {
    expect(touchedClusters(changed, clusters).map((c) => c.name)).toEqual(expected);
  });
});

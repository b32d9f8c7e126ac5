// The commit a suspended source has applied: a Kustomization names it; a HelmRelease names none, so it
// is the commit of the Kustomization that applied the HelmRelease, once helm-controller has released the
// current spec (status fields as helm-controller's v2 API records them).
import { describe, expect, it } from 'vitest';
import { appliedCommitOf } from '../../../src/core/emergency/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const MERGE = 'a'.repeat(40);
const OLDER = 'b'.repeat(40);

function kustomization(sha: string): KubeObject {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'apps', namespace: 'flux-system' },
    spec: { path: './apps', sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
    status: { lastAppliedRevision: `main@sha1:${sha}`, lastAttemptedRevision: `main@sha1:${sha}` },
  };
}

interface Release {
  generation?: number;
  attemptedGeneration?: number;
  observedGeneration?: number;
  revision?: string;
  history?: Array<{ chartVersion: string; status: string }>;
  stamped?: boolean;
}

function helmRelease(release: Release): KubeObject {
  const status: Record<string, unknown> = {};
  if (release.attemptedGeneration !== undefined) status.lastAttemptedGeneration = release.attemptedGeneration;
  if (release.observedGeneration !== undefined) status.observedGeneration = release.observedGeneration;
  if (release.revision !== undefined) status.lastAttemptedRevision = release.revision;
  if (release.history) status.history = release.history;
  const labels = { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' };
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: {
      name: 'podinfo',
      namespace: 'podinfo',
      ...(release.generation !== undefined ? { generation: release.generation } : {}),
      ...(release.stamped === false ? {} : { labels }),
    },
    spec: { interval: '10m', chart: { spec: { chart: './charts/podinfo' } } },
    status,
  };
}

const deployed = [
  { chartVersion: '6.5.0', status: 'deployed' },
  { chartVersion: '6.5.0', status: 'superseded' },
];
const released: Release = { generation: 3, attemptedGeneration: 3, revision: '6.5.0', history: deployed };

describe('appliedCommitOf', () => {
  it("reads a Kustomization's own lastAppliedRevision", () => {
    expect(appliedCommitOf(kustomization(MERGE), [])).toBe(MERGE);
  });

  const cases: Array<[string, Release, string | undefined]> = [
    ['released the current generation, deployed: its Kustomization’s commit', released, MERGE],
    [
      'observedGeneration stands in for lastAttemptedGeneration',
      { ...released, attemptedGeneration: undefined, observedGeneration: 3 },
      MERGE,
    ],
    ['the merged spec not yet released (generation 4, attempted 3)', { ...released, generation: 4 }, undefined],
    [
      'the latest release failed',
      { ...released, history: [{ chartVersion: '6.5.0', status: 'failed' }, ...deployed] },
      undefined,
    ],
    ['the latest release is another chart version than attempted', { ...released, revision: '6.5.1' }, undefined],
    ['no release history yet', { ...released, history: [] }, undefined],
    ['no generation recorded', { ...released, generation: undefined }, undefined],
    ['no Kustomization stamps: nothing says which commit applied it', { ...released, stamped: false }, undefined],
  ];
  it.each(cases)('a HelmRelease: %s', (_name, release, expected) => {
    expect(appliedCommitOf(helmRelease(release), [kustomization(MERGE), helmRelease(release)])).toBe(expected);
  });

  it('a HelmRelease whose Kustomization is not in the snapshot has applied nothing known', () => {
    expect(appliedCommitOf(helmRelease(released), [])).toBeUndefined();
  });

  it('a HelmRelease takes the commit its own Kustomization applied, not an older one', () => {
    expect(appliedCommitOf(helmRelease(released), [kustomization(OLDER)])).toBe(OLDER);
  });

  it('another kind has applied nothing', () => {
    expect(appliedCommitOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, [])).toBeUndefined();
  });
});

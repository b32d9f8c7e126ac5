// The drift pipeline's steps: branch names, declined drift, PR groups (scope: test/core/k8s).
import { describe, expect, it } from 'vitest';
import { branchFor, reconcileDrift as evaluateDrift } from '../../../src/core/pipeline/index.js';
import { parseConfig, type Config } from '../../../src/core/config/index.js';
import type { Snapshot } from '../../../src/core/model/index.js';
import { appliedObjects, CLUSTER, configText, gitopsRepository, scaled, snapshotOf } from '../../app/live.js';

function config(text: string): Config {
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe('branchFor', () => {
  it.each([
    ['cluster', undefined, 'driftback/prod-eu'],
    ['namespace', 'shop', 'driftback/prod-eu/shop'],
    ['namespace', '', 'driftback/prod-eu/cluster-scoped'],
  ])('groupBy %s, namespace %j → %s', (_groupBy, namespace, expected) => {
    expect(branchFor(config(configText()), CLUSTER, namespace)).toBe(expected);
  });
});

describe('evaluateDrift', () => {
  const files = gitopsRepository();
  const cfg = config(configText());
  const input = (items: ReturnType<typeof appliedObjects>, declined = new Set<string>()) => ({
    snapshot: snapshotOf('acme/platform-gitops', items, '2026-12-02T03:00:00Z') as Snapshot,
    config: cfg, cluster: cfg.clusters![0], files: new Map(Object.entries(files)), history: [], declined,
  });

  it('codifies a human change into one group whose fingerprints are the declined set once closed', () => {
    const evaluation = evaluateDrift(input(scaled(appliedObjects(files), 'frontend', 5)));
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    expect(evaluation.groups).toHaveLength(1);
    const [group] = evaluation.groups;
    expect([...group.codify.edits.keys()]).toEqual(['clusters/prod-eu/frontend-deployment.yaml']);
    expect(group.fingerprints).toHaveLength(1);

    const again = evaluateDrift(input(scaled(appliedObjects(files), 'frontend', 5), new Set(group.fingerprints)));
    if (again.type !== 'evaluated') throw new Error(again.type);
    expect(again.groups).toEqual([]);
    expect(again.declined).toBe(1);
  });

  it('proposes nothing while a manifest does not render', () => {
    const broken = { ...files, 'clusters/prod-eu/frontend-service.yaml': 'kind: [unclosed\n' };
    const evaluation = evaluateDrift({ ...input(appliedObjects(files)), files: new Map(Object.entries(broken)) });
    expect(evaluation.type).toBe('manifest-problems');
  });

  it('names a symlink in the tree as such when a kustomization refers to it', () => {
    const linked = { ...files, 'clusters/prod-eu/kustomization.yaml': 'resources:\n  - frontend-deployment.yaml\n  - shared\n' };
    const evaluation = evaluateDrift({
      ...input(appliedObjects(files)), files: new Map(Object.entries(linked)), unfollowed: new Map([['clusters/prod-eu/shared', 'symlink' as const]]),
    });
    if (evaluation.type !== 'manifest-problems') throw new Error(evaluation.type);
    expect(evaluation.problems).toContainEqual(expect.objectContaining({ file: 'clusters/prod-eu/kustomization.yaml', message: expect.stringMatching(/symlink|symbolic link/) }));
  });

  it('says when the snapshot holds none of the configured namespaces', () => {
    const scoped = config(configText().replace('defaultNamespace: shop', 'defaultNamespace: shop\n    namespaces: [web]'));
    const snapshot = { ...snapshotOf('acme/platform-gitops', [], '2026-12-02T03:00:00Z'), scope: { namespaces: ['jobs'], complete: true, errors: [] } } as Snapshot;
    const evaluation = evaluateDrift({ ...input([]), config: scoped, cluster: scoped.clusters![0], snapshot });
    expect(evaluation).toMatchObject({ type: 'out-of-scope', message: expect.stringContaining('web') });
  });
});

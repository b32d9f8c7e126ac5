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
    config: cfg,
    cluster: cfg.clusters![0],
    files: new Map(Object.entries(files)),
    history: [],
    declined,
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

  it('a file that does not read is not rendered; the rest is compared, and its objects are not taken as hand-made', () => {
    const broken = { ...files, 'clusters/prod-eu/frontend-service.yaml': 'kind: [unclosed\n' };
    const evaluation = evaluateDrift({
      ...input(scaled(appliedObjects(files), 'frontend', 5)),
      files: new Map(Object.entries(broken)),
    });
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    expect(evaluation.drift.notRendered?.sources).toContainEqual(
      expect.objectContaining({ file: 'clusters/prod-eu/frontend-service.yaml' }),
    );
    // The live Service that file declares is set aside, never extra (never codified as a new file).
    expect(evaluation.drift.notRendered?.live).toContainEqual(expect.objectContaining({ kind: 'Service' }));
    expect(evaluation.drift.resources.filter((resource) => resource.status === 'extra')).toEqual([]);
    // The Deployment scaled by hand is still codified.
    expect(evaluation.groups.flatMap((group) => [...group.codify.edits.keys()])).toEqual([
      'clusters/prod-eu/frontend-deployment.yaml',
    ]);
  });

  it('a kustomization that does not build is not rendered, with the reason (a symlink named as such)', () => {
    const linked = {
      ...files,
      'clusters/prod-eu/kustomization.yaml': 'resources:\n  - frontend-deployment.yaml\n  - shared\n',
    };
    const evaluation = evaluateDrift({
      ...input(appliedObjects(files)),
      files: new Map(Object.entries(linked)),
      unfollowed: new Map([['clusters/prod-eu/shared', 'symlink' as const]]),
    });
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    const [source] = evaluation.sources;
    expect(source).toMatchObject({ scope: 'not-rendered', reason: expect.stringMatching(/symlink|symbolic link/) });
    expect(source!.reason).toMatch(/^clusters\/prod-eu\/kustomization\.yaml/);
    // Nothing of it is compared: no object is in sync, none missing, none extra, nothing proposed.
    expect(evaluation.drift.summary).toMatchObject({ inSync: 0, modified: 0, missing: 0, extra: 0 });
    expect(evaluation.groups).toEqual([]);
  });

  it('says when the snapshot holds none of the configured namespaces', () => {
    const scoped = config(
      configText().replace('defaultNamespace: shop', 'defaultNamespace: shop\n    namespaces: [web]'),
    );
    const snapshot = {
      ...snapshotOf('acme/platform-gitops', [], '2026-12-02T03:00:00Z'),
      scope: { namespaces: ['jobs'], complete: true, errors: [] },
    } as Snapshot;
    const evaluation = evaluateDrift({ ...input([]), config: scoped, cluster: scoped.clusters![0], snapshot });
    expect(evaluation).toMatchObject({ type: 'out-of-scope', message: expect.stringContaining('web') });
  });
});

describe('evaluateDrift with parts that are not rendered', () => {
  const plain = gitopsRepository();
  // Both namespaces configured: with none, the scope would be the namespaces the source renders into.
  const cfg = config(
    configText().replace('defaultNamespace: shop', 'defaultNamespace: shop\n    namespaces: [shop, other]'),
  );
  const root = cfg.clusters![0].path!.replace(/\/$/, '');
  const manifests = Object.keys(plain)
    .filter((path) => path.startsWith(`${root}/`))
    .map((path) => path.slice(root.length + 1));
  const files = {
    ...plain,
    [`${root}/kustomization.yaml`]: `namespace: shop\nresources:\n${manifests.map((m) => `- ${m}`).join('\n')}\nhelmCharts:\n- name: redis\n  repo: https://charts.example.invalid\n`,
  };
  const made = (name: string, namespace: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      uid: `uid-${name}`,
      resourceVersion: '1',
      creationTimestamp: '2026-12-01T00:00:00Z',
      // A person's objects: only they can be extra (Helm's would be reported under their release).
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time: '2026-12-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {},
        },
      ],
    },
    spec: { replicas: 1 },
  });

  it('renders the rest, sets aside live objects in the namespace the chart would fill, and still reports extras elsewhere', () => {
    const items = [...appliedObjects(files), made('chart-cache', 'shop'), made('stray', 'other')] as ReturnType<
      typeof appliedObjects
    >;
    const evaluation = evaluateDrift({
      snapshot: snapshotOf('acme/platform-gitops', items, '2026-12-02T03:00:00Z') as Snapshot,
      config: cfg,
      cluster: cfg.clusters![0],
      files: new Map(Object.entries(files)),
      history: [],
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    expect(evaluation.diff.notRendered).toEqual({
      sources: [
        expect.objectContaining({
          file: `${root}/kustomization.yaml`,
          line: 9,
          field: 'helmCharts',
          namespace: 'shop',
        }),
      ],
      live: [{ group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'chart-cache' }],
    });
    expect(evaluation.diff.resources.filter((r) => r.status === 'extra').map((r) => r.key.name)).toEqual(['stray']);
  });
});

// The diff and the plan read one snapshot the same way: for every scope a snapshot can have, what the
// diff calls missing is exactly what the plan creates, and neither claims anything about a type or a
// namespace the snapshot did not list.
import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../../src/core/config/index.js';
import { displayKey, type KubeObject, type ScopeError } from '../../../src/core/model/index.js';
import { evaluateDrift, planCluster } from '../../../src/core/pipeline/index.js';
import { type LiveState } from '../../../src/core/model/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { appliedObjects, configText, gitopsRepository } from '../../app/live.js';

const yaml = (...lines: string[]): string => lines.join('\n') + '\n';
const EXTRA = {
  'clusters/prod-eu/legacy-endpoints.yaml': yaml(
    'apiVersion: v1',
    'kind: Endpoints',
    'metadata:',
    '  name: legacy-db',
    'subsets:',
    '  - addresses:',
    '      - ip: 10.0.0.5',
  ),
  'clusters/prod-eu/reader.yaml': yaml(
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    '  name: reader',
    'rules: []',
  ),
  'clusters/prod-eu/web.yaml': yaml(
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: web-settings',
    '  namespace: web',
    'data:',
    '  a: "1"',
  ),
};

function config(text: string): Config {
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

const files = new Map(Object.entries({ ...gitopsRepository(), ...EXTRA }));
const cfg = config(configText());
const cluster = cfg.clusters![0]!;
const rendered = renderCluster(files, cluster);
const NOW = '2026-12-02T12:00:00Z';
const CAPTURED = '2026-12-02T11:55:00Z';
/** Live lacks the guestbook's frontend Service, the Endpoints, the ClusterRole and the web ConfigMap. */
const absent = ['frontend', 'legacy-db', 'reader', 'web-settings'];
const live: KubeObject[] = appliedObjects(Object.fromEntries(files)).filter(
  (o) => !absent.includes(o.metadata.name ?? '') || o.kind === 'Deployment',
);
const planOf = (snapshot: LiveState | undefined) =>
  planCluster({
    config: cfg,
    cluster,
    head: rendered.objects,
    headFiles: files,
    snapshot,
    now: NOW,
    repository: 'acme/platform',
  });

const endpointsForbidden: ScopeError = { resource: 'v1/endpoints', reason: 'Forbidden' };
const SCOPES: Array<[string, NonNullable<LiveState['scope']>]> = [
  ['complete', { complete: true, errors: [] }],
  ['incomplete, naming nothing', { complete: false, errors: [] }],
  ['Endpoints unlisted by plural', { complete: false, errors: [endpointsForbidden] }],
  [
    'Endpoints unlisted by group/kind',
    {
      complete: false,
      errors: [{ ...endpointsForbidden, group: '', kind: 'Endpoints' }],
    },
  ],
  ['Services unlisted', { complete: false, errors: [{ resource: 'services', reason: 'Forbidden' }] }],
  ['namespace shop only', { namespaces: ['shop'], complete: true, errors: [] }],
];

describe.each(SCOPES)('a snapshot that is %s', (_name, scope) => {
  const snapshot: LiveState = { items: live, capturedAt: CAPTURED, scope };
  const evaluation = evaluateDrift({ snapshot, config: cfg, cluster, files, history: [], declined: new Set() });
  const plan = planOf(snapshot);
  const claimed = plan.create.map((entry) => displayKey(entry.id));

  it('the diff calls missing exactly what the plan creates', () => {
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    const missing = evaluation.diff.resources.filter((r) => r.status === 'missing').map((r) => displayKey(r.key));
    expect([...claimed].sort()).toEqual(missing.sort());
  });

  it('neither claims a type or a namespace the snapshot did not list', () => {
    if (!scope.complete && scope.errors.length === 0) expect(claimed).toEqual([]);
    const unlisted = (resource: string): boolean => scope.errors.some((e) => e.resource === resource);
    if (unlisted('v1/endpoints')) expect(claimed).not.toContain('Endpoints/shop/legacy-db');
    if (unlisted('services')) expect(claimed.filter((c) => c.startsWith('Service/'))).toEqual([]);
    if (scope.namespaces) expect(claimed.filter((c) => !c.includes('/shop/'))).toEqual([]);
  });
});

it('a complete snapshot claims them all', () => {
  const plan = planOf({ items: live, capturedAt: CAPTURED, scope: { complete: true, errors: [] } });
  expect(plan.create.map((entry) => displayKey(entry.id)).sort()).toEqual([
    'ClusterRole/reader',
    'ConfigMap/web/web-settings',
    'Endpoints/shop/legacy-db',
    'Service/shop/frontend',
  ]);
});

it('a cluster with no snapshot yet is planned against nothing, and the plan says so', () => {
  const plan = planOf(undefined);
  expect(plan.create).toHaveLength(rendered.objects.length);
  expect(plan.warnings[0]).toEqual({
    code: 'stale-snapshot',
    message:
      'No snapshot of prod-eu has been received yet: every resource is shown as created. ' +
      'Deploy the driftback agent to the cluster (driftback token --repository acme/platform --cluster prod-eu).',
  });
});

describe('a part of head that is not rendered', () => {
  const stray: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'from-chart', namespace: 'shop', uid: 'u-1', resourceVersion: '1' },
    spec: {},
  };
  const elsewhere: KubeObject = { ...stray, metadata: { ...stray.metadata, name: 'old', namespace: 'web' } };
  const snapshot: LiveState = {
    items: [...appliedObjects(Object.fromEntries(files)), stray, elsewhere],
    capturedAt: CAPTURED,
    scope: { complete: true, errors: [] },
  };
  const notRendered = [
    {
      file: 'clusters/prod-eu/kustomization.yaml',
      line: 4,
      field: 'helmCharts',
      reason: 'Helm charts are inflated by running helm',
      namespace: 'shop',
    },
  ];

  it('prunes nothing it may have made, keeps those with the reason, warns with its file and line, and prunes the rest', () => {
    // Base declared both; head declares neither (one may now come from the chart head adds).
    const declare = (o: KubeObject): string =>
      yaml(
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        `  name: ${o.metadata.name}`,
        `  namespace: ${o.metadata.namespace}`,
        'spec: {}',
      );
    const baseFiles = new Map([
      ...files,
      ['clusters/prod-eu/chart.yaml', declare(stray)],
      ['clusters/prod-eu/old.yaml', declare(elsewhere)],
    ]);
    const base = renderCluster(baseFiles, cluster).objects;
    const plan = planCluster({
      config: cfg,
      cluster,
      head: rendered.objects,
      base,
      headFiles: files,
      snapshot,
      now: NOW,
      notRendered,
    });
    expect(plan.prune.map((entry) => entry.id.name)).toEqual(['old']);
    expect(plan.kept).toContainEqual({
      id: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'from-chart' },
      reason: expect.stringContaining('clusters/prod-eu/kustomization.yaml:4'),
    });
    expect(plan.warnings).toContainEqual(
      expect.objectContaining({ code: 'not-rendered', file: 'clusters/prod-eu/kustomization.yaml', line: 4 }),
    );
  });
});

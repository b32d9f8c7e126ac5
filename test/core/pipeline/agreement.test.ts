// The diff and the plan read one snapshot the same way: for every scope a snapshot can have, what the
// diff calls missing is exactly what the plan creates, and neither claims anything about a type or a
// namespace the snapshot did not list.
import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../../src/core/config/index.js';
import { displayKey, type KubeObject, type ScopeError } from '../../../src/core/model/index.js';
import { evaluateDrift, planCluster, renderCluster, type LiveState } from '../../../src/core/pipeline/index.js';
import { appliedObjects, configText, gitopsRepository } from '../../app/live.js';

const EXTRA = {
  'clusters/prod-eu/legacy-endpoints.yaml': 'apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: legacy-db\nsubsets:\n  - addresses:\n      - ip: 10.0.0.5\n',
  'clusters/prod-eu/reader.yaml': 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules: []\n',
  'clusters/prod-eu/web.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-settings\n  namespace: web\ndata:\n  a: "1"\n',
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
/** Live lacks the guestbook's frontend Service, the Endpoints, the ClusterRole and the web ConfigMap. */
const live: KubeObject[] = appliedObjects(Object.fromEntries(files)).filter((o) => !['frontend', 'legacy-db', 'reader', 'web-settings'].includes(o.metadata.name ?? '') || o.kind === 'Deployment');

const SCOPES: Array<[string, NonNullable<LiveState['scope']>]> = [
  ['complete', { complete: true, errors: [] }],
  ['incomplete, naming nothing', { complete: false, errors: [] }],
  ['Endpoints unlisted by plural', { complete: false, errors: [{ resource: 'v1/endpoints', reason: 'Forbidden' }] }],
  ['Endpoints unlisted by group/kind', { complete: false, errors: [{ resource: 'v1/endpoints', group: '', kind: 'Endpoints', reason: 'Forbidden' } as ScopeError] }],
  ['Services unlisted', { complete: false, errors: [{ resource: 'services', reason: 'Forbidden' }] }],
  ['namespace shop only', { namespaces: ['shop'], complete: true, errors: [] }],
];

describe.each(SCOPES)('a snapshot that is %s', (_name, scope) => {
  const snapshot: LiveState = { items: live, capturedAt: '2026-12-02T11:55:00Z', scope };
  const evaluation = evaluateDrift({ snapshot, config: cfg, cluster, files, history: [], declined: new Set() });
  const plan = planCluster({ config: cfg, cluster, head: rendered.objects, headFiles: files, snapshot, now: '2026-12-02T12:00:00Z' });

  it('the diff calls missing exactly what the plan creates', () => {
    if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
    const missing = evaluation.diff.resources.filter((r) => r.status === 'missing').map((r) => displayKey(r.key)).sort();
    expect(plan.create.map((entry) => displayKey(entry.id)).sort()).toEqual(missing);
  });

  it('neither claims a type or a namespace the snapshot did not list', () => {
    const claimed = plan.create.map((entry) => displayKey(entry.id));
    if (!scope.complete && scope.errors.length === 0) expect(claimed).toEqual([]);
    if (scope.errors.some((e) => e.resource.endsWith('endpoints'))) expect(claimed).not.toContain('Endpoints/shop/legacy-db');
    if (scope.errors.some((e) => e.resource === 'services')) expect(claimed.some((c) => c.startsWith('Service/'))).toBe(false);
    if (scope.namespaces) expect(claimed.filter((c) => !c.includes('/shop/'))).toEqual([]);
  });
});

it('a complete snapshot claims them all', () => {
  const snapshot: LiveState = { items: live, capturedAt: '2026-12-02T11:55:00Z', scope: { complete: true, errors: [] } };
  const plan = planCluster({ config: cfg, cluster, head: rendered.objects, headFiles: files, snapshot, now: '2026-12-02T12:00:00Z' });
  expect(plan.create.map((entry) => displayKey(entry.id)).sort()).toEqual(['ClusterRole/reader', 'ConfigMap/web/web-settings', 'Endpoints/shop/legacy-db', 'Service/shop/frontend']);
});

it('a cluster with no snapshot yet is planned against nothing, and the plan says so', () => {
  const plan = planCluster({ config: cfg, cluster, head: rendered.objects, headFiles: files, snapshot: undefined, now: '2026-12-02T12:00:00Z', repository: 'acme/platform' });
  expect(plan.create).toHaveLength(rendered.objects.length);
  expect(plan.warnings[0]).toEqual({
    code: 'stale-snapshot',
    message: 'No snapshot of prod-eu has been received yet: every resource is shown as created. Deploy the driftback agent to the cluster (driftback token --repository acme/platform --cluster prod-eu).',
  });
});

import { describe, expect, it } from 'vitest';
import { planChanges, type PlanInput } from '../../../src/core/plan/index.js';
import { defaultConfig, type ClusterConfig } from '../../../src/core/config/index.js';
import {
  displayKey,
  type DesiredObject,
  type KubeObject,
  type Plan,
  type ResourceKey,
  type WarningCode,
} from '../../../src/core/model/index.js';
import { byName, edited, liveOf, microservices, scaledByHand } from './build.js';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { readFixtureTree } from '../../support/fixtures.js';

const NOW = '2026-12-02T12:00:00Z';
const CLUSTER: ClusterConfig = {
  name: 'prod-eu',
  path: 'kubernetes-manifests',
  defaultNamespace: 'default',
  prune: true,
  staleAfter: '30m',
};
const FLUX = { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' };

function plan(partial: Partial<PlanInput> & { head: DesiredObject[]; live: KubeObject[] }): Plan {
  return planChanges({
    config: defaultConfig(),
    cluster: CLUSTER,
    now: NOW,
    snapshot: { capturedAt: '2026-12-02T11:55:00Z', complete: true, errors: [] },
    ...partial,
  });
}

function codes(result: Plan): string[] {
  return result.warnings.map((w) => `${w.code} ${w.id ? displayKey(w.id) : '-'}${w.path ? ' ' + w.path : ''}`);
}

const head = microservices();
const applied = (extra: Parameters<typeof liveOf>[1] = {}) => head.map((d) => liveOf(d, extra));

describe('planChanges on the microservices-demo repository', () => {
  it('counts every object unchanged when live is what head applied', () => {
    const result = plan({ head, live: applied() });
    expect(result).toMatchObject({ create: [], update: [], prune: [], kept: [], warnings: [] });
    expect(result.unchanged).toBe(head.length);
  });

  it('plans an update with the field, the old and new value, and the line in head', () => {
    const cart = byName(head, 'Deployment', 'cartservice');
    const newHead = head.map((d) =>
      d === cart ? edited(d, (o) => ((o.spec as any).template.spec.containers[0].image = 'cartservice:v2')) : d,
    );
    const result = plan({ head: newHead, live: applied() });
    expect(result.update).toHaveLength(1);
    expect(result.update[0].changes).toMatchObject([
      {
        path: '/spec/template/spec/containers/0/image',
        op: 'replace',
        desired: 'cartservice:v2',
        live: 'cartservice',
        manager: 'kustomize-controller',
        cause: 'applier',
      },
    ]);
    expect(result.unchanged).toBe(head.length - 1);
  });

  it('plans a removal when head drops a field the applier owns', () => {
    const cart = byName(head, 'Deployment', 'cartservice');
    const newHead = head.map((d) =>
      d === cart ? edited(d, (o) => delete (o.spec as any).template.spec.terminationGracePeriodSeconds) : d,
    );
    const result = plan({ head: newHead, live: applied() });
    expect(result.update[0].changes).toMatchObject([
      { path: '/spec/template/spec/terminationGracePeriodSeconds', op: 'remove', live: 5 },
    ]);
  });

  it('treats server defaults, status and equal quantities as unchanged', () => {
    const live = applied().map((o) => {
      if (o.kind !== 'Deployment') return o;
      const copy = structuredClone(o);
      (copy.spec as any).progressDeadlineSeconds = 600;
      (copy.spec as any).template.spec.containers[0].terminationMessagePath = '/dev/termination-log';
      const resources = (copy.spec as any).template.spec.containers[0].resources;
      if (resources?.requests?.cpu === '100m') resources.requests.cpu = '0.1';
      copy.status = { replicas: 1 };
      return copy;
    });
    expect(plan({ head, live }).update).toEqual([]);
  });

  it('plans a create for an object head declares and live lacks', () => {
    const live = applied().filter((o) => o.metadata.name !== 'adservice');
    const result = plan({ head, live });
    expect(result.create.map((e) => displayKey(e.id))).toEqual([
      'Service/default/adservice',
      'ServiceAccount/default/adservice',
      'Deployment/default/adservice',
    ]);
  });
});

interface PruneCase {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  inBase?: boolean;
  prune?: boolean;
  expected: 'prune' | 'kept' | 'nothing';
}

const PRUNE_CASES: PruneCase[] = [
  { name: 'declared at base', inBase: true, expected: 'prune' },
  { name: 'carrying the Flux labels this source carries', labels: FLUX, expected: 'prune' },
  {
    name: 'carrying another Flux Kustomization’s labels',
    labels: { ...FLUX, 'kustomize.toolkit.fluxcd.io/name': 'other' },
    expected: 'nothing',
  },
  {
    name: 'carrying the Argo CD tracking id of this application',
    annotations: { 'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:default/adservice' },
    expected: 'prune',
  },
  {
    name: 'carrying the Argo CD instance label under label tracking',
    labels: { 'app.kubernetes.io/instance': 'shop' },
    expected: 'prune',
  },
  { name: 'untracked and not in base', expected: 'nothing' },
  {
    name: 'annotated prune: disabled',
    inBase: true,
    annotations: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled' },
    expected: 'kept',
  },
  {
    name: 'annotated sync-options Prune=false',
    inBase: true,
    annotations: { 'argocd.argoproj.io/sync-options': 'ServerSideApply=true,Prune=false' },
    expected: 'kept',
  },
  {
    name: 'annotated helm.sh/resource-policy: keep',
    inBase: true,
    annotations: { 'helm.sh/resource-policy': 'keep' },
    expected: 'kept',
  },
  { name: 'declared at base with the cluster’s prune off', inBase: true, prune: false, expected: 'nothing' },
];

const argoCm = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'argocd-cm', namespace: 'argocd' },
  data,
});

describe('prune rules', () => {
  it.each(PRUNE_CASES)('a live object no longer in head, $name → $expected', (c) => {
    const removed = byName(head, 'Deployment', 'adservice');
    const newHead = head.filter((d) => d !== removed);
    // The source's tracking identity is what its other live objects carry.
    const sourceLabels: Record<string, string> = c.labels?.['kustomize.toolkit.fluxcd.io/name']
      ? FLUX
      : c.labels?.['app.kubernetes.io/instance']
        ? { 'app.kubernetes.io/instance': 'shop' }
        : {};
    // Argo CD writes each object's own id (util/argo/resource_tracking.go BuildAppInstanceValue).
    const trackingId = (key: ResourceKey) => `shop:${key.group}/${key.kind}:${key.namespace}/${key.name}`;
    const sourceAnnotations = (key: ResourceKey): Record<string, string> =>
      c.annotations?.['argocd.argoproj.io/tracking-id'] ? { 'argocd.argoproj.io/tracking-id': trackingId(key) } : {};
    const live = newHead.map((d) => liveOf(d, { labels: sourceLabels, annotations: sourceAnnotations(d.key) }));
    live.push(liveOf(removed, { labels: c.labels, annotations: c.annotations }));
    // The instance label is Argo CD's stamp under label tracking, which argocd-cm sets (util/settings/settings.go).
    if (c.labels?.['app.kubernetes.io/instance']) live.push(argoCm({ 'application.resourceTrackingMethod': 'label' }));
    const result = plan({
      head: newHead,
      base: c.inBase ? head : undefined,
      live,
      cluster: { ...CLUSTER, prune: c.prune ?? true },
    });
    expect(result.prune.map((e) => displayKey(e.id))).toEqual(
      c.expected === 'prune' ? ['Deployment/default/adservice'] : [],
    );
    expect(result.kept.map((k) => displayKey(k.id))).toEqual(
      c.expected === 'kept' ? ['Deployment/default/adservice'] : [],
    );
    if (c.expected === 'kept') expect(result.kept[0].reason).toMatch(/annotated/);
  });
});

const pvc = (name: string): DesiredObject => ({
  ...microservices()[0],
  key: { group: '', kind: 'PersistentVolumeClaim', namespace: 'default', name },
  object: {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } },
  },
});

interface WarningCase {
  name: string;
  code: WarningCode;
  build(): Partial<PlanInput> & { head: DesiredObject[]; live: KubeObject[] };
  expected: string[];
  /** Expected file:line for the first warning with this code. */
  at?: string;
  message?: RegExp;
}

const cart = byName(head, 'Deployment', 'cartservice');
const replaceCart = (edit: (o: KubeObject) => void) => head.map((d) => (d === cart ? edited(d, edit) : d));
const withReplicas = replaceCart((o) => ((o.spec as any).replicas = 2));

const WARNING_CASES: WarningCase[] = [
  {
    name: 'pruning a PersistentVolumeClaim',
    code: 'prune-protected',
    build: () => ({ head, base: [...head, pvc('data')], live: [...applied(), liveOf(pvc('data'))] }),
    expected: ['prune-protected PersistentVolumeClaim/default/data'],
    message: /the data on it go with it when the volume's reclaim policy is `Delete`/,
  },
  {
    name: 'a Deployment whose replicas the HPA owns',
    code: 'conflict',
    build: () => ({
      head: withReplicas,
      live: withReplicas.map((d) =>
        liveOf(
          d,
          d.key.name === 'cartservice'
            ? {
                extraEntries: [
                  {
                    manager: 'horizontal-pod-autoscaler',
                    operation: 'Update',
                    time: '2026-12-02T09:00:00Z',
                    fieldsV1: { 'f:spec': { 'f:replicas': {} } },
                  },
                ],
              }
            : {},
        ),
      ),
    }),
    expected: ['conflict Deployment/default/cartservice /spec/replicas'],
    at: 'cartservice.yaml',
    message: /horizontal-pod-autoscaler owns it/,
  },
  {
    name: 'a live kubectl scale the merge would undo',
    code: 'reverts-live-change',
    build: () => {
      const live = withReplicas.map((d) => liveOf(d));
      const target = live.find((o) => o.kind === 'Deployment' && o.metadata.name === 'cartservice')!;
      scaledByHand(target, 8);
      return { head: withReplicas, live };
    },
    expected: ['reverts-live-change Deployment/default/cartservice /spec/replicas'],
    message: /kubectl-scale.*2026-12-02 03:02 UTC.*codify/,
  },
  {
    name: 'a changed Deployment selector',
    code: 'immutable',
    build: () => ({ head: replaceCart((o) => ((o.spec as any).selector.matchLabels.app = 'cart')), live: applied() }),
    expected: ['immutable Deployment/default/cartservice /spec/selector/matchLabels/app'],
    at: 'cartservice.yaml',
  },
  {
    name: 'a snapshot older than staleAfter',
    code: 'stale-snapshot',
    build: () => ({
      head,
      live: applied(),
      snapshot: { capturedAt: '2026-12-02T10:00:00Z', complete: true, errors: [] },
    }),
    expected: ['stale-snapshot -'],
    message: /2h ago/,
  },
  {
    name: 'a snapshot that could not list Services',
    code: 'partial-snapshot',
    build: () => ({
      head,
      live: applied().filter((o) => o.kind !== 'Service'),
      snapshot: {
        capturedAt: '2026-12-02T11:55:00Z',
        complete: false,
        errors: [{ resource: 'v1/services', reason: 'Forbidden' }],
      },
    }),
    expected: ['partial-snapshot -'],
    message: /v1\/services \(Forbidden\)/,
  },
  {
    name: 'a create into a namespace the cluster does not have',
    code: 'namespace-missing',
    build: () => {
      const moved = edited(cart, (o) => (o.metadata.namespace = 'shop'));
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } };
      return { head: [...head, moved], live: [...applied(), ns] };
    },
    expected: ['namespace-missing Deployment/shop/cartservice'],
  },
  {
    name: 'an update to a Degraded Deployment',
    code: 'unhealthy',
    build: () => ({
      head,
      live: head.map((d) =>
        liveOf(
          d,
          d.key.kind === 'Deployment' && d.key.name === 'cartservice'
            ? {
                status: {
                  observedGeneration: 1,
                  conditions: [
                    {
                      type: 'Progressing',
                      status: 'False',
                      reason: 'ProgressDeadlineExceeded',
                      message: 'ReplicaSet "cartservice-7f" has timed out progressing.',
                    },
                  ],
                },
              }
            : {},
        ),
      ),
    }),
    expected: ['unhealthy Deployment/default/cartservice'],
    message: /Degraded now/,
  },
  {
    name: 'a failing Flux Kustomization for the cluster path (a suspended one has its own note: core/emergency)',
    code: 'not-reconciling',
    build: () => ({
      head,
      live: [
        ...applied(),
        {
          apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
          kind: 'Kustomization',
          metadata: { name: 'apps', namespace: 'flux-system' },
          spec: { path: './kubernetes-manifests' },
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                message: 'kustomize build failed',
                lastTransitionTime: '2026-12-01T08:00:00Z',
              },
            ],
          },
        },
      ],
    }),
    expected: ['not-reconciling Kustomization/flux-system/apps'],
    message: /failing since 2026-12-01 08:00 UTC: kustomize build failed/,
  },
];

describe('warnings', () => {
  it.each(WARNING_CASES)('$code: $name', (c) => {
    const result = plan(c.build());
    expect(codes(result).filter((line) => line.startsWith(c.code))).toEqual(c.expected);
    const first = result.warnings.find((w) => w.code === c.code)!;
    if (c.at) {
      expect(first.file).toBe(c.at);
      expect(first.line).toBeGreaterThan(1);
    }
    if (c.message) expect(first.message).toMatch(c.message);
  });

  it('makes no create claim for a type the snapshot could not list', () => {
    const result = plan({
      head,
      live: applied().filter((o) => o.kind !== 'Service'),
      snapshot: {
        capturedAt: '2026-12-02T11:55:00Z',
        complete: false,
        errors: [{ resource: 'v1/services', reason: 'Forbidden' }],
      },
    });
    expect(result.create).toEqual([]);
  });

  it('does not prune a type the snapshot could not list', () => {
    const result = plan({
      head: head.filter((d) => d.key.kind !== 'Service'),
      base: head,
      live: applied(),
      snapshot: {
        capturedAt: '2026-12-02T11:55:00Z',
        complete: false,
        errors: [{ resource: 'services', reason: 'Forbidden' }],
      },
    });
    expect(result.prune).toEqual([]);
  });

  it('warns about a StatefulSet volumeClaimTemplates change as immutable', () => {
    const sts = edited(cart, (o) => {
      o.kind = 'StatefulSet';
      (o.spec as any).volumeClaimTemplates = [
        { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } },
      ];
    });
    const grown = edited(sts, (o) => ((o.spec as any).volumeClaimTemplates[0].spec.resources.requests.storage = '5Gi'));
    const result = plan({ head: [grown], live: [liveOf(sts)] });
    expect(codes(result)).toHaveLength(1);
    expect(codes(result)[0]).toMatch(/^immutable StatefulSet\/default\/cartservice \/spec\/volumeClaimTemplates/);
  });

  it('names Service clusterIP and immutable ConfigMap data changes as immutable', () => {
    const svc = byName(head, 'Service', 'cartservice');
    const pinned = edited(svc, (o) => ((o.spec as any).clusterIP = '10.0.0.9'));
    const liveSvc = liveOf(svc);
    (liveSvc.spec as any).clusterIP = '10.0.0.7';
    const cm = {
      ...svc,
      key: { group: '', kind: 'ConfigMap', namespace: 'default', name: 'cfg' },
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cfg', namespace: 'default' },
        immutable: true,
        data: { a: '1' },
      },
    };
    const cmChanged = edited(cm, (o) => ((o.data as any).a = '2'));
    const result = plan({ head: [pinned, cmChanged], live: [liveSvc, liveOf(cm)] });
    expect(codes(result)).toEqual([
      'immutable ConfigMap/default/cfg /data/a',
      'immutable Service/default/cartservice /spec/clusterIP',
    ]);
  });
});

describe('what a snapshot proves (the diff asks the same question)', () => {
  const cart = byName(head, 'Deployment', 'cartservice');
  const endpoints: DesiredObject = {
    ...cart,
    key: { group: '', kind: 'Endpoints', namespace: 'default', name: 'legacy-db' },
    object: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'legacy-db', namespace: 'default' },
      subsets: [{ addresses: [{ ip: '10.0.0.5' }] }],
    },
  };
  const clusterRole: DesiredObject = {
    ...cart,
    key: { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', namespace: '', name: 'reader' },
    object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } },
  };
  const at = '2026-12-02T11:55:00Z';

  it('an incomplete snapshot that names no type prunes nothing and creates nothing', () => {
    const withoutCart = head.filter((d) => d.key.name !== 'cartservice');
    const withoutAds = applied().filter((o) => o.metadata.name !== 'adservice');
    const snapshot = { capturedAt: at, complete: false, errors: [] };
    const result = plan({ head: withoutCart, base: head, live: withoutAds, snapshot });
    expect(result.prune).toEqual([]);
    expect(result.create).toEqual([]);
    expect(codes(result)).toEqual(['partial-snapshot -']);
  });

  it.each([
    ['by its plural', { resource: 'v1/endpoints', reason: 'Forbidden' }],
    ['by the group and kind recorded', { resource: 'v1/endpoints', group: '', kind: 'Endpoints', reason: 'x' }],
  ])('a type the snapshot could not list (Endpoints, named %s) is not created', (_how, error) => {
    const snapshot = { capturedAt: at, complete: false, errors: [error] };
    const result = plan({ head: [...head, endpoints], live: applied(), snapshot });
    expect(result.create).toEqual([]);
    const warning = result.warnings.find((w) => w.code === 'partial-snapshot');
    expect(warning?.message).toContain('so 1 object this pull request changes is not shown as created or pruned');
    expect(warning?.objects?.map(displayKey)).toEqual(['Endpoints/default/legacy-db']);
  });

  it('a snapshot of some namespaces creates nothing outside them, nor any cluster-scoped object', () => {
    const elsewhere = edited(byName(head, 'Service', 'adservice'), (o) => (o.metadata.namespace = 'web'));
    const snapshot = { capturedAt: at, complete: true, errors: [], namespaces: ['default'] };
    const result = plan({ head: [...head, elsewhere, clusterRole], live: applied(), snapshot });
    expect(result.create).toEqual([]);
    const warning = result.warnings.find((w) => w.code === 'partial-snapshot');
    expect(warning?.message).toMatch(
      /^The snapshot lists only the namespaces default \(and no cluster-scoped type but/,
    );
    expect(warning?.objects?.map(displayKey)).toEqual(['Service/web/adservice', 'ClusterRole/reader']);
  });

  it('a scoped snapshot warns only when the pull request changes or drops an object outside it', () => {
    const clusterWide = [...head, clusterRole];
    const snapshot = { capturedAt: at, complete: true, errors: [], namespaces: ['default'] };
    // What a namespace-scoped agent never lists, left as it was: every plan of that cluster would warn.
    const untouched = plan({ head: clusterWide, base: clusterWide, live: applied(), snapshot });
    expect(codes(untouched)).not.toContain('partial-snapshot -');
    const widened = edited(clusterRole, (o) => ((o as any).rules = [{ verbs: ['get'], resources: ['pods'] }]));
    const changed = plan({ head: [...head, widened], base: clusterWide, live: applied(), snapshot });
    expect(changed.warnings.find((w) => w.code === 'partial-snapshot')?.objects?.map(displayKey)).toEqual([
      'ClusterRole/reader',
    ]);
    const dropped = plan({ head, base: clusterWide, live: applied(), snapshot });
    const warning = dropped.warnings.find((w) => w.code === 'partial-snapshot');
    expect(warning?.message).toContain('so 1 object this pull request changes is not shown as created or pruned');
    expect(warning?.objects?.map(displayKey)).toEqual(['ClusterRole/reader']);
  });

  it('a type the snapshot could not list is no warning when the pull request touches nothing of it', () => {
    const snapshot = { capturedAt: at, complete: false, errors: [{ resource: 'v1/endpoints', reason: 'Forbidden' }] };
    const withEndpoints = [...head, endpoints];
    const changedCart = edited(cart, (o) => ((o.spec as any).replicas = 3));
    const next = withEndpoints.map((d) => (d === cart ? changedCart : d));
    const result = plan({ head: next, base: withEndpoints, live: applied(), snapshot });
    expect(codes(result)).not.toContain('partial-snapshot -');
  });

  it('a type the agent leaves out (Endpoints, by default) is not created, and the warning says how to list it', () => {
    const excluded = [{ resource: 'v1/endpoints', group: '', kind: 'Endpoints' }];
    const snapshot = { capturedAt: at, complete: true, errors: [], excluded };
    const result = plan({ head: [...head, endpoints], live: applied(), snapshot });
    expect(result.create).toEqual([]);
    expect(result.warnings.find((w) => w.code === 'partial-snapshot')?.message).toBe(
      "The snapshot lists no v1/endpoints (left out by the agent's DRIFTBACK_INCLUDE / DRIFTBACK_EXCLUDE), " +
        'so 1 object this pull request changes is not shown as created or pruned. ' +
        "Name the types in the agent's DRIFTBACK_INCLUDE to have them listed.",
    );
  });

  it('compares StatefulSet volumeClaimTemplates as one value, as server-side apply does', () => {
    const sts = edited(cart, (o) => {
      o.kind = 'StatefulSet';
      const spec = { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } };
      (o.spec as any).volumeClaimTemplates = [{ metadata: { name: 'data' }, spec }];
    });
    const live = liveOf(sts);
    live.metadata.managedFields![0].fieldsV1 = { 'f:spec': { 'f:volumeClaimTemplates': {} } };
    const dropped = edited(sts, (o) => delete (o.spec as any).volumeClaimTemplates[0].spec.storageClassName);
    const result = plan({ head: [dropped], base: [sts], live: [live] });
    expect(result.update[0]?.changes).toMatchObject([
      {
        path: '/spec/volumeClaimTemplates',
        segments: ['spec', 'volumeClaimTemplates'],
        op: 'replace',
        manager: 'kustomize-controller',
      },
    ]);
    expect(codes(result)).toEqual(['immutable StatefulSet/default/cartservice /spec/volumeClaimTemplates']);
  });
});

describe('planChanges on Argo CD’s guestbook kustomization', () => {
  const render = (files: Map<string, string>) => renderManifests(files, '', { defaultNamespace: 'guestbook' }).objects;
  const upstream = readFixtureTree('manifests/argo-cd/test/e2e/testdata/guestbook');
  const tracking = (d: DesiredObject) => ({
    annotations: {
      'argocd.argoproj.io/tracking-id': `guestbook:${d.key.group}/${d.key.kind}:${d.key.namespace}/${d.key.name}`,
    },
  });

  it('prunes the Service head stops listing, found by the application’s tracking id', () => {
    const base = render(upstream);
    const files = new Map(upstream);
    files.set('kustomization.yaml', files.get('kustomization.yaml')!.replace(/^.*guestbook-ui-svc\.yaml\n/m, ''));
    const head = render(files);
    const result = plan({ head, live: base.map((d) => liveOf(d, tracking(d))) });
    expect(result.prune.map((e) => displayKey(e.id))).toEqual(['Service/guestbook/guestbook-ui']);
    expect(result.unchanged).toBe(head.length);
  });

  it('points an immutable selector change at its line in the resource file', () => {
    const files = new Map(upstream);
    files.set(
      'guestbook-ui-deployment.yaml',
      files.get('guestbook-ui-deployment.yaml')!.replace(/app: guestbook-ui\n/, 'app: guestbook\n'),
    );
    const result = plan({ head: render(files), live: render(upstream).map((d) => liveOf(d, tracking(d))) });
    const warning = result.warnings.find((w) => w.code === 'immutable')!;
    expect(warning).toMatchObject({ file: 'guestbook-ui-deployment.yaml', path: '/spec/selector/matchLabels/app' });
    const lines = files.get('guestbook-ui-deployment.yaml')!.split('\n');
    expect(lines[warning.line! - 1]).toContain('app: guestbook');
  });
});

describe('not-reconciling', () => {
  const kustomization = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'apps', namespace: 'flux-system' },
    spec,
    status,
  });
  const ready = (status: 'True' | 'False', at: string, message = '') => ({
    conditions: [{ type: 'Ready', status, lastTransitionTime: at, message }],
  });
  it.each([
    [
      'failing',
      kustomization(
        { path: './kubernetes-manifests' },
        ready('False', '2026-12-02T09:00:00Z', 'kustomize build failed'),
      ),
      /has been failing since 2026-12-02 09:00 UTC: kustomize build failed/,
    ],
    [
      'behind for longer than staleAfter',
      kustomization(
        { path: 'kubernetes-manifests/' },
        {
          ...ready('True', '2026-12-02T10:00:00Z'),
          lastAppliedRevision: 'main@sha1:aaa',
          lastAttemptedRevision: 'main@sha1:bbb',
        },
      ),
      /last applied main@sha1:aaa but main@sha1:bbb has been waiting since/,
    ],
    [
      'suspended, for another path',
      kustomization({ path: './infrastructure', suspend: true }, ready('True', '2026-12-01T00:00:00Z')),
      undefined,
    ],
    [
      'healthy and current',
      kustomization(
        { path: './kubernetes-manifests' },
        {
          ...ready('True', '2026-12-02T11:59:00Z'),
          lastAppliedRevision: 'main@sha1:bbb',
          lastAttemptedRevision: 'main@sha1:bbb',
        },
      ),
      undefined,
    ],
  ])('%s', (_name, reconciler, message) => {
    const result = plan({ head, live: [...applied(), reconciler] });
    const warnings = result.warnings.filter((w) => w.code === 'not-reconciling');
    if (!message) expect(warnings).toEqual([]);
    else expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(message)]);
  });
});

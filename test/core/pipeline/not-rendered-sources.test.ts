// A source driftback could not render proves nothing about its objects: what its inventory or stamps place
// under it is neither a prune, nor missing, nor extra, and the plan says which source was not rendered and why.
// The Application is Argo CD's documented Helm example (argo-cd docs/user-guide/helm.md: chart sealed-secrets
// from its Helm repository, destination namespace kubeseal); its inventory (`status.resources`) and the tracking
// annotation on its objects follow argo-cd pkg/apis/application/v1alpha1/types.go and
// util/argo/resource_tracking.go (`<app>:<group>/<kind>:<namespace>/<name>`).
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import { evaluateDrift, keepNotRendered, planCluster, renderCluster } from '../../../src/core/pipeline/index.js';
import { displayKey, type KubeObject, type NotRenderedSource, type Plan } from '../../../src/core/model/index.js';

const application = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name: 'sealed-secrets', namespace: 'argocd' },
  spec: {
    project: 'default',
    source: {
      chart: 'sealed-secrets',
      repoURL: 'https://bitnami-labs.github.io/sealed-secrets',
      targetRevision: '1.16.1',
      helm: { releaseName: 'sealed-secrets' },
    },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'kubeseal' },
    syncPolicy: { automated: { prune: true, selfHeal: true } },
  },
};

const TIME = '2026-12-01T09:10:29Z';

function chartObject(apiVersion: string, kind: string, group: string): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name: 'sealed-secrets',
      namespace: 'kubeseal',
      annotations: { 'argocd.argoproj.io/tracking-id': `sealed-secrets:${group}/${kind}:kubeseal/sealed-secrets` },
      managedFields: [
        {
          manager: 'argocd-controller',
          operation: 'Apply',
          apiVersion,
          time: TIME,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:argocd.argoproj.io/tracking-id': {} } } },
        },
      ],
    },
    spec: {},
  };
}

const liveApplication: KubeObject = {
  ...application,
  status: {
    sync: { status: 'Synced', revision: '1.16.1' },
    resources: [
      { version: 'v1', kind: 'Service', namespace: 'kubeseal', name: 'sealed-secrets', status: 'Synced' },
      {
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        namespace: 'kubeseal',
        name: 'sealed-secrets',
        status: 'Synced',
      },
    ],
    operationState: { phase: 'Succeeded', startedAt: '2026-12-01T09:10:08Z', finishedAt: '2026-12-01T09:10:33Z' },
  },
} as KubeObject;

const live = [liveApplication, chartObject('v1', 'Service', ''), chartObject('apps/v1', 'Deployment', 'apps')];
const files = new Map([['argocd/sealed-secrets.yaml', stringify(application)]]);
const parsed = parseConfig('clusters:\n  - name: prod\n    path: argocd\n    controller: argocd\n');
if (!parsed.ok) throw new Error('config');
const config = parsed.config;
const cluster = config.clusters![0]!;
const snapshot = {
  items: live,
  capturedAt: '2026-12-01T12:05:00Z',
  scope: { namespaces: ['argocd', 'kubeseal'], complete: true, errors: [] },
};

describe('a Helm chart source that is not rendered', () => {
  it('prunes none of its objects, and the plan says which source was not rendered and why', () => {
    const head = renderCluster(files, cluster, { live: snapshot });
    expect(head.notRendered).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'Application/argocd/sealed-secrets', namespace: 'kubeseal' }),
      ]),
    );
    const plan = planCluster({
      config,
      cluster,
      head: head.objects,
      headFiles: files,
      snapshot,
      now: '2026-12-01T12:06:00Z',
      notRendered: head.notRendered,
      sources: head,
    });
    expect(plan.prune).toEqual([]);
    expect([...plan.create, ...plan.update].map((entry) => displayKey(entry.id))).toEqual([]);
    const warning = plan.warnings.find(
      (w) => w.code === 'not-rendered' && w.message.startsWith('Application/argocd/sealed-secrets:'),
    );
    // Why depends on the machine (no helm binary, no network to fetch the chart): the source and its field are named.
    expect(warning?.message).toMatch(
      /^Application\/argocd\/sealed-secrets: argocd\/sealed-secrets\.yaml \(spec\.source\.helm\): not rendered: ./,
    );
  });

  it('keeps no warning that data goes with an object it keeps (a CustomResourceDefinition of the chart)', () => {
    const crd = {
      group: 'apiextensions.k8s.io',
      kind: 'CustomResourceDefinition',
      namespace: '',
      name: 'widgets.example.com',
    };
    const plan: Plan = {
      create: [],
      update: [],
      prune: [{ id: crd, action: 'prune', changes: [], conflicts: [] }],
      kept: [],
      unchanged: 0,
      warnings: [{ code: 'prune-protected', id: crd, message: 'It will be deleted: its data goes with it.' }],
    };
    const notRendered = [
      { source: 'HelmRelease/shop/webapp', file: 'clusters/prod/webapp.yaml', line: 1, reason: 'file too large' },
    ];
    const kept = keepNotRendered(plan, notRendered satisfies NotRenderedSource[]);
    expect(kept.prune).toEqual([]);
    expect(kept.kept.map((entry) => displayKey(entry.id))).toEqual(['CustomResourceDefinition/widgets.example.com']);
    expect(kept.warnings.map((w) => w.code)).toEqual(['not-rendered']);
  });

  it('claims its objects wherever they live: an inventory outside the destination namespace', () => {
    // A chart may put objects in another namespace (a ServiceMonitor in monitoring): the inventory says whose.
    const moved = live.map((o) =>
      o.kind === 'Service' ? { ...o, metadata: { ...o.metadata, namespace: 'monitoring' } } : o,
    );
    const app = moved[0]!;
    const resources = (app.status as { resources: { kind: string; namespace: string }[] }).resources;
    const status = {
      ...(app.status as object),
      resources: resources.map((r) => (r.kind === 'Service' ? { ...r, namespace: 'monitoring' } : r)),
    };
    const items = [{ ...app, status }, ...moved.slice(1)];
    const inMonitoring = {
      ...snapshot,
      items,
      scope: { ...snapshot.scope, namespaces: ['argocd', 'kubeseal', 'monitoring'] },
    };
    const head = renderCluster(files, cluster, { live: inMonitoring });
    const plan = planCluster({
      config,
      cluster,
      head: head.objects,
      headFiles: files,
      snapshot: inMonitoring,
      now: '2026-12-01T12:06:00Z',
      notRendered: head.notRendered,
      sources: head,
    });
    expect(plan.prune).toEqual([]);
  });

  it('the diff reports none of its objects as missing or extra', () => {
    const evaluation = evaluateDrift({
      snapshot,
      config,
      cluster,
      files,
      history: [],
      minSnapshots: 1,
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
    const claimed = evaluation.diff.resources.filter(
      (r) => r.key.name === 'sealed-secrets' && r.key.kind !== 'Application',
    );
    expect(claimed).toEqual([]);
  });
});

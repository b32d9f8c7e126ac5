// Who owns a live object: one row per owner class, with the evidence each is told by.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeOwner, indexHelm, ownerOf, ownershipContextOf } from '../../../src/core/ownership/index.js';
import type { KubeObject, ManagedFieldsEntry, OwnerClass } from '../../../src/core/model/index.js';
import { configSchema } from '../../../src/core/config/index.js';
import { REPO_ROOT } from '../../support/fixtures.js';

const config = configSchema.parse({});
const entry = (manager: string, operation = 'Update', time = '2026-12-01T10:00:00Z'): ManagedFieldsEntry => ({
  manager,
  operation,
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': {} },
});
const object = (
  kind: string,
  name: string,
  namespace: string | undefined,
  meta: Record<string, unknown> = {},
  apiVersion = 'v1',
): KubeObject => ({ apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}), ...meta } });

const rows: Array<[string, KubeObject, OwnerClass, string]> = [
  [
    'Flux stamps name the source',
    object('ConfigMap', 'settings', 'shop', {
      labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
      managedFields: [entry('kustomize-controller', 'Apply')],
    }),
    'source',
    'managed by source Kustomization/flux-system/apps',
  ],
  [
    'Argo CD tracking annotation names the source',
    object('ConfigMap', 'settings', 'shop', {
      annotations: { 'argocd.argoproj.io/tracking-id': 'guestbook:/ConfigMap:shop/settings' },
    }),
    'source',
    'managed by source Application/argocd/guestbook',
  ],
  [
    'Helm labels and annotations',
    object('Service', 'podinfo', 'podinfo', {
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { 'meta.helm.sh/release-name': 'podinfo', 'meta.helm.sh/release-namespace': 'podinfo' },
      managedFields: [entry('helm-controller', 'Apply')],
    }),
    'helm',
    'managed by Helm release podinfo/podinfo',
  ],
  [
    'helm-controller labels on a HelmChart',
    object(
      'HelmChart',
      'podinfo-podinfo',
      'podinfo',
      {
        labels: { 'helm.toolkit.fluxcd.io/name': 'podinfo', 'helm.toolkit.fluxcd.io/namespace': 'podinfo' },
      },
      'source.toolkit.fluxcd.io/v1',
    ),
    'helm',
    'managed by Helm release podinfo/podinfo',
  ],
  [
    'a Helm release Secret',
    {
      ...object('Secret', 'sh.helm.release.v1.eg.v1', 'envoy-gateway-system', {
        labels: { owner: 'helm', name: 'eg', status: 'deployed', version: '1' },
      }),
      type: 'helm.sh/release.v1',
    },
    'helm',
    'managed by Helm release envoy-gateway-system/eg',
  ],
  [
    'a non-controller ownerReference',
    object(
      'Deployment',
      'envoy-shop',
      'envoy-gateway-system',
      {
        labels: { 'app.kubernetes.io/managed-by': 'envoy-gateway' },
        ownerReferences: [{ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', name: 'eg' }],
        managedFields: [entry('envoy-gateway', 'Apply')],
      },
      'apps/v1',
    ),
    'operator',
    'created by operator envoy-gateway',
  ],
  [
    'a creating manager that is not a person',
    object('ConfigMap', 'ca', 'shop', {
      managedFields: [entry('cert-manager-cainjector')],
    }),
    'operator',
    'created by operator cert-manager-cainjector',
  ],
  [
    'the flux CLI (bootstrap)',
    object('Secret', 'flux-system', 'flux-system', { managedFields: [entry('flux')] }),
    'operator',
    'created by operator Flux (bootstrap)',
  ],
  [
    'kube-root-ca.crt',
    object('ConfigMap', 'kube-root-ca.crt', 'shop', { managedFields: [entry('kube-controller-manager')] }),
    'cluster',
    'made by the cluster (kube-controller-manager)',
  ],
  [
    'the default ServiceAccount (no managedFields)',
    object('ServiceAccount', 'default', 'shop'),
    'cluster',
    'made by the cluster (kube-controller-manager)',
  ],
  [
    'anything in kube-system, even by kubectl',
    object(
      'DaemonSet',
      'kindnet',
      'kube-system',
      {
        managedFields: [entry('kubectl-create')],
      },
      'apps/v1',
    ),
    'cluster',
    'made by the cluster (kube-system)',
  ],
  [
    'bootstrap RBAC',
    object(
      'ClusterRole',
      'admin',
      undefined,
      {
        labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
        managedFields: [entry('kube-apiserver')],
      },
      'rbac.authorization.k8s.io/v1',
    ),
    'cluster',
    'made by the cluster (kube-apiserver)',
  ],
  [
    'API priority and fairness',
    object(
      'FlowSchema',
      'probes',
      undefined,
      {
        annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' },
        managedFields: [entry('api-priority-and-fairness-config-producer-v1')],
      },
      'flowcontrol.apiserver.k8s.io/v1',
    ),
    'cluster',
    'made by the cluster (API priority and fairness)',
  ],
  [
    'kubeadm',
    object(
      'ClusterRoleBinding',
      'kubeadm:get-nodes',
      undefined,
      { managedFields: [entry('kubeadm')] },
      'rbac.authorization.k8s.io/v1',
    ),
    'cluster',
    'made by the cluster (kubeadm)',
  ],
  [
    "kind's storage, applied with kubectl",
    object(
      'StorageClass',
      'standard',
      undefined,
      {
        managedFields: [entry('kubectl-client-side-apply')],
      },
      'storage.k8s.io/v1',
    ),
    'cluster',
    'made by the cluster (kind)',
  ],
  [
    'the agent, by its labels',
    object(
      'ClusterRole',
      'driftback-agent',
      undefined,
      {
        labels: { 'app.kubernetes.io/part-of': 'driftback' },
        managedFields: [entry('kubectl-client-side-apply')],
      },
      'rbac.authorization.k8s.io/v1',
    ),
    'agent',
    'the driftback agent',
  ],
  [
    'the agent, by its namespace',
    object('Secret', 'driftback-token', 'driftback', { managedFields: [entry('kubectl-create')] }),
    'agent',
    'the driftback agent',
  ],
  [
    'a person',
    object('ConfigMap', 'feature-flags', 'shop', { managedFields: [entry('kubectl-create')] }),
    'person',
    'made by a person (kubectl-create)',
  ],
  [
    'a person at a dashboard',
    object('ConfigMap', 'flags', 'shop', { managedFields: [entry('k9s')] }),
    'person',
    'made by a person (k9s)',
  ],
];

describe('ownerOf', () => {
  const context = { config, helm: indexHelm([]) };
  it.each(rows)('%s', (_name, live, expectedClass, described) => {
    const owner = ownerOf(live, context);
    expect(owner.class).toBe(expectedClass);
    expect(describeOwner(owner)).toBe(described);
  });

  it('a source the caller knows wins over every other sign', () => {
    const live = object('ConfigMap', 'x', 'kube-system', { managedFields: [entry('kubectl-create')] });
    const owner = ownerOf(live, { config, sourceOf: () => 'flux-system/infra' });
    expect(describeOwner(owner)).toBe('managed by source flux-system/infra');
  });

  it('a namespace `helm --create-namespace` made belongs to the release installed into it', () => {
    const ns = object('Namespace', 'envoy-gateway-system', undefined, { managedFields: [entry('helm', 'Apply')] });
    const chart = object('ServiceAccount', 'envoy-gateway', 'envoy-gateway-system', {
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { 'meta.helm.sh/release-name': 'eg', 'meta.helm.sh/release-namespace': 'envoy-gateway-system' },
    });
    const owner = ownerOf(ns, ownershipContextOf([ns, chart], config));
    expect(describeOwner(owner)).toBe('managed by Helm release envoy-gateway-system/eg');
  });

  it("a HelmRelease's inventory names chart output that carries no stamps", () => {
    const release = {
      ...object('HelmRelease', 'podinfo', 'podinfo', {}, 'helm.toolkit.fluxcd.io/v2'),
      status: { inventory: { entries: [{ id: 'podinfo_podinfo-redis__ConfigMap', v: 'v1' }] } },
    };
    const managedFields = [entry('helm-controller', 'Apply')];
    const redis = object('ConfigMap', 'podinfo-redis', 'podinfo', { managedFields });
    const owner = ownerOf(redis, ownershipContextOf([release, redis], config));
    expect(describeOwner(owner)).toBe('managed by Helm release podinfo/podinfo');
  });
});

describe('a fresh kind cluster with Flux and the agent', () => {
  const file = join(REPO_ROOT, 'test/fixtures/controllers/kind-fresh/live/fresh.json');
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { items: KubeObject[] };
  const context = ownershipContextOf(snapshot.items, config);
  const classes = snapshot.items.map((item) => ownerOf(item, context).class);

  it('holds not one object a person made', () => {
    expect(classes.filter((c) => c === 'person')).toEqual([]);
  });

  it("names the agent's seven objects and the cluster's own", () => {
    const agent = snapshot.items.filter((_, i) => classes[i] === 'agent').map((o) => `${o.kind}/${o.metadata.name}`);
    expect(agent.sort()).toEqual([
      'ClusterRole/driftback-agent',
      'ClusterRoleBinding/driftback-agent',
      'ConfigMap/driftback-agent-tmhgt9gk5b',
      'CronJob/driftback-agent',
      'Namespace/driftback',
      'NetworkPolicy/driftback-agent',
      'ServiceAccount/driftback-agent',
    ]);
    const kind = snapshot.items
      .filter((o) => ownerOf(o, context).name === 'kind')
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(kind).toContain('StorageClass/standard');
    expect(kind).toContain('Deployment/local-path-provisioner');
  });
});

describe('the agent installed in another namespace (docs/agent.md "In another namespace")', () => {
  const file = join(REPO_ROOT, 'test/fixtures/controllers/kind-fresh/live/fresh.json');
  const moved = (JSON.parse(readFileSync(file, 'utf8')) as { items: KubeObject[] }).items.map((item) => {
    const text = JSON.stringify(item).replaceAll('"namespace":"driftback"', '"namespace":"platform-tools"');
    const object = JSON.parse(text) as KubeObject;
    if (object.kind === 'Namespace' && object.metadata.name === 'driftback') object.metadata.name = 'platform-tools';
    return object;
  });
  const created = (name: string): ManagedFieldsEntry[] => [
    {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-12-01T09:30:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { [`f:${name}`]: {} }, 'f:type': {} },
    },
  ];
  // `kubectl -n platform-tools create secret generic driftback-token --from-literal=token=…` (README), and an
  // object of another tool sharing the namespace.
  const token = object('Secret', 'driftback-token', 'platform-tools', { managedFields: created('token') });
  const other = object('ConfigMap', 'backup-settings', 'platform-tools', { managedFields: created('schedule') });
  const items = [...moved, token, other];
  const context = ownershipContextOf(items, config);
  const agent = items.filter((o) => ownerOf(o, context).class === 'agent').map((o) => `${o.kind}/${o.metadata.name}`);

  it('recognises its labelled objects and the token Secret its CronJob reads', () => {
    expect(agent.sort()).toEqual([
      'ClusterRole/driftback-agent',
      'ClusterRoleBinding/driftback-agent',
      'ConfigMap/driftback-agent-tmhgt9gk5b',
      'CronJob/driftback-agent',
      'Namespace/platform-tools',
      'NetworkPolicy/driftback-agent',
      'Secret/driftback-token',
      'ServiceAccount/driftback-agent',
    ]);
  });

  it("leaves another tool's object in the same namespace to its maker", () => {
    expect(ownerOf(other, context).class).toBe('person');
  });
});

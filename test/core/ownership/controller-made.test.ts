// A person's change to an object a controller made is reported — manager, operation, time, field — and
// never codified: a claim a StatefulSet made from its volumeClaimTemplates (resized with kubectl patch,
// annotated by hand) and an operator's Service edited with kubectl. Cluster-scoped objects are judged
// whatever the namespace scope: a ClusterRoleBinding made with kubectl create is extra.
//
// Shapes: the StatefulSet controller names claims `<template>-<statefulset>-<ordinal>` and labels them with
// the selector's labels, as kube-controller-manager (kubernetes pkg/controller/statefulset/stateful_set_utils.go);
// the managedFields entries are the API server's (an Update's writer owns what it changed, status through
// its subresource); the Service is Envoy Gateway's data plane from test/fixtures/controllers/hand-made.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/index.js';
import { diffResources } from '../../../src/core/diff/index.js';
import { displayKey, type KubeObject } from '../../../src/core/model/index.js';
import { diffToJson, renderDiffText } from '../../../src/core/report/index.js';
import { evaluateScenario, scenarioSnapshot } from '../../support/controllers.js';

const CREATED = '2026-12-01T09:20:00Z';

const statefulSet: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'shop', creationTimestamp: '2026-12-01T09:19:58Z' },
  spec: {
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'postgres', image: 'postgres:17' }] },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
      },
    ],
  },
};

/** `data-db-0` as the API server holds it after `kubectl patch` (20Gi) and `kubectl annotate`. */
const claim: KubeObject = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: {
    name: 'data-db-0',
    namespace: 'shop',
    creationTimestamp: CREATED,
    labels: { app: 'db' },
    annotations: {
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'backup.acme.io/policy': 'hourly',
    },
    finalizers: ['kubernetes.io/pvc-protection'],
    managedFields: [
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: CREATED,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': {
            'f:annotations': {
              '.': {},
              'f:pv.kubernetes.io/bind-completed': {},
              'f:pv.kubernetes.io/bound-by-controller': {},
              'f:volume.kubernetes.io/storage-provisioner': {},
            },
            'f:labels': { '.': {}, 'f:app': {} },
          },
          'f:spec': {
            'f:accessModes': {},
            'f:resources': { 'f:requests': { '.': {} } },
            'f:volumeMode': {},
            'f:volumeName': {},
          },
        },
      },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-01T11:02:10Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:accessModes': {}, 'f:capacity': { '.': {}, 'f:storage': {} }, 'f:phase': {} } },
        subresource: 'status',
      },
      {
        manager: 'kubectl-patch',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-01T11:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:resources': { 'f:requests': { 'f:storage': {} } } } },
      },
      {
        manager: 'kubectl-annotate',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-01T11:05:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:backup.acme.io/policy': {} } } },
      },
    ],
  },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '20Gi' } },
    storageClassName: 'standard',
    volumeMode: 'Filesystem',
    volumeName: 'pvc-5d0c2d1e-3c41-4a3b-9d0e-2b8e8d1f6a10',
  },
  status: { accessModes: ['ReadWriteOnce'], capacity: { storage: '20Gi' }, phase: 'Bound' },
};

/** Envoy Gateway's data plane Service, then `kubectl edit`: an annotation and externalTrafficPolicy Cluster. */
function envoyService(): KubeObject {
  const snapshot = scenarioSnapshot('hand-made', 'hand-made');
  const service = structuredClone(
    snapshot.items.find((o) => o.kind === 'Service' && o.metadata?.name === 'envoy-shop-shop-6b1c7a2e')!,
  );
  service.metadata!.annotations = { 'service.beta.kubernetes.io/aws-load-balancer-internal': 'true' };
  (service.spec as Record<string, unknown>).externalTrafficPolicy = 'Cluster';
  const applied = service.metadata!.managedFields![0]!.fieldsV1 as { 'f:spec': Record<string, unknown> };
  delete applied['f:spec']['f:externalTrafficPolicy'];
  service.metadata!.managedFields!.push({
    manager: 'kubectl-edit',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-12-01T12:30:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:annotations': { '.': {}, 'f:service.beta.kubernetes.io/aws-load-balancer-internal': {} } },
      'f:spec': { 'f:externalTrafficPolicy': {} },
    },
  });
  return service;
}

describe("a person's change to what a controller made", () => {
  const result = diffResources([], [statefulSet, claim, envoyService()], { config: defaultConfig() });

  it('is reported on the claim with manager, operation, time and field, and the template that cannot carry it', () => {
    const owned = result.owned!.find((o) => o.key.name === 'data-db-0')!;
    expect(owned.owner).toMatchObject({ class: 'cluster', manager: 'kube-controller-manager' });
    expect(owned.changes!.map((c) => [c.path, c.manager, c.operation, c.time, c.live])).toEqual([
      ['/spec/resources/requests/storage', 'kubectl-patch', 'Update', '2026-12-01T11:00:00Z', '20Gi'],
      ['/metadata/annotations/backup.acme.io~1policy', 'kubectl-annotate', 'Update', '2026-12-01T11:05:00Z', 'hourly'],
    ]);
    const reason = owned.changes![0]!.reported!.reason;
    expect(reason).toContain('made by StatefulSet shop/db from its volumeClaimTemplates[data]');
    expect(reason).toContain('the template cannot carry this change, so it is not written into Git');
  });

  it("is reported on an operator's Service edited with kubectl", () => {
    const owned = result.owned!.find((o) => o.key.kind === 'Service')!;
    expect(owned.owner).toMatchObject({ class: 'operator', name: 'envoy-gateway' });
    expect(owned.changes!.map((c) => `${c.path} ${c.manager} ${c.time}`)).toEqual([
      '/metadata/annotations/service.beta.kubernetes.io~1aws-load-balancer-internal kubectl-edit 2026-12-01T12:30:00Z',
      '/spec/externalTrafficPolicy kubectl-edit 2026-12-01T12:30:00Z',
    ]);
    expect(owned.changes![0]!.reported!.reason).toContain('created by operator envoy-gateway, not declared in Git');
  });

  it('shows in diff JSON (reported[] with path) and text, and is never extra or codified', () => {
    const json = diffToJson(result);
    expect(json.reported).toContainEqual(
      expect.objectContaining({
        id: { group: '', kind: 'PersistentVolumeClaim', namespace: 'shop', name: 'data-db-0' },
        path: '/spec/resources/requests/storage',
        manager: 'kubectl-patch',
        time: '2026-12-01T11:00:00Z',
        cause: 'human',
      }),
    );
    expect(result.resources.filter((r) => r.status === 'extra').map((r) => displayKey(r.key))).toEqual([
      'StatefulSet/shop/db',
    ]);
    const text = renderDiffText(result);
    expect(text).toContain(
      'reported, not codified: PersistentVolumeClaim/shop/data-db-0 spec.resources.requests.storage (kubectl-patch at 2026-12-01 11:00 UTC, human): made by StatefulSet shop/db',
    );
  });

  it('a controller-made object nobody changed reports nothing', () => {
    const untouched = structuredClone(claim);
    untouched.metadata!.managedFields = untouched.metadata!.managedFields!.slice(0, 2);
    const owned = diffResources([], [statefulSet, untouched], { config: defaultConfig() }).owned!;
    expect(owned.find((o) => o.key.name === 'data-db-0')?.changes).toBeUndefined();
  });
});

describe('cluster-scoped objects are judged under a namespace scope', () => {
  it('a ClusterRoleBinding made with kubectl create is extra, with its manager (tampering, scope derived from the sources)', () => {
    const evaluation = evaluateScenario('tampering', scenarioSnapshot('tampering', 'tampering'));
    expect(evaluation.namespaces).toEqual(['flux-system', 'shop']);
    const binding = evaluation.diff.resources.find((r) => r.key.kind === 'ClusterRoleBinding');
    expect(binding).toMatchObject({
      status: 'extra',
      createdBy: { manager: 'kubectl-create', cause: 'human', time: '2026-12-01T12:38:00Z' },
    });
  });

  it("the cluster's own and the controllers' cluster-scoped objects are not drift (kind-fresh, scope derived from the sources)", () => {
    const snapshot = scenarioSnapshot('kind-fresh', 'fresh');
    const evaluation = evaluateScenario('kind-fresh', snapshot);
    const clusterScoped = evaluation.diff.resources.filter((r) => r.key.namespace === '' && r.status === 'extra');
    expect(clusterScoped.map((r) => displayKey(r.key))).toEqual([]);
    expect((evaluation.diff.owned ?? []).some((o) => o.key.namespace === '' && o.owner.class === 'cluster')).toBe(true);
  });
});

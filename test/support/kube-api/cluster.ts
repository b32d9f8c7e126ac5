// The objects the stand-in serves in tests: live objects from the shared fixtures (k8s-diff,
// k8s-health) plus the kinds a real cluster also holds and the agent must leave out or redact —
// owned ReplicaSets and Pods, Events, Leases, Endpoints, EndpointSlices, Secrets — and a custom resource.
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../fixtures.js';
import type { KubeObject } from '../../../src/core/model/index.js';

export const FIXTURE_FILES = [
  'k8s-diff/argo-cd-controller/live-deployment.yaml',
  'k8s-diff/gitops-engine/deployment-live.json',
  'k8s-diff/gitops-engine/smd-deploy-live.yaml',
  'k8s-diff/gitops-engine/smd-service-live.yaml',
  'k8s-diff/gitops-engine/ssd-service-live.yaml',
  'k8s-diff/gitops-engine/spinnaker-sa-live.json',
  'k8s-diff/gitops-engine/elasticsearch-live.json',
  'k8s-diff/kubectl-apply/rc-managedfields-lastapplied.yaml',
  'k8s-health/gitops-engine/hpa-v2-healthy.yaml',
  'k8s-health/gitops-engine/job-succeeded.yaml',
  'k8s-health/gitops-engine/pod-crashloop.yaml',
  'k8s-health/gitops-engine/pvc-bound.yaml',
  'k8s-health/gitops-engine/statefulset.yaml',
  'k8s-health/gitops-engine/svc-clusterip.yaml',
  'k8s-health/gitops-engine/svc-loadbalancer.yaml',
];

export function fixtureObjects(): KubeObject[] {
  return FIXTURE_FILES.flatMap((file) =>
    parseAllDocuments(readFixture(...file.split('/')))
      .map((doc) => doc.toJS() as KubeObject)
      .filter((o) => o && o.kind),
  );
}

/** Secret values planted in the cluster; none of them (nor their base64) may appear in a snapshot. */
export const SECRET_VALUES = ['hunter2-db-password', 's3cr3t-api-token-0123456789', 'line one\nline two'];

const owner = (kind: string, name: string) => [
  { apiVersion: 'apps/v1', kind, name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true },
];
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export function syntheticObjects(): KubeObject[] {
  const secretAnnotation = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'checkout' },
    stringData: { password: SECRET_VALUES[0] },
  });
  const out: KubeObject[] = [
    ...['argocd', 'checkout', 'default'].map((name) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    })),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'db',
        namespace: 'checkout',
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': secretAnnotation, team: 'payments' },
        managedFields: [
          {
            manager: 'kubectl-client-side-apply',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2026-11-30T10:00:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { '.': {}, 'f:password': {} } },
          },
        ],
      },
      type: 'Opaque',
      data: { password: b64(SECRET_VALUES[0]), multiline: b64(SECRET_VALUES[2]) },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'api', namespace: 'checkout' },
      type: 'Opaque',
      data: { token: b64(SECRET_VALUES[1]) },
      stringData: { extra: SECRET_VALUES[1] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'api-7c9f', namespace: 'checkout', ownerReferences: owner('Deployment', 'api') },
      spec: { replicas: 2 },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'api-7c9f-x2x', namespace: 'checkout', ownerReferences: owner('ReplicaSet', 'api-7c9f') },
      spec: { containers: [{ name: 'api', image: 'api:1' }] },
    },
    // An owner reference without controller: true (garbage collection only) keeps the object.
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'api-owned-loosely',
        namespace: 'checkout',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'u' }],
      },
      data: { a: '1' },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'api.17a', namespace: 'checkout' },
      reason: 'Scheduled',
      involvedObject: { kind: 'Pod', name: 'api-7c9f-x2x' },
    },
    {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'api.17b', namespace: 'checkout' },
      reason: 'Pulled',
      regarding: { kind: 'Pod', name: 'api-7c9f-x2x' },
      eventTime: '2026-12-02T03:00:00.000000Z',
    },
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'kube-controller-manager', namespace: 'kube-system' },
      spec: { holderIdentity: 'node-1' },
    },
    { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'api', namespace: 'checkout' }, subsets: [] },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'api-abcde',
        namespace: 'checkout',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'api', uid: 'u', controller: true }],
      },
      addressType: 'IPv4',
      endpoints: [],
    },
    {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: {
        name: 'apps',
        namespace: 'flux-system',
        generation: 4,
        managedFields: [
          {
            manager: 'kustomize-controller',
            operation: 'Apply',
            apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:path': {} } },
          },
        ],
      },
      spec: {
        interval: '10m',
        path: './apps/production',
        prune: true,
        sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      },
      status: {
        lastAppliedRevision: 'main@sha1:4f1a5b10',
        conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' }],
      },
    },
  ];
  for (let index = 1; index <= 5; index++) {
    out.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `settings-${index}`, namespace: 'checkout', labels: { app: index % 2 ? 'api' : 'web' } },
      data: { index: String(index) },
    });
  }
  return out;
}

export function clusterObjects(): KubeObject[] {
  return [...fixtureObjects(), ...syntheticObjects()];
}

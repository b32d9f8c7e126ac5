// Server-set metadata: one list, and what each reader keeps of it.
import { describe, expect, it } from 'vitest';
import {
  isControllerOwned,
  isServerSetAnnotation,
  LAST_APPLIED,
  SERVER_SET_METADATA,
  withoutNoise,
  withoutServerMetadata,
} from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const metadata = {
  name: 'api',
  namespace: 'shop',
  uid: 'u-1',
  resourceVersion: '42',
  generation: 3,
  creationTimestamp: '2026-12-01T00:00:00Z',
  selfLink: '/x',
  managedFields: [{ manager: 'kubectl-edit' }],
  deletionTimestamp: '2026-12-02T00:00:00Z',
  deletionGracePeriodSeconds: 30,
  labels: { app: 'api' },
  annotations: { [LAST_APPLIED]: '{}', team: 'shop' },
};
const written = { name: 'api', namespace: 'shop', labels: { app: 'api' }, annotations: { team: 'shop' } };

describe('withoutServerMetadata', () => {
  it('drops every server-set field and the last-applied annotation, and keeps what people write', () => {
    expect(withoutServerMetadata(metadata)).toEqual(written);
  });
  it('keeps the fields a reader names (the agent keeps managedFields and creationTimestamp)', () => {
    const kept = withoutServerMetadata(metadata, ['managedFields', 'creationTimestamp']);
    const fields = ['annotations', 'creationTimestamp', 'labels', 'managedFields', 'name', 'namespace'];
    expect(Object.keys(kept).sort()).toEqual(fields);
  });
  it('drops an annotations map that held only last-applied', () => {
    expect(withoutServerMetadata({ name: 'x', annotations: { [LAST_APPLIED]: '{}' } })).toEqual({ name: 'x' });
  });
  it('does not touch its input', () => {
    const input = structuredClone(metadata);
    withoutServerMetadata(input);
    expect(input).toEqual(metadata);
  });
  it('lists each field once', () => expect(new Set(SERVER_SET_METADATA).size).toBe(SERVER_SET_METADATA.length));
});

it('withoutNoise also leaves out status, identity and controller ownership', () => {
  const owned = { ...metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'y' }] };
  const live: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: owned,
    spec: { replicas: 2 },
    status: { replicas: 2 },
  };
  const { name: _name, namespace: _namespace, ...people } = written;
  expect(withoutNoise(live)).toEqual({ spec: { replicas: 2 }, metadata: people });
});

it("withoutNoise leaves out Helm's stamps: the release annotations and the chart label that changes with each version", () => {
  // What `helm install` of podinfo 6.14.1 leaves on its Service (helm/helm pkg/action/install.go sets the
  // meta.helm.sh annotations; the chart's _helpers.tpl writes helm.sh/chart).
  const live: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'podinfo',
      labels: { 'helm.sh/chart': 'podinfo-6.14.1', 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { 'meta.helm.sh/release-name': 'podinfo', 'meta.helm.sh/release-namespace': 'podinfo' },
    },
  };
  const desired: KubeObject = {
    ...live,
    metadata: {
      name: 'podinfo',
      labels: { 'helm.sh/chart': 'podinfo-6.15.0', 'app.kubernetes.io/managed-by': 'Helm' },
    },
  };
  expect(withoutNoise(live)).toEqual(withoutNoise(desired));
  expect(withoutNoise(live).metadata).toEqual({ labels: {} });
});

it('withoutNoise leaves out the managed-by label Helm adds to an object whose template does not write it, and compares any other value', () => {
  // podinfo's redis ConfigMap template writes only `app`; helm/helm pkg/action/validate.go setMetadataVisitor
  // adds `app.kubernetes.io/managed-by: Helm` and the release annotations at every install and upgrade.
  const config = (labels: Record<string, string>, annotations?: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'podinfo-redis', labels, ...(annotations ? { annotations } : {}) },
    data: { 'redis.conf': 'maxmemory 64mb\n' },
  });
  const desired = config({ app: 'podinfo-redis' });
  const live = config(
    { app: 'podinfo-redis', 'app.kubernetes.io/managed-by': 'Helm' },
    { 'meta.helm.sh/release-name': 'podinfo', 'meta.helm.sh/release-namespace': 'podinfo' },
  );
  expect(withoutNoise(live)).toEqual(withoutNoise(desired));
  expect(withoutNoise(live).metadata).toEqual({ labels: { app: 'podinfo-redis' } });
  const byHand = config({ app: 'podinfo-redis', 'app.kubernetes.io/managed-by': 'kubectl' });
  expect(withoutNoise(byHand)).not.toEqual(withoutNoise(desired));
});

it('withoutNoise leaves out the chart label on Pod, Job and claim templates, keeps their other labels, mutates nothing', () => {
  // The Bitnami common library writes helm.sh/chart on a workload's Pod template and claim templates too.
  const stamped = (chart: string) => ({ 'helm.sh/chart': chart, 'app.kubernetes.io/name': 'mariadb' });
  const statefulSet = (chart: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', labels: stamped(chart) },
    spec: {
      replicas: 1,
      template: { metadata: { labels: stamped(chart) }, spec: { containers: [{ name: 'db' }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data', labels: stamped(chart) }, spec: { resources: {} } }],
    },
  });
  const cronJob = (chart: string): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'backup' },
    spec: {
      schedule: '@daily',
      jobTemplate: {
        metadata: { labels: stamped(chart) },
        spec: { template: { metadata: { labels: stamped(chart) }, spec: { restartPolicy: 'Never' } } },
      },
    },
  });
  const live = statefulSet('mariadb-22.0.0_4e3c5d6a1b2c');
  const before = structuredClone(live);
  expect(withoutNoise(live)).toEqual(withoutNoise(statefulSet('mariadb-22.0.0')));
  expect(live).toEqual(before);
  expect((withoutNoise(live).spec as any).template.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'mariadb' });
  expect(withoutNoise(cronJob('a-1'))).toEqual(withoutNoise(cronJob('a-2')));
  // Any other label of a template is compared.
  const relabelled = statefulSet('mariadb-22.0.0');
  (relabelled.spec as any).template.metadata.labels.team = 'blue';
  expect(withoutNoise(relabelled)).not.toEqual(withoutNoise(statefulSet('mariadb-22.0.0')));
});

it.each([
  ['kubectl.kubernetes.io/restartedAt', true],
  ['deployment.kubernetes.io/revision', true],
  ['autoscaling.alpha.kubernetes.io/conditions', true],
  ['team', false],
  ['argocd.argoproj.io/tracking-id', false],
])('isServerSetAnnotation(%s) → %s', (name, expected) => expect(isServerSetAnnotation(name)).toBe(expected));

it.each([
  [[{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-1', controller: true }], true],
  [[{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }], false],
  [undefined, false],
])('isControllerOwned(%j) → %s', (ownerReferences, expected) => {
  const metadata = { name: 'p', ...(ownerReferences ? { ownerReferences } : {}) };
  const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata };
  expect(isControllerOwned(pod)).toBe(expected);
});

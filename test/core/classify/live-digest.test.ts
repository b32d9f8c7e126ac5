import { describe, expect, it } from 'vitest';
import { liveStateDigest } from '../../../src/core/classify/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const deployment = (replicas: number, resourceVersion: string, ready: number): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'api',
    namespace: 'shop',
    resourceVersion,
    managedFields: [{ manager: 'kubectl', operation: 'Update', time: `2026-12-02T12:0${ready}:00Z` }],
  },
  spec: { replicas, template: { spec: { containers: [{ name: 'api', image: 'registry.example/api:1' }] } } },
  status: { readyReplicas: ready },
});

// The kube-scheduler's leader-election lease, as the API server serves it: renewed every 2 s.
const lease = (renewTime: string): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'kube-scheduler', namespace: 'kube-system', resourceVersion: renewTime },
  spec: { holderIdentity: 'kind-control-plane_1', leaseDurationSeconds: 15, renewTime },
});

describe('liveStateDigest', () => {
  it('is the same for a quiet cluster seen twice: versions, status, managedFields, leases and order aside', () => {
    const first = liveStateDigest([deployment(2, '100', 1), lease('2026-12-02T12:00:01.000000Z')]);
    const again = liveStateDigest([lease('2026-12-02T12:05:03.000000Z'), deployment(2, '187', 2)]);
    expect(again).toBe(first);
  });

  it('differs when a person changes an object', () => {
    const before = liveStateDigest([deployment(2, '100', 2)]);
    expect(liveStateDigest([deployment(5, '101', 2)])).not.toBe(before);
    const added = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'shop' }, data: {} };
    expect(liveStateDigest([deployment(2, '100', 2), added])).not.toBe(before);
  });
});

// managedFields, one reader: who owns a path (exactly, or anywhere below it), who created the object.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/index.js';
import { buildOwnership, creatorOf, latestOwner, listersOf, ownersOf, ownNodeAt } from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const CREATED = '2026-12-01T00:00:00Z';
const SCALED = '2026-12-02T03:00:00Z';
const replicas = (field: string) => ({ [`f:${field}`]: { 'f:replicas': {} } });
const port = { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } };
const container = { 'k:{"name":"api"}': { '.': {}, 'f:image': {}, 'f:ports': port } };
const applied = { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': container } } };
const live: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'api',
    creationTimestamp: '2026-12-01T00:00:00Z',
    managedFields: [
      { manager: 'kustomize-controller', operation: 'Apply', time: CREATED, fieldsV1: { 'f:spec': applied } },
      { manager: 'kubectl-scale', operation: 'Update', subresource: 'scale', time: SCALED, fieldsV1: replicas('spec') },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        subresource: 'status',
        time: '2026-12-02T04:00:00Z',
        fieldsV1: replicas('status'),
      },
    ],
  },
};
const config = defaultConfig();

describe('ownership', () => {
  const root = buildOwnership(live, config);
  it('names every owner of a leaf, and the latest writer', () => {
    const owners = ownersOf(ownNodeAt(root, ['spec', 'replicas']));
    const named = owners.map((o) => `${o.manager}:${o.role}:${o.cause}`);
    expect(named).toEqual(['kustomize-controller:applier:applier', 'kubectl-scale:other:human']);
    expect(latestOwner(owners)?.manager).toBe('kubectl-scale');
  });
  it('finds keyed items by their key, a defaulted protocol included', () => {
    const api = ['spec', 'template', 'spec', 'containers', { key: { name: 'api' } }] as const;
    const http = ownNodeAt(root, [...api, 'ports', { key: { containerPort: 80, protocol: 'TCP' } }]);
    expect(ownersOf(http).map((o) => o.manager)).toEqual(['kustomize-controller']);
  });
  it('tells owning a value from listing fields below it', () => {
    const container = ownNodeAt(root, ['spec', 'template', 'spec', 'containers', { key: { name: 'api' } }]);
    expect(ownersOf(container).map((o) => o.whole)).toEqual([false]);
    const template = ownNodeAt(root, ['spec', 'template']);
    expect(ownersOf(template)).toEqual([]);
    expect(listersOf(template).map((o) => o.manager)).toEqual(['kustomize-controller']);
  });
  it('never reads the status subresource', () => {
    expect(ownNodeAt(root, ['status', 'replicas'])).toBeUndefined();
  });
});

it('the creator is the earliest entry', () => {
  const creator = { manager: 'kustomize-controller', cause: 'applier', time: '2026-12-01T00:00:00Z' };
  expect(creatorOf(live, config)).toEqual(creator);
  expect(creatorOf({ ...live, metadata: { name: 'x' } }, config)).toBeUndefined();
});

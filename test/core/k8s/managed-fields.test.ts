// managedFields, one reader: who owns a path (exactly, or anywhere below it), who created the object.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/index.js';
import { latestOwner, listersOf, ownersOf, ownNodeAt } from '../../../src/core/k8s/index.js';
import { buildOwnership, creatorOf } from '../../../src/core/classify/index.js';
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

describe("an object's own controllers: the managers that write its status or hold its finalizer", () => {
  const entry = (manager: string, fieldsV1: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    manager,
    operation: 'Update',
    time: SCALED,
    fieldsV1,
    ...extra,
  });
  const finalizer = {
    'f:metadata': { 'f:finalizers': { '.': {}, 'v:"finalizer.managedresource.crossplane.io"': {} } },
  };
  const spec = { 'f:spec': { 'f:forProvider': { 'f:region': {} } } };
  const object = (...entries: Array<Record<string, unknown>>): KubeObject => ({
    apiVersion: 'example.com/v1',
    kind: 'Bucket',
    metadata: { name: 'b', managedFields: entries as never },
  });
  const config = defaultConfig();

  it.each([
    [
      'writes the status subresource',
      [entry('provider-x', spec), entry('provider-x', {}, { subresource: 'status' })],
      'controller',
    ],
    ['holds a finalizer', [entry('provider-x', { ...spec, ...finalizer })], 'controller'],
    ['holds a finalizer in another entry', [entry('provider-x', spec), entry('provider-x', finalizer)], 'controller'],
    ['writes spec only: nothing says it is the controller', [entry('provider-x', spec)], 'unknown'],
    [
      'another manager writes the status',
      [entry('provider-x', spec), entry('other', {}, { subresource: 'status' })],
      'unknown',
    ],
    // A person's tool and an applier keep their cause, whatever they write.
    ['a person who adds a finalizer is still a person', [entry('kubectl-edit', { ...spec, ...finalizer })], 'human'],
  ])('a manager that %s → %s', (_name, entries, cause) => {
    const live = object(...entries);
    const [owner] = ownersOf(ownNodeAt(buildOwnership(live, config), ['spec', 'forProvider', 'region']));
    expect(owner?.cause).toBe(cause);
  });

  it('the applier that holds a finalizer stays the applier', () => {
    const live = object({
      manager: 'kustomize-controller',
      operation: 'Apply',
      time: CREATED,
      fieldsV1: { ...spec, ...finalizer },
    });
    const [owner] = ownersOf(ownNodeAt(buildOwnership(live, config), ['spec', 'forProvider', 'region']));
    expect(owner).toEqual(expect.objectContaining({ cause: 'applier', role: 'applier' }));
  });

  it("the creator's cause follows the same evidence", () => {
    const live = object(entry('provider-x', { ...spec, ...finalizer }));
    expect(creatorOf(live, config)).toEqual(expect.objectContaining({ manager: 'provider-x', cause: 'controller' }));
  });
});

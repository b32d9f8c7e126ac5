// Keyed lists of custom resources, read from the CRDs in the snapshot — or, with no CRD in the
// snapshot, from the `k:{…}` keys its managedFields record: a listener added or changed by hand on a
// Gateway is one item, attributed to its manager, not the whole list replaced by "unknown".
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { diffResources } from '../../../src/core/diff/index.js';
import { customKindsOf, customListKeysLookup } from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { REPO_ROOT } from '../../support/fixtures.js';
import { configWith, desiredOf } from '../diff/support.js';

const scenario = join(REPO_ROOT, 'test/fixtures/controllers/hand-made');
const live = (JSON.parse(readFileSync(join(scenario, 'live/hand-made.json'), 'utf8')) as { items: KubeObject[] }).items;
const STAMPS = { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' };

describe("keyed lists from the snapshot's CRDs", () => {
  it('reads list-map keys at their paths, per version', () => {
    const lookup = customListKeysLookup(customKindsOf(live));
    expect(lookup('gateway.networking.k8s.io', 'Gateway', 'v1', '/spec/listeners')).toEqual(['name']);
    expect(lookup('gateway.networking.k8s.io', 'Gateway', 'v1', '/status/conditions')).toEqual(['type']);
    expect(lookup('gateway.networking.k8s.io', 'Gateway', 'v1', '/spec/addresses')).toBeUndefined();
  });

  it('a hand-added listener is one added item by kubectl-edit', () => {
    const text = readFileSync(join(scenario, 'repo/apps/shop/gateway.yaml'), 'utf8');
    const gateway = parseAllDocuments(text)
      .map((d) => d.toJS() as KubeObject)
      .find((o) => o.kind === 'Gateway')!;
    gateway.metadata = { ...gateway.metadata, namespace: 'shop', labels: STAMPS };
    const liveGateway = live.find((o) => o.kind === 'Gateway')!;
    const crds = live.filter((o) => o.kind === 'CustomResourceDefinition');
    const options = { config: configWith(), namespaces: ['shop'] };
    const result = diffResources([desiredOf(gateway, 'shop')], [liveGateway, ...crds], options);
    const [resource] = result.resources.filter((r) => r.key.kind === 'Gateway');
    expect(resource!.changes).toEqual([
      expect.objectContaining({
        path: '/spec/listeners/1',
        op: 'add',
        manager: 'kubectl-edit',
        cause: 'human',
        time: '2026-12-01T12:22:00Z',
        segments: ['spec', 'listeners', { key: { name: 'https' } }],
      }),
    ]);
  });
});

describe('keyed lists from managedFields, when no CRD is at hand', () => {
  const text = readFileSync(join(scenario, 'repo/apps/shop/gateway.yaml'), 'utf8');
  const desired = (): KubeObject => {
    const object = parseAllDocuments(text)
      .map((d) => d.toJS() as KubeObject)
      .find((o) => o.kind === 'Gateway')!;
    return { ...object, metadata: { ...object.metadata, namespace: 'shop', labels: STAMPS } };
  };
  const liveGateway = live.find((o) => o.kind === 'Gateway')!;
  const options = { config: configWith(), namespaces: ['shop'] };

  it('a hand-added listener is still one added item by kubectl-edit', () => {
    const result = diffResources([desiredOf(desired(), 'shop')], [liveGateway], options);
    const [resource] = result.resources.filter((r) => r.key.kind === 'Gateway');
    expect(resource!.changes).toEqual([
      expect.objectContaining({
        op: 'add',
        manager: 'kubectl-edit',
        cause: 'human',
        segments: ['spec', 'listeners', { key: { name: 'https' } }],
      }),
    ]);
  });

  it("a listener's port changed by hand is that one field, with its manager and time", () => {
    // kubectl edit of the http listener's port: the edit's Update takes the changed field over
    // (structured-merge-diff: a changed value moves to its writer).
    const changed = structuredClone(liveGateway);
    const listeners = (changed.spec as { listeners: Array<Record<string, unknown>> }).listeners;
    listeners[0]!.port = 8080;
    const http = 'k:{"name":"http"}';
    const applied = changed.metadata.managedFields![0]!.fieldsV1 as any;
    delete applied['f:spec']['f:listeners'][http]['f:port'];
    changed.metadata.managedFields!.push({
      manager: 'kubectl-edit',
      operation: 'Update',
      apiVersion: 'gateway.networking.k8s.io/v1',
      time: '2026-12-01T13:05:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:listeners': { [http]: { 'f:port': {} } } } },
    });
    const result = diffResources([desiredOf(desired(), 'shop')], [changed], options);
    const [resource] = result.resources.filter((r) => r.key.kind === 'Gateway');
    const port = resource!.changes.find((c) => c.path.endsWith('/port'));
    expect(port).toEqual(
      expect.objectContaining({
        path: '/spec/listeners/0/port',
        segments: ['spec', 'listeners', { key: { name: 'http' } }, 'port'],
        op: 'replace',
        desired: 80,
        live: 8080,
        manager: 'kubectl-edit',
        time: '2026-12-01T13:05:00Z',
        cause: 'human',
      }),
    );
    // The other listener is its own item, not part of a whole-list replacement.
    expect(resource!.changes.map((c) => c.path)).toEqual(['/spec/listeners/0/port', '/spec/listeners/1']);
  });
});

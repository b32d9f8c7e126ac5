// Keyed lists of custom resources, read from the CRDs in the snapshot: a listener added by hand to a
// Gateway is one added item, attributed to its manager, not the whole list by "unknown".
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

// List keys from managedFields, and the order in which list-key facts are asked: Kubernetes' own
// (OpenAPI), the CRD's schema, then the `k:{…}` spelling managedFields records. The Gateway is the
// hand-made scenario's (test/fixtures/controllers: Flux applies it, envoy-gateway writes its status,
// a person adds a listener with kubectl edit), its fieldsV1 as structured-merge-diff encodes keyed
// items (sigs.k8s.io/structured-merge-diff fieldpath/serialize-pe.go: `k:` + the key fields as JSON).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customKindsOf, customListKeysLookup, recordedListKeys, resolveListKeys } from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { REPO_ROOT } from '../../support/fixtures.js';
import { managed } from '../diff/support.js';

const scenario = join(REPO_ROOT, 'test/fixtures/controllers/hand-made');
const live = (JSON.parse(readFileSync(join(scenario, 'live/hand-made.json'), 'utf8')) as { items: KubeObject[] }).items;
const gateway = live.find((o) => o.kind === 'Gateway')!;
const crds = live.filter((o) => o.kind === 'CustomResourceDefinition');

function withFields(...entries: Array<Record<string, unknown>>): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'shop', managedFields: entries as never },
  };
}

describe('recordedListKeys', () => {
  it('reads the keys of every list the Gateway’s managedFields spell by key', () => {
    const keys = recordedListKeys(gateway);
    expect(Object.fromEntries(keys)).toEqual({
      '/spec/listeners': ['name'],
      '/status/conditions': ['type'],
      '/status/listeners': ['name'],
      '/status/listeners/*/conditions': ['type'],
    });
  });

  it.each([
    [
      'a composite key keeps all its fields',
      [managed('m', { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {} } } } })],
      { '/spec/ports': ['port', 'protocol'] },
    ],
    [
      'keys under a map value and a keyed item',
      [managed('m', { 'f:spec': { 'f:routes': { 'k:{"name":"a"}': { 'f:rules': { 'k:{"id":"x"}': {} } } } } })],
      { '/spec/routes': ['name'], '/spec/routes/*/rules': ['id'] },
    ],
    [
      'two entries that key one list differently say nothing of it',
      [
        managed('a', { 'f:spec': { 'f:items': { 'k:{"name":"x"}': {} } } }),
        managed('b', { 'f:spec': { 'f:items': { 'k:{"id":"y"}': {} } } }),
      ],
      {},
    ],
    [
      'two entries that agree are one word',
      [
        managed('a', { 'f:spec': { 'f:items': { 'k:{"name":"x"}': {} } } }),
        managed('b', { 'f:spec': { 'f:items': { 'k:{"name":"y"}': {} } } }),
      ],
      { '/spec/items': ['name'] },
    ],
    ['a malformed key is no evidence', [managed('m', { 'f:spec': { 'f:items': { 'k:{name': {} } } })], {}],
    [
      'a key that is not an object of scalars is no evidence',
      [managed('m', { 'f:spec': { 'f:items': { 'k:{"ref":{"name":"x"}}': {} } } })],
      {},
    ],
    ['positions and set items key nothing', [managed('m', { 'f:spec': { 'f:args': { 'v:"a"': {}, 'i:0': {} } } })], {}],
  ])('%s', (_name, entries, expected) => {
    expect(Object.fromEntries(recordedListKeys(withFields(...entries)))).toEqual(expected);
  });
});

describe('resolveListKeys: Kubernetes first, then the CRD, then managedFields', () => {
  const customs = customListKeysLookup(customKindsOf(crds));
  const contradicting = withFields(
    managed('m', { 'f:spec': { 'f:listeners': { 'k:{"port":80}': {} }, 'f:addresses': { 'k:{"value":"a"}': {} } } }),
  );
  const builtIn = (fields: Record<string, unknown>): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'shop', managedFields: [managed('m', fields)] as never },
  });
  it.each([
    [
      'a built-in list: its OpenAPI keys',
      'apps',
      'Deployment',
      'v1',
      '/spec/template/spec/containers',
      builtIn({}),
      ['name'],
    ],
    [
      'a built-in atomic list stays atomic, whatever managedFields hold',
      'apps',
      'Deployment',
      'v1',
      '/spec/template/spec/containers/*/args',
      builtIn({
        'f:spec': {
          'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:args': { 'k:{"x":"1"}': {} } } } } },
        },
      }),
      undefined,
    ],
    [
      'a custom list: the CRD’s keys',
      'gateway.networking.k8s.io',
      'Gateway',
      'v1',
      '/spec/listeners',
      gateway,
      ['name'],
    ],
    [
      'the CRD wins over managedFields',
      'gateway.networking.k8s.io',
      'Gateway',
      'v1',
      '/spec/listeners',
      { ...contradicting, apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway' },
      ['name'],
    ],
    [
      'a list the CRD gives no keys: the keys managedFields record',
      'gateway.networking.k8s.io',
      'Gateway',
      'v1',
      '/spec/addresses',
      { ...contradicting, apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway' },
      ['value'],
    ],
    ['no CRD: managedFields', 'example.com', 'Widget', 'v1', '/spec/listeners', contradicting, ['port']],
    ['no CRD, no record: atomic', 'example.com', 'Widget', 'v1', '/spec/other', contradicting, undefined],
    [
      'a Rollout’s pod template is a PodTemplateSpec: containers by name, with no CRD and no record',
      'argoproj.io',
      'Rollout',
      'v1alpha1',
      '/spec/template/spec/containers',
      withFields(),
      ['name'],
    ],
    [
      'and its container ports by containerPort and protocol',
      'argoproj.io',
      'Rollout',
      'v1alpha1',
      '/spec/template/spec/containers/*/ports',
      withFields(),
      ['containerPort', 'protocol'],
    ],
  ])('%s', (_name, group, kind, version, pattern, object, expected) => {
    expect(resolveListKeys(group, kind, version, pattern, { custom: customs, live: object })).toEqual(expected);
  });
});

// Kinds: their plurals (as apimachinery guesses them), resource names as scope errors write them,
// built-in groups, and the objects the cluster makes for itself.
import { describe, expect, it } from 'vitest';
import { isBuiltInGroup, isClusterMade, namesType, parseResourceName, pluralOf } from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

describe('pluralOf', () => {
  it.each([
    ['Deployment', 'deployments'],
    ['Endpoints', 'endpoints'],
    ['Ingress', 'ingresses'],
    ['NetworkPolicy', 'networkpolicies'],
    ['StorageClass', 'storageclasses'],
    ['Gateway', 'gateways'],
    ['ComponentStatus', 'componentstatuses'],
    ['ConfigMap', 'configmaps'],
    ['PodSecurityPolicy', 'podsecuritypolicies'],
    ['Service', 'services'],
  ])('%s → %s', (kind, plural) => expect(pluralOf(kind)).toBe(plural));
});

describe('parseResourceName', () => {
  it.each([
    ['apps/v1/statefulsets', { group: 'apps', plural: 'statefulsets' }],
    ['v1/endpoints', { group: '', plural: 'endpoints' }],
    ['statefulsets.apps', { group: 'apps', plural: 'statefulsets' }],
    ['networkpolicies.networking.k8s.io', { group: 'networking.k8s.io', plural: 'networkpolicies' }],
    ['secrets', { plural: 'secrets' }],
  ])('%s', (resource, expected) => expect(parseResourceName(resource)).toEqual(expected));
});

describe('namesType', () => {
  it.each([
    [{ resource: 'v1/endpoints' }, { group: '', kind: 'Endpoints' }, true],
    [{ resource: 'apps/v1/statefulsets' }, { group: 'apps', kind: 'StatefulSet' }, true],
    [{ resource: 'apps/v1/statefulsets' }, { group: 'example.com', kind: 'StatefulSet' }, false],
    [{ resource: 'secrets' }, { group: '', kind: 'Secret' }, true],
    // The agent's exact group/kind wins over the plural guess.
    [{ resource: 'v1/weirdplural', group: '', kind: 'Endpoints' }, { group: '', kind: 'Endpoints' }, true],
    [{ resource: 'v1/gateways', group: 'a.example', kind: 'Gateway' }, { group: 'b.example', kind: 'Gateway' }, false],
  ])('%j names %j: %s', (type, key, expected) => expect(namesType(type, key)).toBe(expected));
});

describe('isBuiltInGroup', () => {
  it.each([
    ['', true],
    ['apps', true],
    ['networking.k8s.io', true],
    ['cert-manager.io', false],
    ['kustomize.toolkit.fluxcd.io', false],
  ])('%j → %s', (group, expected) => expect(isBuiltInGroup(group)).toBe(expected));
});

describe('isClusterMade', () => {
  const object = (kind: string, name: string, extra: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind,
    metadata: { name, namespace: 'shop' },
    ...extra,
  });
  const handMade = { name: 'external', managedFields: [{ manager: 'kubectl-client-side-apply' }] };
  it.each([
    [object('ConfigMap', 'kube-root-ca.crt'), true],
    [object('ServiceAccount', 'default'), true],
    [object('Secret', 'token', { type: 'kubernetes.io/service-account-token' }), true],
    [object('Endpoints', 'api'), true],
    [{ ...object('Endpoints', 'external'), metadata: handMade }, false],
    [object('ConfigMap', 'settings'), false],
    [object('ServiceAccount', 'api'), false],
  ])('%j → %s', (live, expected) => expect(isClusterMade(live)).toBe(expected));
});

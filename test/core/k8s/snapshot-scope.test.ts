// What a snapshot proves: the types and namespaces it listed, one matcher for the diff and the plan.
import { describe, expect, it } from 'vitest';
import { coverageOf, FULL_SCOPE, scopeNamespaces, type SnapshotScope } from '../../../src/core/k8s/index.js';
import type { ResourceKey } from '../../../src/core/model/index.js';

const key = (group: string, kind: string, namespace: string, name = 'x'): ResourceKey => ({
  group,
  kind,
  namespace,
  name,
});
const configMap = (namespace: string): ResourceKey => key('', 'ConfigMap', namespace);
const endpoints = key('', 'Endpoints', 'shop');
const clusterRole = key('rbac.authorization.k8s.io', 'ClusterRole', '');
const incomplete = (...errors: SnapshotScope['errors']): SnapshotScope => ({ complete: false, errors });
const shopOnly: SnapshotScope = { namespaces: ['shop'], complete: true, errors: [] };

describe('scopeNamespaces', () => {
  it.each([
    [undefined, undefined, undefined],
    [['shop'], undefined, ['shop']],
    [undefined, ['shop', 'jobs'], ['shop', 'jobs']],
    [['shop', 'web'], ['shop', 'jobs'], ['shop']],
    [['web'], ['jobs'], []],
    [[], ['jobs'], ['jobs']],
  ])('config %j ∩ snapshot %j = %j', (configured, captured, expected) => {
    expect(scopeNamespaces(configured, captured)).toEqual(expected);
  });
});

describe('coverageOf: proves', () => {
  const statefulSets = { resource: 'apps/v1/statefulsets' };
  const exactEndpoints = { resource: 'v1/endpoints', group: '', kind: 'Endpoints' };
  const leftOut: SnapshotScope = { ...FULL_SCOPE, excluded: [exactEndpoints] };
  const rows: Array<[string, SnapshotScope, string[] | undefined, ResourceKey, boolean]> = [
    ['a complete snapshot proves every type', FULL_SCOPE, undefined, key('apps', 'Deployment', 'shop'), true],
    ['incomplete without errors proves nothing', incomplete(), undefined, configMap('shop'), false],
    ['a type in the errors, by plural', incomplete(statefulSets), undefined, key('apps', 'StatefulSet', 'shop'), false],
    ['another type is still proven', incomplete(statefulSets), undefined, key('apps', 'Deployment', 'shop'), true],
    ['Endpoints by its plural', incomplete({ resource: 'v1/endpoints' }), undefined, endpoints, false],
    ['Endpoints by exact group/kind', incomplete(exactEndpoints), undefined, endpoints, false],
    ['exact group/kind, no guess', incomplete(exactEndpoints), undefined, key('', 'EndpointSlice', 'shop'), true],
    ['a namespace the snapshot did not list', shopOnly, undefined, configMap('web'), false],
    ['a namespace it listed', shopOnly, undefined, configMap('shop'), true],
    ['a namespaced snapshot lists no cluster-scoped type', shopOnly, undefined, clusterRole, false],
    ['but its own Namespace objects', shopOnly, undefined, key('', 'Namespace', '', 'shop'), true],
    ['and no other Namespace', shopOnly, undefined, key('', 'Namespace', '', 'web'), false],
    ['a type the agent left out on purpose', leftOut, undefined, endpoints, false],
    ['a type it did not leave out', leftOut, undefined, configMap('shop'), true],
    ['a namespace the config leaves out', FULL_SCOPE, ['shop'], configMap('web'), false],
    ['cluster-scoped objects under a configured scope', FULL_SCOPE, ['shop'], clusterRole, true],
  ];
  it.each(rows)('%s', (_name, scope, configured, k, expected) => {
    expect(coverageOf(scope, configured).proves(k)).toBe(expected);
  });
});

it('names the excluded type of a key, and nothing else', () => {
  const excluded = [{ resource: 'v1/endpoints', group: '', kind: 'Endpoints' }];
  const coverage = coverageOf({ ...FULL_SCOPE, excluded });
  expect(coverage.excludedType(endpoints)).toBe('v1/endpoints');
  expect(coverage.excludedType(configMap('shop'))).toBeUndefined();
  expect(coverage.unlisted).toEqual([]);
});

it('names what it did not list', () => {
  expect(coverageOf(incomplete({ resource: 'apps/v1/statefulsets' })).unlisted).toEqual(['apps/v1/statefulsets']);
  expect(coverageOf(incomplete()).unlisted).toEqual(['(unknown: snapshot incomplete)']);
  expect(coverageOf(FULL_SCOPE).unlisted).toEqual([]);
});

it('tells the configured scope from what the snapshot listed', () => {
  const coverage = coverageOf({ namespaces: ['shop', 'jobs'], complete: true, errors: [] }, ['shop', 'web']);
  expect(coverage.namespaces).toEqual(['shop']);
  expect(coverage.inScope(configMap('web'))).toBe(true);
  expect(coverage.listed(configMap('web'))).toBe(false);
  expect(coverage.inScope(configMap('jobs'))).toBe(false);
});

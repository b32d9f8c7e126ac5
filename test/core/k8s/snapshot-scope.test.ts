// What a snapshot proves: the types and namespaces it listed, one matcher for the diff and the plan.
import { describe, expect, it } from 'vitest';
import { coverageOf, FULL_SCOPE, scopeNamespaces, type SnapshotScope } from '../../../src/core/k8s/index.js';
import type { ResourceKey } from '../../../src/core/model/index.js';

const key = (group: string, kind: string, namespace: string, name = 'x'): ResourceKey => ({ group, kind, namespace, name });

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
  const rows: Array<[string, SnapshotScope, string[] | undefined, ResourceKey, boolean]> = [
    ['a complete snapshot proves every type', FULL_SCOPE, undefined, key('apps', 'Deployment', 'shop'), true],
    ['incomplete without errors proves nothing', { complete: false, errors: [] }, undefined, key('', 'ConfigMap', 'shop'), false],
    ['a type in the errors, by plural', { complete: false, errors: [{ resource: 'apps/v1/statefulsets' }] }, undefined, key('apps', 'StatefulSet', 'shop'), false],
    ['another type is still proven', { complete: false, errors: [{ resource: 'apps/v1/statefulsets' }] }, undefined, key('apps', 'Deployment', 'shop'), true],
    ['Endpoints by its plural', { complete: false, errors: [{ resource: 'v1/endpoints' }] }, undefined, key('', 'Endpoints', 'shop'), false],
    ['Endpoints by exact group/kind', { complete: false, errors: [{ resource: 'v1/endpoints', group: '', kind: 'Endpoints' }] }, undefined, key('', 'Endpoints', 'shop'), false],
    ['exact group/kind is not a plural guess', { complete: false, errors: [{ resource: 'v1/endpoints', group: '', kind: 'Endpoints' }] }, undefined, key('', 'EndpointSlice', 'shop'), true],
    ['a namespace the snapshot did not list', { namespaces: ['shop'], complete: true, errors: [] }, undefined, key('', 'ConfigMap', 'web'), false],
    ['a namespace it listed', { namespaces: ['shop'], complete: true, errors: [] }, undefined, key('', 'ConfigMap', 'shop'), true],
    ['a namespaced snapshot lists no cluster-scoped type', { namespaces: ['shop'], complete: true, errors: [] }, undefined, key('rbac.authorization.k8s.io', 'ClusterRole', ''), false],
    ['but its own Namespace objects', { namespaces: ['shop'], complete: true, errors: [] }, undefined, key('', 'Namespace', '', 'shop'), true],
    ['and no other Namespace', { namespaces: ['shop'], complete: true, errors: [] }, undefined, key('', 'Namespace', '', 'web'), false],
    ['a namespace the config leaves out', FULL_SCOPE, ['shop'], key('', 'ConfigMap', 'web'), false],
    ['cluster-scoped objects under a configured scope', FULL_SCOPE, ['shop'], key('rbac.authorization.k8s.io', 'ClusterRole', ''), true],
  ];
  it.each(rows)('%s', (_name, scope, configured, k, expected) => expect(coverageOf(scope, configured).proves(k)).toBe(expected));
});

it('names what it did not list', () => {
  expect(coverageOf({ complete: false, errors: [{ resource: 'apps/v1/statefulsets' }] }).unlisted).toEqual(['apps/v1/statefulsets']);
  expect(coverageOf({ complete: false, errors: [] }).unlisted).toEqual(['(unknown: snapshot incomplete)']);
  expect(coverageOf(FULL_SCOPE).unlisted).toEqual([]);
});

it('tells the configured scope from what the snapshot listed', () => {
  const coverage = coverageOf({ namespaces: ['shop', 'jobs'], complete: true, errors: [] }, ['shop', 'web']);
  expect(coverage.namespaces).toEqual(['shop']);
  expect(coverage.inScope(key('', 'ConfigMap', 'web'))).toBe(true);
  expect(coverage.listed(key('', 'ConfigMap', 'web'))).toBe(false);
  expect(coverage.inScope(key('', 'ConfigMap', 'jobs'))).toBe(false);
});

// Names as the Kubernetes API validates them per kind (pkg/apis/core/validation, pkg/apis/rbac/
// validation, apiextensions for custom resources): what an API server accepts passes, and nothing
// that could climb out of a directory does.
import { describe, expect, it } from 'vitest';
import { identityProblems, nameRuleFor, ruleProblem } from '../../../src/core/k8s/object-names.js';

describe('the rule per kind', () => {
  it.each([
    ['', 'Namespace', 'dns-1123-label'],
    ['', 'Service', 'dns-1035-label'],
    ['', 'ConfigMap', 'dns-1123-subdomain'],
    ['apps', 'Deployment', 'dns-1123-subdomain'],
    ['rbac.authorization.k8s.io', 'ClusterRole', 'path-segment'],
    ['rbac.authorization.k8s.io', 'RoleBinding', 'path-segment'],
    ['example.com', 'Widget', 'dns-1123-subdomain'],
  ])('%s %s names are %s', (group, kind, rule) => {
    expect(nameRuleFor(group, kind)).toBe(rule);
  });
});

describe('names', () => {
  it.each([
    ['dns-1123-subdomain', 'api', true],
    ['dns-1123-subdomain', 'api.v2-canary', true],
    ['dns-1123-subdomain', 'a'.repeat(253), true],
    ['dns-1123-subdomain', 'a'.repeat(254), false],
    ['dns-1123-subdomain', 'Api', false],
    ['dns-1123-subdomain', 'x/../../prod-us/backdoor', false],
    ['dns-1123-subdomain', '../../.github/workflows/deploy', false],
    ['dns-1123-subdomain', '-api', false],
    ['dns-1123-label', 'checkout', true],
    ['dns-1123-label', 'a.b', false],
    ['dns-1123-label', 'a'.repeat(64), false],
    ['dns-1035-label', 'web', true],
    ['dns-1035-label', '1web', false],
    ['path-segment', 'system:controller:deployment-controller', true],
    ['path-segment', 'Admin', true],
    ['path-segment', '..', false],
    ['path-segment', 'a/b', false],
    ['path-segment', 'a%2fb', false],
  ] as const)('%s %j: %s', (rule, name, valid) => {
    expect(ruleProblem(rule, name) === undefined).toBe(valid);
  });
});

describe('identityProblems', () => {
  it('accepts objects as API servers return them', () => {
    expect(
      identityProblems({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'checkout' } }),
    ).toEqual([]);
    expect(
      identityProblems({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'system:aggregate-to-edit' },
      }),
    ).toEqual([]);
    expect(identityProblems({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } })).toEqual([]);
  });

  it('names each field an API server would refuse', () => {
    const problems = identityProblems({
      apiVersion: 'apps/v1/../x',
      kind: 'Deploy/ment',
      metadata: { name: 'x/../../prod-us/backdoor', namespace: '../.github' },
    });
    expect(problems.map((problem) => problem.path)).toEqual([
      'apiVersion',
      'kind',
      'metadata.name',
      'metadata.namespace',
    ]);
    expect(problems[2].message).toBe(
      '"x/../../prod-us/backdoor" is not a valid Deploy/ment name: it must be a lowercase RFC 1123 subdomain: at most 253 lower case alphanumeric characters, "-" or ".", starting and ending with an alphanumeric character',
    );
  });
});

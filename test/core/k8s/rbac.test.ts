// RBAC rules that let a subject escalate, as the Kubernetes docs "Role Based Access Control Good
// Practices" list them; the roles are the shapes kube-apiserver bootstraps
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata/cluster-roles.yaml).
import { describe, expect, it } from 'vitest';
import { describeSubject, escalationsOf, roleEscalations } from '../../../src/core/k8s/index.js';

describe('escalationsOf', () => {
  it.each([
    // cluster-admin's resource rule
    [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, false, ['every verb on every resource']],
    [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }, false, ['every verb on secrets']],
    [{ apiGroups: ['apps'], resources: ['*'], verbs: ['get', 'list'] }, false, ['get, list on every resource']],
    [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate', 'bind'] },
      false,
      ['escalate on clusterroles', 'bind on clusterroles'],
    ],
    // system:aggregate-to-edit lets `edit` impersonate ServiceAccounts.
    [
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
      false,
      ['impersonate on serviceaccounts'],
    ],
    // Reading Secrets counts where the grant is cluster-wide; in one namespace it is that namespace's business.
    [
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
      true,
      ['get, list, watch on every Secret in every namespace'],
    ],
    [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }, false, []],
    [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['tls'], verbs: ['get'] }, true, []],
    [{ apiGroups: [''], resources: ['configmaps', 'pods'], verbs: ['get', 'list', 'watch'] }, true, []],
    // view's nonResourceURLs rule names no objects.
    [{ nonResourceURLs: ['*'], verbs: ['*'] }, true, []],
  ])('%j (cluster-wide: %s) → %j', (rule, clusterWide, expected) => {
    expect(escalationsOf(rule, clusterWide)).toEqual(expected);
  });
});

it('roleEscalations collects every rule once', () => {
  const rules = [
    { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
  ];
  expect(roleEscalations(rules, false)).toEqual(['every verb on secrets']);
  expect(roleEscalations(undefined, true)).toEqual([]);
});

it.each([
  [{ kind: 'ServiceAccount', name: 'default', namespace: 'shop' }, 'ServiceAccount shop/default'],
  [
    { kind: 'Group', name: 'system:authenticated', apiGroup: 'rbac.authorization.k8s.io' },
    'Group system:authenticated (every signed-in user and ServiceAccount)',
  ],
  [{ kind: 'Group', name: 'system:unauthenticated' }, 'Group system:unauthenticated (anonymous requests)'],
  [{ kind: 'User', name: 'alice@example.com' }, 'User alice@example.com'],
])('describeSubject %j', (subject, expected) => expect(describeSubject(subject)).toBe(expected));

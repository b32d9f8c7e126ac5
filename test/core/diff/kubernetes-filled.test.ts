// Fields Kubernetes fills in are not drift: webhook defaults, and the rules of an aggregated ClusterRole.
import { describe, expect, it } from 'vitest';
import { diffObject } from '../../../src/core/diff/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { configWith, managed } from './support.js';

const config = configWith();
// A chart upgraded with client-side apply: its Update owns every field, the defaults included.
const upgraded = (fields: Record<string, unknown>) => [managed('helm', fields, 'Update', '2026-12-01T11:00:00Z')];

describe('webhook defaults', () => {
  const desired: KubeObject = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'policy' },
    webhooks: [
      {
        name: 'check.example.com',
        clientConfig: { service: { name: 'svc', namespace: 'sys' } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
  const filled = {
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    timeoutSeconds: 10,
    namespaceSelector: {},
    objectSelector: {},
  };
  const owned = {
    'f:webhooks': {
      'k:{"name":"check.example.com"}': {
        'f:failurePolicy': {},
        'f:matchPolicy': {},
        'f:timeoutSeconds': {},
        'f:namespaceSelector': {},
        'f:objectSelector': {},
        'f:clientConfig': { 'f:service': { 'f:port': {} } },
      },
    },
  };
  const live = (extra: Record<string, unknown>): KubeObject => ({
    ...desired,
    metadata: { name: 'policy', creationTimestamp: '2026-12-01T10:00:00Z', managedFields: upgraded(owned) },
    webhooks: [
      {
        ...(desired.webhooks as Array<Record<string, unknown>>)[0],
        clientConfig: { service: { name: 'svc', namespace: 'sys', port: 443 } },
        ...filled,
        ...extra,
      },
    ],
  });

  it("the server's values are noise, even when a manager owns them", () => {
    expect(diffObject(desired, live({}), { config }).changes).toEqual([]);
  });

  it('a value other than the default is drift', () => {
    const changes = diffObject(desired, live({ failurePolicy: 'Ignore', timeoutSeconds: 5 }), { config }).changes;
    expect(changes.map((c) => `${c.path}=${String(c.live)}`)).toEqual([
      '/webhooks/0/failurePolicy=Ignore',
      '/webhooks/0/timeoutSeconds=5',
    ]);
  });
});

describe('an aggregated ClusterRole', () => {
  const role = (rules: unknown[], aggregated: boolean): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'monitoring' },
    ...(aggregated
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] } }
      : {}),
    rules,
  });
  const aggregatedRules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }];
  const liveRole = (aggregated: boolean): KubeObject => ({
    ...role(aggregatedRules, aggregated),
    metadata: {
      name: 'monitoring',
      managedFields: [managed('clusterrole-aggregation-controller', { 'f:rules': {} }, 'Apply')],
    },
  });

  it('its rules are filled by the aggregation controller: not drift, no conflict', () => {
    const diff = diffObject(role([], true), liveRole(true), { config });
    expect(diff).toEqual({ changes: [], conflicts: [] });
  });

  it('a ClusterRole without an aggregationRule is compared rule by rule', () => {
    const declared = role([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], false);
    const diff = diffObject(declared, liveRole(false), { config });
    expect(diff.changes.map((c) => c.path)).toEqual(['/rules']);
  });
});

// The agent's small rules, table-driven: which types a pattern names, which types a run lists by
// default, what sanitizing keeps, and how the environment is read.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listableResources } from '../../src/agent/discovery.js';
import { loadHashKey } from '../../src/agent/hash-key.js';
import { isGroupOutOfScope, matchesType, selectResources } from '../../src/agent/resource-filter.js';
import { sanitizeObject } from '../../src/agent/sanitize.js';
import { parseAgentEnv } from '../../src/agent/settings.js';
import type { ApiResource } from '../../src/agent/types.js';
import { loadDiscovery } from '../support/kube-api/server.js';
import { HASH_KEY, scope } from './helpers.js';

const deployments: ApiResource = {
  group: 'apps',
  version: 'v1',
  groupVersion: 'apps/v1',
  resource: 'deployments',
  kind: 'Deployment',
  namespaced: true,
};
const secrets: ApiResource = {
  group: '',
  version: 'v1',
  groupVersion: 'v1',
  resource: 'secrets',
  kind: 'Secret',
  namespaced: true,
};
const configMaps: ApiResource = {
  group: '',
  version: 'v1',
  groupVersion: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
};
const coreEvents: ApiResource = {
  group: '',
  version: 'v1',
  groupVersion: 'v1',
  resource: 'events',
  kind: 'Event',
  namespaced: true,
};

describe('type patterns', () => {
  it.each([
    { pattern: 'deployments', resource: deployments, matches: true },
    { pattern: 'Deployment', resource: deployments, matches: true },
    { pattern: 'deployments.apps', resource: deployments, matches: true },
    { pattern: 'DEPLOYMENTS.APPS', resource: deployments, matches: true },
    { pattern: 'apps/v1/deployments', resource: deployments, matches: true },
    { pattern: '*.apps', resource: deployments, matches: true },
    { pattern: 'deployments.extensions', resource: deployments, matches: false },
    { pattern: 'secrets', resource: secrets, matches: true },
    { pattern: 'secrets.apps', resource: secrets, matches: false },
    { pattern: 'events.events.k8s.io', resource: coreEvents, matches: false },
    { pattern: '', resource: deployments, matches: false },
  ])('$pattern names $resource.groupVersion/$resource.resource: $matches', ({ pattern, resource, matches }) => {
    expect(matchesType(pattern, resource)).toBe(matches);
  });
});

describe('groups out of scope are not even discovered', () => {
  it.each([
    { group: 'metrics.k8s.io', scope: scope(), out: true },
    { group: 'apps', scope: scope(), out: false },
    { group: 'policy', scope: scope({ exclude: ['*.policy'] }), out: true },
    { group: 'policy', scope: scope({ include: ['deployments.apps', 'apps/v1/statefulsets'] }), out: true },
    { group: 'apps', scope: scope({ include: ['deployments.apps'] }), out: false },
    { group: 'policy', scope: scope({ include: ['poddisruptionbudgets'] }), out: false },
    { group: 'policy', scope: scope({ include: ['v1/configmaps'] }), out: true },
  ])('$group with include $scope.include exclude $scope.exclude → out: $out', ({ group, scope: s, out }) => {
    expect(isGroupOutOfScope(group, s)).toBe(out);
  });
});

describe('default selection over the recorded discovery', () => {
  const discovery = loadDiscovery();
  const all = [...discovery.lists.entries()].flatMap(([gv, doc]) => {
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    return listableResources(doc, group, version);
  });
  const selected = selectResources(all, scope()).map((r) => `${r.groupVersion}/${r.resource}`);

  it('skips subresources and types without the list verb', () => {
    const ids = all.map((r) => `${r.groupVersion}/${r.resource}`);
    expect(ids).not.toContain('v1/bindings');
    expect(ids).not.toContain('authentication.k8s.io/v1/tokenreviews');
    expect(ids).toContain('v1/pods');
    expect(all.filter((r) => r.resource.includes('/'))).toEqual([]);
  });

  it('leaves out generated and churning types', () => {
    for (const id of [
      'v1/events',
      'events.k8s.io/v1/events',
      'coordination.k8s.io/v1/leases',
      'v1/endpoints',
      'discovery.k8s.io/v1/endpointslices',
      'v1/componentstatuses',
      'apps/v1/controllerrevisions',
      'v1/nodes',
    ]) {
      expect(selected).not.toContain(id);
    }
    expect(selected).toEqual(
      expect.arrayContaining([
        'v1/configmaps',
        'v1/secrets',
        'apps/v1/deployments',
        'batch/v1/cronjobs',
        'kustomize.toolkit.fluxcd.io/v1/kustomizations',
      ]),
    );
  });
});

describe('sanitizing one listed item', () => {
  it('drops a controller-owned object and keeps one with a plain owner reference', () => {
    const item = (controller: boolean | undefined) => ({
      metadata: {
        name: 'a',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u', controller }],
      },
    });
    expect(sanitizeObject(item(true), deployments, undefined).type).toBe('owned');
    expect(sanitizeObject(item(false), deployments, undefined).type).toBe('kept');
    expect(sanitizeObject(item(undefined), deployments, undefined).type).toBe('kept');
  });

  it('keeps an Application an ApplicationSet generated (a source), controller-owned as it is', () => {
    const applications: ApiResource = {
      group: 'argoproj.io',
      version: 'v1alpha1',
      groupVersion: 'argoproj.io/v1alpha1',
      resource: 'applications',
      kind: 'Application',
      namespaced: true,
    };
    // What applicationset_controller.go's SetControllerReference writes.
    const owner = { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'guestbook', uid: 'u' };
    const generated = {
      metadata: { name: 'guestbook-dev', ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }] },
      spec: { source: { path: 'guestbook/dev' } },
    };
    const kept = sanitizeObject(generated, applications, undefined);
    expect(kept.type).toBe('kept');
    expect(kept.type === 'kept' && kept.object.metadata.ownerReferences).toEqual(generated.metadata.ownerReferences);
    const byOther = { metadata: { name: 'x', ownerReferences: [{ ...owner, kind: 'Rollout', controller: true }] } };
    expect(sanitizeObject(byOther, applications, undefined).type).toBe('owned');
    // Another kind owned by an ApplicationSet is derived as before.
    expect(sanitizeObject(generated, deployments, undefined).type).toBe('owned');
  });

  it('never keeps a Secret without a key to hash it', () => {
    expect(sanitizeObject({ metadata: { name: 's' }, data: { a: 'YQ==' } }, secrets, undefined)).toEqual({
      type: 'invalid',
      reason: 'a Secret with no hash key to redact it',
    });
    const kept = sanitizeObject({ metadata: { name: 's' }, data: { a: 'YQ==' } }, secrets, HASH_KEY);
    expect(kept.type === 'kept' && (kept.object.data as Record<string, string>).a).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('keeps the last-applied annotation, except on a Secret, where it would repeat the values', () => {
    const LAST = 'kubectl.kubernetes.io/last-applied-configuration';
    const annotated = (data: Record<string, string>) => ({
      metadata: { name: 's', annotations: { [LAST]: JSON.stringify({ data }), team: 'web' } },
      data,
    });
    const config = sanitizeObject(annotated({ a: '1' }), configMaps, undefined);
    const annotations = config.type === 'kept' ? config.object.metadata.annotations : undefined;
    expect(annotations).toEqual({ [LAST]: '{"data":{"a":"1"}}', team: 'web' });
    const secret = sanitizeObject(annotated({ a: 'YQ==' }), secrets, HASH_KEY);
    expect(secret.type === 'kept' && secret.object.metadata.annotations).toEqual({ team: 'web' });
  });

  it('reports an item without a name instead of failing the run', () => {
    expect(sanitizeObject({ metadata: {} }, deployments, undefined).type).toBe('invalid');
  });
});

describe('the agent environment', () => {
  const complete = {
    DRIFTBACK_URL: 'https://driftback.example.com',
    DRIFTBACK_TOKEN: 't',
    DRIFTBACK_REPOSITORY: 'acme/gitops',
    DRIFTBACK_CLUSTER: 'prod-eu',
  };

  it('reads scope and limits with their defaults', () => {
    const result = parseAgentEnv({
      ...complete,
      DRIFTBACK_NAMESPACES: 'checkout, payments',
      DRIFTBACK_EXCLUDE: 'configmaps',
      DRIFTBACK_DEADLINE: '5m',
    });
    expect(result).toMatchObject({
      type: 'ok',
      settings: {
        deadlineMs: 300_000,
        pageSize: 500,
        requestTimeoutMs: 30_000,
        scope: { namespaces: ['checkout', 'payments'], exclude: ['configmaps'], include: [], secrets: 'hash' },
      },
    });
  });

  it.each([
    { env: { DRIFTBACK_URL: 'ftp://x' }, problem: 'DRIFTBACK_URL=ftp://x: expected an http(s) URL' },
    { env: { DRIFTBACK_REPOSITORY: 'gitops' }, problem: 'DRIFTBACK_REPOSITORY=gitops: expected owner/name' },
    { env: { DRIFTBACK_SECRETS: 'plain' }, problem: 'DRIFTBACK_SECRETS=plain: expected hash' },
    { env: { DRIFTBACK_DEADLINE: 'soon' }, problem: 'DRIFTBACK_DEADLINE=soon: expected a duration' },
    { env: { DRIFTBACK_PAGE_SIZE: '0' }, problem: 'DRIFTBACK_PAGE_SIZE=0: expected a whole number' },
  ])('says what to change: $problem', ({ env, problem }) => {
    const result = parseAgentEnv({ ...complete, ...env });
    expect(result.type === 'invalid' && result.problems.join('\n')).toContain(problem);
  });
});

describe('the hash key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'driftback-key-'));
  it.each([
    { name: 'from the value', value: 'k'.repeat(32), file: undefined, type: 'key' },
    { name: 'from a mounted file, trailing newline ignored', value: undefined, file: 'good', type: 'key' },
    { name: 'too short', value: 'short', file: undefined, type: 'invalid' },
    { name: 'an unreadable file', value: undefined, file: 'absent', type: 'invalid' },
    { name: 'nothing', value: undefined, file: undefined, type: 'missing' },
  ])('$name → $type', async ({ value, file, type }) => {
    writeFileSync(join(dir, 'good'), 'k'.repeat(32) + '\n');
    const result = await loadHashKey(value, file && join(dir, file));
    expect(result.type).toBe(type);
    if (result.type === 'key') expect(result.key.toString()).toBe('k'.repeat(32));
  });
});

// The snapshot a run produces against the Kubernetes API stand-in: the exact document (golden),
// and what a user relies on — filtered kinds, owned objects dropped, Secret values hashed,
// managedFields and status kept, failures recorded in scope.errors while the run goes on.
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSnapshot } from '../../src/core/model/index.js';
import { clusterObjects, SECRET_VALUES } from '../support/kube-api/cluster.js';
import { startKubeApiStandIn, type KubeApiStandIn } from '../support/kube-api/server.js';
import { HASH_KEY, scope, snapshotText, TOKEN } from './helpers.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden', 'snapshot.json');

describe('a snapshot of the stand-in cluster', () => {
  let api: KubeApiStandIn;
  let result: Awaited<ReturnType<typeof snapshotText>>;

  beforeAll(async () => {
    api = await startKubeApiStandIn({
      token: TOKEN,
      objects: clusterObjects(),
      forbidden: ['apps/v1/statefulsets'],
      expireOnce: ['v1/configmaps'],
      slow: { resource: 'v1/services', delayMs: 1_500, times: 1 },
      unavailable: { resources: ['apps/v1/deployments'], times: 1 },
    });
    result = await snapshotText({ url: api.url, requestTimeoutMs: 400 });
  });
  afterAll(() => api.close());

  const items = () => result.document.items as any[];
  const ids = () => items().map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);

  it('is a valid snapshot document equal to the golden file', () => {
    expect(parseSnapshot(result.document)).toMatchObject({ ok: true });
    const pretty = JSON.stringify(result.document, null, 2) + '\n';
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dirname(GOLDEN), { recursive: true });
      writeFileSync(GOLDEN, pretty);
    }
    expect(existsSync(GOLDEN), 'golden file missing: run with UPDATE_GOLDEN=1').toBe(true);
    expect(pretty).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('writes scope after items, so the header streams first', () => {
    expect(result.text.indexOf('"items"')).toBeLessThan(result.text.indexOf('"scope"'));
    expect(result.document.server.gitVersion).toBe('v1.31.2');
  });

  it("records discovery's word on every type it serves: namespaced or cluster-scoped, custom kinds included", () => {
    const served = result.document.server.resources as Array<Record<string, unknown>>;
    const scope = (group: string, kind: string) => served.find((t) => t.group === group && t.kind === kind)?.namespaced;
    expect(scope('', 'Namespace')).toBe(false);
    expect(scope('apps', 'Deployment')).toBe(true);
    expect(scope('kustomize.toolkit.fluxcd.io', 'Kustomization')).toBe(true);
    expect(served.find((t) => t.kind === 'Deployment')).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      resource: 'deployments',
      namespaced: true,
    });
  });

  it('leaves out events, leases, endpoints, endpoint slices and controller-owned objects', () => {
    const kinds = new Set(items().map((o) => o.kind));
    for (const kind of ['Event', 'Lease', 'Endpoints', 'EndpointSlice', 'ReplicaSet'])
      expect(kinds).not.toContain(kind);
    expect(ids()).not.toContain('Pod/checkout/api-7c9f-x2x');
    expect(ids()).toContain('Pod/argocd/my-pod');
    expect(ids()).toContain('ConfigMap/checkout/api-owned-loosely');
  });

  it('lists every type at its preferred version, custom resources included, with apiVersion and kind set', () => {
    expect(ids()).toEqual(
      expect.arrayContaining([
        'Deployment/default/guestbook-ui',
        'Service/httpbin/httpbin-svc',
        'HorizontalPodAutoscaler/default/sample',
        'Job/argoci-workflows/succeed',
        'Kustomization/flux-system/apps',
        'Namespace//checkout',
        'ReplicationController/test/test-rc',
      ]),
    );
    const hpa = items().find((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(items().every((o) => typeof o.apiVersion === 'string' && typeof o.kind === 'string')).toBe(true);
  });

  it("strips server bookkeeping and a Secret's last-applied annotation; keeps managedFields, generation, status", () => {
    const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
    for (const object of items()) {
      for (const field of ['uid', 'resourceVersion', 'selfLink']) expect(object.metadata).not.toHaveProperty(field);
      if (object.kind === 'Secret') expect(object.metadata.annotations ?? {}).not.toHaveProperty([lastApplied]);
    }
    // A client-side applier's manifest: only this annotation says which defaults it declared.
    const applied = items().filter((o) => o.kind !== 'Secret' && o.metadata.annotations?.[lastApplied]);
    expect(applied.length).toBeGreaterThan(0);
    const deployment = items().find((o) => o.kind === 'Deployment' && o.metadata.name === 'kustomize-guestbook-ui');
    expect(deployment.metadata.managedFields.length).toBeGreaterThan(0);
    expect(deployment.status).toBeDefined();
    expect(items().find((o) => o.kind === 'Kustomization').status.lastAppliedRevision).toBe('main@sha1:4f1a5b10');
    // Health compares it with status.observedGeneration: kept as the API server returned it.
    expect(items().find((o) => o.kind === 'Kustomization').metadata.generation).toBe(4);
  });

  it('replaces each Secret value by the keyed hash of its bytes', () => {
    const db = items().find((o) => o.kind === 'Secret' && o.metadata.name === 'db');
    const expected = (value: string) =>
      'sha256:' + createHmac('sha256', HASH_KEY).update(Buffer.from(value)).digest('hex');
    expect(db.data).toEqual({ password: expected(SECRET_VALUES[0]), multiline: expected(SECRET_VALUES[2]) });
    expect(db.metadata.annotations).toEqual({ team: 'payments' });
    const api = items().find((o) => o.kind === 'Secret' && o.metadata.name === 'api');
    expect(api.stringData.extra).toBe(api.data.token);
  });

  it('never lets a Secret value out, plain or base64, anywhere in the document', () => {
    for (const value of SECRET_VALUES) {
      for (const form of [value, Buffer.from(value).toString('base64'), JSON.stringify(value).slice(1, -1)]) {
        expect(result.text).not.toContain(form);
      }
    }
  });

  it('records a forbidden type in scope.errors and marks the snapshot incomplete', () => {
    expect(result.document.scope).toEqual({
      complete: false,
      errors: [
        {
          resource: 'apps/v1/statefulsets',
          group: 'apps',
          kind: 'StatefulSet',
          reason: 'Forbidden',
          message: expect.stringContaining('cannot list resource "statefulsets" in API group "apps"'),
        },
      ],
      excluded: expect.any(Array),
    });
    expect(ids().some((id) => id.startsWith('StatefulSet/'))).toBe(false);
  });

  it('names the types it leaves out on purpose, so their absence proves nothing', () => {
    const excluded: Array<{ resource: string }> = result.document.scope.excluded ?? [];
    expect(excluded).toContainEqual({ resource: 'v1/endpoints', group: '', kind: 'Endpoints' });
    expect(excluded).toContainEqual({ resource: 'v1/events', group: '', kind: 'Event' });
    expect(excluded.map((type) => type.resource)).not.toContain('v1/configmaps');
    const listed = result.summary.types.map((type) => type.resource);
    expect(listed.filter((resource) => excluded.some((e) => e.resource === resource))).toEqual([]);
  });

  it('pages with limit and continue, restarting once after 410 Expired without duplicates', () => {
    const configMaps = ids().filter((id) => id.startsWith('ConfigMap/checkout/settings-'));
    expect(configMaps).toEqual([1, 2, 3, 4, 5].map((n) => `ConfigMap/checkout/settings-${n}`));
    const cmRequests = api.requests.filter((r) => r.startsWith('/api/v1/configmaps'));
    expect(cmRequests[0]).toBe('/api/v1/configmaps?limit=2');
    expect(cmRequests.filter((r) => r === '/api/v1/configmaps?limit=2')).toHaveLength(2);
  });

  it('retries a type that timed out or answered 503', () => {
    expect(api.requests.filter((r) => r.startsWith('/api/v1/services?')).length).toBeGreaterThanOrEqual(2);
    expect(ids()).toContain('Service/argocd/argocd-server');
    expect(ids()).toContain('Deployment/default/nginx-deployment');
  });

  it('reports items and bytes per type', () => {
    const configMaps = result.summary.types.find((t) => t.resource === 'v1/configmaps');
    expect(configMaps?.items).toBe(6);
    expect(result.summary.items).toBe(items().length);
    expect(result.summary.types.find((t) => t.resource === 'apps/v1/replicasets')?.owned).toBe(1);
  });
});

describe('scoping a snapshot', () => {
  let api: KubeApiStandIn;
  beforeAll(async () => {
    api = await startKubeApiStandIn({ token: TOKEN, objects: clusterObjects() });
  });
  afterAll(() => api.close());

  it('lists only the given namespaces, with their Namespace objects and no other cluster-scoped type', async () => {
    const { document } = await snapshotText({ url: api.url, scope: scope({ namespaces: ['checkout'] }) });
    const namespaces = new Set(
      document.items.map((o: any) => o.metadata.namespace ?? `(cluster) ${o.kind}/${o.metadata.name}`),
    );
    expect([...namespaces].sort()).toEqual(['(cluster) Namespace/checkout', 'checkout']);
    expect(document.scope.namespaces).toEqual(['checkout']);
    expect(document.scope.complete).toBe(true);
    expect(api.requests.some((r) => r.startsWith('/api/v1/namespaces/checkout/configmaps?'))).toBe(true);
  });

  it.each([
    { name: 'include by resource.group', include: ['deployments.apps'], exclude: [], kinds: ['Deployment'] },
    {
      name: 'include by kind and group wildcard',
      include: ['HorizontalPodAutoscaler', '*.kustomize.toolkit.fluxcd.io'],
      exclude: [],
      kinds: ['HorizontalPodAutoscaler', 'Kustomization'],
    },
    {
      name: 'include a default exclusion explicitly',
      include: ['leases.coordination.k8s.io'],
      exclude: [],
      kinds: ['Lease'],
    },
    {
      name: 'exclude wins over include',
      include: ['services', 'configmaps'],
      exclude: ['configmaps'],
      kinds: ['Service'],
    },
  ])('$name', async ({ include, exclude, kinds }) => {
    const { document } = await snapshotText({ url: api.url, scope: scope({ include, exclude }) });
    expect([...new Set(document.items.map((o: any) => o.kind))].sort()).toEqual(kinds);
  });

  it('leaves Secrets out entirely with secrets: omit', async () => {
    const before = api.requests.length;
    const { document } = await snapshotText({ url: api.url, scope: scope({ secrets: 'omit' }) });
    expect(document.items.some((o: any) => o.kind === 'Secret')).toBe(false);
    // Not even requested: with omit, the agent needs no permission on Secrets.
    expect(api.requests.slice(before).filter((r) => r.includes('/secrets'))).toEqual([]);
  });

  it('passes the label selector to every list', async () => {
    const { document } = await snapshotText({
      url: api.url,
      scope: scope({ include: ['configmaps'], labelSelector: 'app=web' }),
    });
    expect(document.items.map((o: any) => o.metadata.name)).toEqual(['settings-2', 'settings-4']);
  });
});

describe('a run that cannot finish', () => {
  it('finishes the document when the deadline passes, recording the types not listed', async () => {
    const api = await startKubeApiStandIn({
      token: TOKEN,
      objects: clusterObjects(),
      slow: { resource: 'v1/configmaps', delayMs: 3_000, times: 100 },
    });
    try {
      const { document } = await snapshotText({ url: api.url, requestTimeoutMs: 300, deadlineMs: 1_000 });
      expect(parseSnapshot(document)).toMatchObject({ ok: true });
      expect(document.scope.complete).toBe(false);
      const reasons = Object.fromEntries(document.scope.errors.map((e: any) => [e.resource, e.reason]));
      expect(reasons['v1/configmaps']).toMatch(/Timeout|DeadlineExceeded/);
      expect(Object.values(reasons)).toContain('DeadlineExceeded');
    } finally {
      await api.close();
    }
  });

  it('records a group whose discovery is down, unless the group is excluded', async () => {
    const api = await startKubeApiStandIn({ token: TOKEN, objects: clusterObjects(), brokenDiscovery: ['policy/v1'] });
    try {
      const { document } = await snapshotText({ url: api.url, scope: scope({ include: ['configmaps'] }) });
      expect(document.scope.errors).toEqual([
        expect.objectContaining({ resource: 'policy/v1', reason: 'ServiceUnavailable' }),
      ]);
      expect(document.scope.complete).toBe(false);
      const before = api.requests.length;
      const excluded = await snapshotText({ url: api.url, scope: scope({ exclude: ['*.policy'] }) });
      expect(excluded.document.scope).toEqual({ complete: true, errors: [], excluded: expect.any(Array) });
      expect(api.requests.slice(before)).not.toContain('/apis/policy/v1');
    } finally {
      await api.close();
    }
  });

  it('fails with the server answer when the credentials are refused', async () => {
    const api = await startKubeApiStandIn({ token: TOKEN, objects: [] });
    try {
      await expect(snapshotText({ url: api.url, token: 'wrong' })).rejects.toThrow(
        /401 Unauthorized.*check the kubeconfig user/,
      );
    } finally {
      await api.close();
    }
  });
});

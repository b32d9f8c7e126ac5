// Each rule the engine keeps, one table row per case: noise stays out, ops and causes are right,
// keyed lists match by key, quantities and int-or-string compare by value.
import { describe, expect, it } from 'vitest';
import { diffObject } from '../../../src/core/diff/index.js';
import type { FieldChange, KubeObject } from '../../../src/core/model/index.js';
import { configWith, deepMerge, deployment, managed } from './support.js';

const APPLIER = (fields: Record<string, unknown>) =>
  managed('kustomize-controller', fields, 'Apply', '2026-12-01T09:00:00Z');
const summary = (changes: FieldChange[]): string[] => changes.map((c) => `${c.op} ${c.path}`).sort();
const live = (patch: Record<string, unknown>): KubeObject =>
  deployment(deepMerge({ metadata: { creationTimestamp: '2026-11-01T00:00:00Z' } }, patch) as Record<string, unknown>);

describe('noise is not drift', () => {
  const rows: Array<{ name: string; desired?: Record<string, unknown>; live: Record<string, unknown> }> = [
    { name: 'status', live: { status: { replicas: 5, conditions: [{ type: 'Available', status: 'False' }] } } },
    {
      name: 'server-set metadata',
      live: {
        metadata: {
          uid: 'u',
          resourceVersion: '9',
          generation: 4,
          selfLink: '/x',
          deletionTimestamp: '2026-12-01T00:00:00Z',
          ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'y' }],
          managedFields: [],
        },
      },
    },
    {
      name: 'last-applied annotation',
      live: {
        metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"spec":{"replicas":9}}' } },
      },
    },
    {
      name: 'server-defaulted fields',
      live: {
        spec: {
          progressDeadlineSeconds: 600,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
          template: { spec: { dnsPolicy: 'ClusterFirst' } },
        },
      },
    },
    {
      name: 'a field a controller set',
      live: {
        metadata: {
          annotations: { 'deployment.kubernetes.io/revision': '3' },
          managedFields: [
            managed('kube-controller-manager', {
              'f:metadata': { 'f:annotations': { 'f:deployment.kubernetes.io/revision': {} } },
            }),
          ],
        },
      },
    },
    {
      name: 'defaulted protocol on a keyed port',
      live: {
        spec: {
          template: {
            spec: { containers: [{ name: 'app', image: 'api:1', ports: [{ containerPort: 8080, protocol: 'TCP' }] }] },
          },
        },
      },
    },
    {
      name: 'order of keyed lists',
      desired: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'a', image: 'a' },
                { name: 'b', image: 'b' },
              ],
            },
          },
        },
      },
      live: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'b', image: 'b' },
                { name: 'a', image: 'a' },
              ],
            },
          },
        },
      },
    },
    { name: 'empty map in Git, absent in live', desired: { metadata: { annotations: {} } }, live: {} },
    {
      name: 'empty list and null in Git',
      desired: { spec: { template: { spec: { tolerations: [], nodeSelector: null } } } },
      live: {},
    },
    {
      name: 'null in live (creationTimestamp: null in a template)',
      live: { spec: { template: { metadata: { creationTimestamp: null } } } },
    },
    {
      name: 'empty string and absent',
      desired: { spec: { template: { spec: { serviceAccountName: '' } } } },
      live: {},
    },
    { name: 'apiVersion the manifest was written in', desired: { apiVersion: 'apps/v1beta2' }, live: {} },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const result = diffObject(deployment(row.desired ?? {}), live(row.live), { config: configWith() });
      expect(result.changes).toEqual([]);
      expect(result.conflicts).toEqual([]);
    });
  }
});

describe('values compared by meaning', () => {
  const resources = (requests: Record<string, unknown>) => ({
    spec: {
      template: { spec: { containers: [{ name: 'app', image: 'api:1', resources: { requests, limits: requests } }] } },
    },
  });
  const rows: Array<[string, unknown, unknown, boolean]> = [
    ['500m = 0.5', '500m', 0.5, true],
    ['1Gi = 1024Mi', '1Gi', '1024Mi', true],
    ['1e3 = 1k', '1e3', '1k', true],
    ['1 = 1000m', 1, '1000m', true],
    ['1G ≠ 1Gi', '1G', '1Gi', false],
    ['100Mi ≠ 200Mi', '100Mi', '200Mi', false],
  ];
  for (const [name, desired, liveValue, equal] of rows) {
    it(`quantity ${name}`, () => {
      const result = diffObject(deployment(resources({ memory: desired })), live(resources({ memory: liveValue })), {});
      expect(result.changes.length === 0).toBe(equal);
      if (!equal)
        expect(summary(result.changes)).toEqual([
          'replace /spec/template/spec/containers/0/resources/limits/memory',
          'replace /spec/template/spec/containers/0/resources/requests/memory',
        ]);
    });
  }
  it('a string that looks like a quantity outside resources is compared as text', () => {
    const result = diffObject(
      deployment({ metadata: { labels: { size: '1Gi' } } }),
      live({ metadata: { labels: { size: '1024Mi' } } }),
      {},
    );
    expect(summary(result.changes)).toEqual(['replace /metadata/labels/size']);
  });
  it('int-or-string: targetPort 80 and "80"', () => {
    const svc = (targetPort: unknown): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'shop' },
      spec: { ports: [{ port: 80, targetPort }] },
    });
    expect(diffObject(svc(80), svc('80'), {}).changes).toEqual([]);
    expect(summary(diffObject(svc(80), svc('http'), {}).changes)).toEqual(['replace /spec/ports/0/targetPort']);
  });
});

describe('ops', () => {
  it('replace: both sides have the field, values differ; names manager, operation, time and cause', () => {
    const l = live({
      spec: { replicas: 8 },
      metadata: {
        managedFields: [
          APPLIER({ 'f:spec': { 'f:replicas': {} } }),
          managed('kubectl-scale', { 'f:spec': { 'f:replicas': {} } }, 'Update', '2026-12-02T03:02:11Z', 'scale'),
        ],
      },
    });
    const [change] = diffObject(deployment(), l, {}).changes;
    expect(change).toEqual({
      path: '/spec/replicas',
      segments: ['spec', 'replicas'],
      op: 'replace',
      desired: 2,
      live: 8,
      manager: 'kubectl-scale',
      operation: 'Update',
      time: '2026-12-02T03:02:11Z',
      cause: 'human',
      managers: ['kustomize-controller', 'kubectl-scale'],
    });
  });
  it('add: an env var added with kubectl edit, named by its merge key', () => {
    const l = live({
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'app', image: 'api:1', ports: [{ containerPort: 8080 }], env: [{ name: 'DEBUG', value: '1' }] },
            ],
          },
        },
      },
      metadata: {
        managedFields: [
          managed('kubectl-edit', {
            'f:spec': {
              'f:template': {
                'f:spec': {
                  'f:containers': {
                    'k:{"name":"app"}': {
                      'f:env': { '.': {}, 'k:{"name":"DEBUG"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                    },
                  },
                },
              },
            },
          }),
        ],
      },
    });
    const changes = diffObject(deployment(), l, {}).changes;
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      op: 'add',
      path: '/spec/template/spec/containers/0/env/0',
      live: { name: 'DEBUG', value: '1' },
      manager: 'kubectl-edit',
      cause: 'human',
      segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'app' } }, 'env', { key: { name: 'DEBUG' } }],
    });
  });
  it('add: an annotation set by an unknown tool', () => {
    const l = live({
      metadata: {
        annotations: { team: 'x' },
        managedFields: [managed('my-script', { 'f:metadata': { 'f:annotations': { '.': {}, 'f:team': {} } } })],
      },
    });
    expect(diffObject(deployment(), l, {}).changes.map((c) => [c.op, c.path, c.cause])).toEqual([
      ['add', '/metadata/annotations/team', 'unknown'],
    ]);
  });
  it('no add from the Update that created the object: it owns every default', () => {
    const l = live({
      spec: { progressDeadlineSeconds: 600 },
      metadata: {
        managedFields: [
          managed(
            'kubectl-create',
            { 'f:spec': { 'f:progressDeadlineSeconds': {} } },
            'Update',
            '2026-11-01T00:00:00Z',
          ),
        ],
      },
    });
    expect(diffObject(deployment(), l, {}).changes).toEqual([]);
  });
  it('no add from ownership inherited from an atomic parent', () => {
    const l = live({
      spec: {
        template: {
          spec: { containers: [{ name: 'app', image: 'api:1', ports: [{ containerPort: 8080 }], args: ['--x'] }] },
        },
      },
      metadata: { managedFields: [managed('kubectl-edit', { 'f:spec': { 'f:selector': {} } })] },
    });
    l.spec = { ...(l.spec as object), selector: { matchLabels: { app: 'api', extra: 'y' } } };
    expect(diffObject(deployment(), l, {}).changes).toEqual([]);
  });
  it('remove: the applier owns a field Git no longer declares', () => {
    const l = live({
      metadata: {
        labels: { tier: 'web' },
        managedFields: [APPLIER({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } })],
      },
    });
    expect(diffObject(deployment(), l, {}).changes.map((c) => [c.op, c.path, c.manager, c.cause])).toEqual([
      ['remove', '/metadata/labels/tier', 'kustomize-controller', 'applier'],
    ]);
  });
  it('remove: a keyed item the applier applied and Git dropped', () => {
    const l = live({
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'app', image: 'api:1', ports: [{ containerPort: 8080 }] },
              { name: 'sidecar', image: 's' },
            ],
          },
        },
      },
      metadata: {
        managedFields: [
          APPLIER({
            'f:spec': {
              'f:template': {
                'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:name': {}, 'f:image': {} } } },
              },
            },
          }),
        ],
      },
    });
    const changes = diffObject(deployment(), l, {}).changes;
    expect(changes.map((c) => [c.op, c.path])).toEqual([['remove', '/spec/template/spec/containers/1']]);
    expect(changes[0]!.segments.at(-1)).toEqual({ key: { name: 'sidecar' } });
  });
  it('configured appliers count as appliers', () => {
    const l = live({
      metadata: {
        labels: { tier: 'web' },
        managedFields: [managed('our-ci', { 'f:metadata': { 'f:labels': { 'f:tier': {} } } }, 'Apply')],
      },
    });
    expect(
      diffObject(deployment(), l, { config: configWith({ appliers: ['our-*'] }) }).changes.map((c) => c.op),
    ).toEqual(['remove']);
    expect(diffObject(deployment(), l, { config: configWith() }).changes.map((c) => c.op)).toEqual(['add']);
  });
  it('kubectl apply (server-side, manager kubectl) is the applier when no GitOps applier is present', () => {
    const l = live({
      metadata: {
        labels: { tier: 'web' },
        managedFields: [managed('kubectl', { 'f:metadata': { 'f:labels': { 'f:tier': {} } } }, 'Apply')],
      },
    });
    expect(diffObject(deployment(), l, {}).changes.map((c) => [c.op, c.cause])).toEqual([['remove', 'applier']]);
  });
  it('a desired field live lacks is a replace with no live value', () => {
    const changes = diffObject(deployment({ spec: { minReadySeconds: 5 } }), live({}), {}).changes;
    expect(changes).toEqual([
      {
        path: '/spec/minReadySeconds',
        segments: ['spec', 'minReadySeconds'],
        op: 'replace',
        desired: 5,
        cause: 'unknown',
      },
    ]);
  });
});

describe('conflicts', () => {
  const hpa = managed(
    'horizontal-pod-autoscaler',
    { 'f:spec': { 'f:replicas': {} } },
    'Update',
    '2026-12-02T01:00:00Z',
    'scale',
  );
  it('Git declares replicas that the HPA owns, even when the values are equal', () => {
    const { conflicts, changes } = diffObject(deployment(), live({ metadata: { managedFields: [hpa] } }), {});
    expect(changes).toEqual([]);
    expect(conflicts).toEqual([
      {
        path: '/spec/replicas',
        segments: ['spec', 'replicas'],
        manager: 'horizontal-pod-autoscaler',
        time: '2026-12-02T01:00:00Z',
        desired: 2,
        live: 2,
        fix: 'remove `spec.replicas` from Git (horizontal-pod-autoscaler owns it), or add an ignore rule for `/spec/replicas` with `managers: [horizontal-pod-autoscaler]`',
      },
    ]);
  });
  it('different values: a replace caused by the controller plus the conflict', () => {
    const { conflicts, changes } = diffObject(
      deployment(),
      live({ spec: { replicas: 7 }, metadata: { managedFields: [hpa] } }),
      {},
    );
    expect(changes.map((c) => [c.path, c.cause, c.manager])).toEqual([
      ['/spec/replicas', 'controller', 'horizontal-pod-autoscaler'],
    ]);
    expect(conflicts).toHaveLength(1);
  });
  it('no conflict when Git does not declare the field', () => {
    const d = deployment();
    delete (d.spec as Record<string, unknown>).replicas;
    const result = diffObject(d, live({ spec: { replicas: 7 }, metadata: { managedFields: [hpa] } }), {});
    expect(result).toEqual({ changes: [], conflicts: [] });
  });
  it('no conflict with a human owner', () => {
    const result = diffObject(
      deployment(),
      live({ metadata: { managedFields: [managed('kubectl-scale', { 'f:spec': { 'f:replicas': {} } })] } }),
      {},
    );
    expect(result.conflicts).toEqual([]);
  });
});

describe('keyed lists', () => {
  const ports = (list: unknown[]): Record<string, unknown> => ({
    spec: { template: { spec: { containers: [{ name: 'app', image: 'api:1', ports: list }] } } },
  });
  it('container ports are keyed by containerPort and protocol: 53/TCP and 53/UDP are two items', () => {
    const d = deployment(ports([{ containerPort: 53 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }]));
    const l = live(
      ports([
        { containerPort: 53, protocol: 'UDP', name: 'dns-udp' },
        { containerPort: 53, protocol: 'TCP' },
      ]),
    );
    const changes = diffObject(d, l, {}).changes;
    expect(changes.map((c) => [c.path, c.desired, c.live])).toEqual([
      ['/spec/template/spec/containers/0/ports/1/name', 'dns', 'dns-udp'],
    ]);
    expect(changes[0]!.segments[6]).toEqual({ key: { containerPort: 53, protocol: 'UDP' } });
  });
  it('a port Git declares without protocol matches the live TCP port', () => {
    const d = deployment(ports([{ containerPort: 80, name: 'a' }]));
    const l = live(ports([{ containerPort: 80, protocol: 'TCP', name: 'b' }]));
    const [change] = diffObject(d, l, {}).changes;
    expect(change).toMatchObject({
      path: '/spec/template/spec/containers/0/ports/0/name',
      segments: [...change!.segments.slice(0, 6), { key: { containerPort: 80 } }, 'name'],
    });
  });
  it('service ports keyed by port and protocol', () => {
    const svc = (list: unknown[]): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'shop' },
      spec: { ports: list },
    });
    const changes = diffObject(
      svc([
        { port: 443, targetPort: 8443 },
        { port: 443, protocol: 'UDP', targetPort: 8443 },
      ]),
      svc([
        { port: 443, protocol: 'UDP', targetPort: 9443 },
        { port: 443, protocol: 'TCP', targetPort: 8443 },
      ]),
      {},
    ).changes;
    expect(changes.map((c) => [c.path, c.desired, c.live])).toEqual([['/spec/ports/1/targetPort', 8443, 9443]]);
  });
  it('path indexes are desired indexes; a live-only item uses its live index', () => {
    const d = deployment({ spec: { template: { spec: { containers: [{ name: 'a', image: 'a:1' }] } } } });
    const l = live({
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'b', image: 'b' },
              { name: 'a', image: 'a:2' },
            ],
          },
        },
      },
      metadata: {
        managedFields: [
          managed('kubectl-patch', {
            'f:spec': {
              'f:template': {
                'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
              },
            },
          }),
        ],
      },
    });
    expect(summary(diffObject(d, l, {}).changes)).toEqual([
      'add /spec/template/spec/containers/0',
      'replace /spec/template/spec/containers/0/image',
    ]);
  });
  it('lists of unknown kinds are atomic: compared item by item, desired ⊆ live', () => {
    const crd = (items: unknown[]): KubeObject => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'shop' },
      spec: { items },
    });
    expect(diffObject(crd([{ name: 'a' }]), crd([{ name: 'a', weight: 1 }]), {}).changes).toEqual([]);
    const reordered = diffObject(crd([{ name: 'a' }, { name: 'b' }]), crd([{ name: 'b' }, { name: 'a' }]), {}).changes;
    expect(reordered.map((c) => [c.path, c.op])).toEqual([['/spec/items', 'replace']]);
    expect(
      diffObject(crd([{ name: 'a' }]), crd([{ name: 'a' }, { name: 'b' }]), {}).changes.map((c) => c.path),
    ).toEqual(['/spec/items']);
  });
  it('atomic scalar lists (args) change as a whole', () => {
    const args = (a: string[]): Record<string, unknown> => ({
      spec: { template: { spec: { containers: [{ name: 'app', image: 'api:1', args: a }] } } },
    });
    const changes = diffObject(deployment(args(['--a', '--b'])), live(args(['--a', '--c'])), {}).changes;
    expect(changes.map((c) => [c.path, c.desired, c.live])).toEqual([
      ['/spec/template/spec/containers/0/args', ['--a', '--b'], ['--a', '--c']],
    ]);
  });
  it('Job and CronJob pod templates are keyed too', () => {
    const cron = (containers: unknown[]): KubeObject => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c', namespace: 'shop' },
      spec: { jobTemplate: { spec: { template: { spec: { containers } } } } },
    });
    expect(
      diffObject(
        cron([
          { name: 'a', image: 'a' },
          { name: 'b', image: 'b' },
        ]),
        cron([
          { name: 'b', image: 'b' },
          { name: 'a', image: 'a' },
        ]),
        {},
      ).changes,
    ).toEqual([]);
  });
});

describe('Secrets', () => {
  const secret = (fields: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'shop' },
    type: 'Opaque',
    ...fields,
  });
  const b64 = (text: string): string => Buffer.from(text).toString('base64');
  it('stringData in Git equals base64 data in live', () => {
    expect(
      diffObject(secret({ stringData: { password: 'hunter2' } }), secret({ data: { password: b64('hunter2') } }), {})
        .changes,
    ).toEqual([]);
  });
  it('a hashed live value cannot be compared: equal when the key set matches', () => {
    expect(
      diffObject(
        secret({ stringData: { password: 'hunter2' } }),
        secret({ data: { password: 'sha256:' + 'a'.repeat(64) } }),
        {},
      ).changes,
    ).toEqual([]);
  });
  it('a different value is reported masked', () => {
    const changes = diffObject(
      secret({ stringData: { password: 'new' } }),
      secret({ data: { password: b64('old') } }),
      {},
    ).changes;
    expect(changes).toEqual([
      expect.objectContaining({
        path: '/data/password',
        desired: '‹from Secret shop/s›',
        live: '‹from Secret shop/s›',
      }),
    ]);
  });
  it('a key set that differs is reported, values masked both ways', () => {
    const changes = diffObject(
      secret({ data: { a: b64('1') } }),
      secret({ data: { b: 'sha256:' + 'b'.repeat(64) } }),
      {},
    ).changes;
    expect(changes.map((c) => [c.op, c.path, c.desired, c.live]).sort()).toEqual([
      ['add', '/data/b', undefined, '‹from Secret shop/s›'],
      ['replace', '/data/a', '‹from Secret shop/s›', undefined],
    ]);
    expect(JSON.stringify(changes)).not.toContain('sha256');
  });
});

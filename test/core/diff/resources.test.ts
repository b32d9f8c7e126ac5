// The whole comparison: pairing by key, missing / extra / unlisted, controller-made objects, scope,
// ignore rules, health and the summary.
import { describe, expect, it } from 'vitest';
import { diffResources } from '../../../src/core/diff/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { configWith, deployment, desiredOf, managed } from './support.js';

const configMap = (name: string, namespace = 'shop', metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...metadata },
  data: { a: '1' },
});
const statuses = (result: ReturnType<typeof diffResources>): string[] =>
  result.resources.map((r) => `${r.status} ${r.key.kind}/${r.key.name}`);

describe('pairing and statuses', () => {
  it('in-sync, modified, missing and extra, sorted by key, with the summary', () => {
    const handMade = configMap('debug', 'shop', {
      managedFields: [managed('kubectl-create', { 'f:data': { 'f:a': {} } }, 'Update', '2026-12-01T08:00:00Z')],
    });
    const result = diffResources(
      [desiredOf(deployment()), desiredOf(configMap('settings')), desiredOf(configMap('gone'))],
      [deployment({ spec: { replicas: 5 } }), configMap('settings'), handMade],
      { config: configWith() },
    );
    expect(statuses(result)).toEqual([
      'extra ConfigMap/debug',
      'missing ConfigMap/gone',
      'in-sync ConfigMap/settings',
      'modified Deployment/api',
    ]);
    expect(result.summary).toEqual({ inSync: 1, modified: 1, missing: 1, extra: 1, ignored: 0, conflicts: 0 });
    expect(result.resources[0]!.createdBy).toEqual({
      manager: 'kubectl-create',
      cause: 'human',
      time: '2026-12-01T08:00:00Z',
    });
  });
  it('every resource with a live object carries health', () => {
    const result = diffResources(
      [desiredOf(configMap('settings')), desiredOf(configMap('gone'))],
      [configMap('settings'), configMap('extra')],
      { config: configWith() },
    );
    for (const resource of result.resources) expect(resource.health !== undefined).toBe(resource.live !== undefined);
  });
  it('pairs by group, kind, namespace and name, not by version', () => {
    const old = { ...deployment(), apiVersion: 'apps/v1beta2' };
    expect(statuses(diffResources([desiredOf(old)], [deployment()], { config: configWith() }))).toEqual([
      'in-sync Deployment/api',
    ]);
  });
});

describe('objects the cluster made are noise, not extra', () => {
  const rows: Array<[string, KubeObject]> = [
    ['kube-root-ca.crt', configMap('kube-root-ca.crt')],
    [
      'the default ServiceAccount',
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'shop' } },
    ],
    [
      'an object with a controller ownerReference',
      configMap('owned', 'shop', {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', controller: true }],
      }),
    ],
    [
      'an object a controller created',
      configMap('made', 'shop', { managedFields: [managed('cert-manager-cainjector', { 'f:data': {} })] }),
    ],
  ];
  for (const [name, obj] of rows) {
    it(name, () => {
      expect(diffResources([], [obj], { config: configWith() }).resources).toEqual([]);
    });
  }
  it('an object the applier created that Git no longer declares is extra', () => {
    const stale = configMap('old', 'shop', {
      managedFields: [managed('kustomize-controller', { 'f:data': {} }, 'Apply')],
    });
    expect(diffResources([], [stale], { config: configWith() }).resources[0]).toMatchObject({
      status: 'extra',
      createdBy: { manager: 'kustomize-controller', cause: 'applier' },
    });
  });
});

describe('scope and partial snapshots', () => {
  it('live objects outside the namespaces in scope are not extra', () => {
    const result = diffResources([], [configMap('a', 'shop'), configMap('b', 'other')], {
      config: configWith(),
      namespaces: ['shop'],
    });
    expect(statuses(result)).toEqual(['extra ConfigMap/a']);
  });
  it('an empty namespace list means every namespace', () => {
    const result = diffResources([], [configMap('a', 'shop'), configMap('b', 'other')], {
      config: configWith(),
      namespaces: [],
    });
    expect(statuses(result).sort()).toEqual(['extra ConfigMap/a', 'extra ConfigMap/b']);
  });
  it('a desired object in a namespace outside the scope is not claimed missing', () => {
    const result = diffResources([desiredOf(configMap('a', 'elsewhere'))], [], {
      config: configWith(),
      namespaces: ['shop'],
    });
    expect(result.resources).toEqual([]);
  });
  it('a type the snapshot could not list is never missing', () => {
    const sts: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'shop' },
      spec: {},
    };
    const result = diffResources([desiredOf(sts), desiredOf(deployment())], [], {
      config: configWith(),
      scope: { complete: false, errors: [{ resource: 'apps/v1/statefulsets' }] },
    });
    expect(statuses(result)).toEqual(['missing Deployment/api']);
    expect(result.unlisted).toEqual(['apps/v1/statefulsets']);
  });
  it('unlisted entries may name group and kind', () => {
    const scope = { complete: false, errors: [{ group: '', kind: 'ConfigMap', resource: 'configmaps' }] };
    const result = diffResources([desiredOf(configMap('a'))], [], { config: configWith(), scope });
    expect(result.resources).toEqual([]);
  });
  it('a snapshot of some namespaces claims no cluster-scoped object missing', () => {
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
    };
    const namespace: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
    const result = diffResources([desiredOf(role, ''), desiredOf(namespace, ''), desiredOf(configMap('a'))], [], {
      config: configWith(),
      scope: { namespaces: ['shop'], complete: true, errors: [] },
    });
    // The agent lists a namespaced run's own Namespace objects: that one is proven missing.
    expect(statuses(result)).toEqual(['missing ConfigMap/a', 'missing Namespace/shop']);
  });
  it('a type named by its plural in the scope errors (v1/endpoints) is never missing', () => {
    const endpoints: KubeObject = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'db', namespace: 'shop' } };
    const scope = { complete: false, errors: [{ resource: 'v1/endpoints' }] };
    const result = diffResources([desiredOf(endpoints)], [], { config: configWith(), scope });
    expect(result.resources).toEqual([]);
  });
  it('a type the agent left out on purpose is never missing, and not listed as a failure', () => {
    const endpoints: KubeObject = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'db', namespace: 'shop' } };
    const excluded = [{ resource: 'v1/endpoints', group: '', kind: 'Endpoints' }];
    const scope = { complete: true, errors: [], excluded };
    const desired = [desiredOf(endpoints), desiredOf(configMap('a'))];
    const result = diffResources(desired, [], { config: configWith(), scope });
    expect(statuses(result)).toEqual(['missing ConfigMap/a']);
    expect(result.unlisted).toEqual([]);
  });
  it('an incomplete snapshot that does not say what failed claims nothing missing', () => {
    const scope = { complete: false, errors: [] };
    const result = diffResources([desiredOf(configMap('a'))], [], { config: configWith(), scope });
    expect(result.resources).toEqual([]);
    expect(result.unlisted.length).toBe(1);
  });
});

describe('ignore rules', () => {
  const modifiedCm = (name: string, namespace = 'shop'): KubeObject => ({
    ...configMap(name, namespace),
    data: { a: '2' },
  });
  const run = (rule: Record<string, unknown>, name = 'settings', namespace = 'shop') =>
    diffResources([desiredOf(configMap(name, namespace))], [modifiedCm(name, namespace)], {
      config: configWith({ ignore: [{ reason: 'because', ...rule }] }),
    });
  const rows: Array<[string, Record<string, unknown>, boolean]> = [
    ['exact path', { paths: ['/data/a'] }, true],
    ['path above the change', { paths: ['/data'] }, true],
    ['* segment', { paths: ['/*/a'] }, true],
    ['other path', { paths: ['/data/b'] }, false],
    ['field as driftback prints it', { paths: ['data.a'] }, true],
    ['printed field above the change', { paths: ['data'] }, true],
    ['* in a printed field', { paths: ['*.a'] }, true],
    ['quoted key in a printed field', { paths: ['data["a"]'] }, true],
    ['other printed field', { paths: ['data.b'] }, false],
    ['kind', { kinds: ['ConfigMap'] }, true],
    ['other kind', { kinds: ['Secret'] }, false],
    ['core group', { groups: [''] }, true],
    ['other group', { groups: ['apps'] }, false],
    ['name glob', { names: ['sett*'] }, true],
    ['name glob that misses', { names: ['web-*'] }, false],
    ['namespace glob', { namespaces: ['sh?p'] }, true],
    ['namespace glob that misses', { namespaces: ['prod-*'] }, false],
  ];
  for (const [name, rule, matches] of rows) {
    it(`${name} ${matches ? 'matches' : 'does not match'}`, () => {
      const result = run(rule);
      const resource = result.resources[0]!;
      expect(resource.ignored.length).toBe(matches ? 1 : 0);
      expect(resource.changes.length).toBe(matches ? 0 : 1);
      expect(resource.status).toBe(matches ? 'in-sync' : 'modified');
      expect(result.summary.ignored).toBe(matches ? 1 : 0);
      if (matches) expect(resource.ignored[0]!.ignored).toEqual({ reason: 'because' });
    });
  }
  it('manager globs match any owner of the field', () => {
    const l = {
      ...modifiedCm('settings'),
      metadata: {
        name: 'settings',
        namespace: 'shop',
        managedFields: [
          managed('kustomize-controller', { 'f:data': { 'f:a': {} } }, 'Apply'),
          managed('Mozilla/5.0 (X11)', { 'f:data': { 'f:a': {} } }),
        ],
      },
    };
    const result = diffResources([desiredOf(configMap('settings'))], [l], {
      config: configWith({ ignore: [{ managers: ['Mozilla/*'], reason: 'ui' }] }),
    });
    expect(result.resources[0]!.ignored.map((c) => [c.path, c.manager, c.cause])).toEqual([
      ['/data/a', 'Mozilla/5.0 (X11)', 'human'],
    ]);
  });
  it('an ignore rule settles a conflict', () => {
    const l = deployment({
      metadata: { managedFields: [managed('horizontal-pod-autoscaler', { 'f:spec': { 'f:replicas': {} } })] },
    });
    const withRule = diffResources([desiredOf(deployment())], [l], {
      config: configWith({
        ignore: [
          { kinds: ['Deployment'], paths: ['/spec/replicas'], managers: ['horizontal-pod-autoscaler'], reason: 'HPA' },
        ],
      }),
    });
    const withoutRule = diffResources([desiredOf(deployment())], [l], { config: configWith() });
    const withPrintedRule = diffResources([desiredOf(deployment())], [l], {
      config: configWith({ ignore: [{ kinds: ['Deployment'], paths: ['spec.replicas'], reason: 'HPA' }] }),
    });
    expect(withPrintedRule.summary.conflicts).toBe(0);
    expect(withRule.summary.conflicts).toBe(0);
    expect(withoutRule.summary.conflicts).toBe(1);
    expect(withoutRule.resources[0]!.status).toBe('in-sync');
  });

  describe('a printed field names a list item by its key, wherever the item is', () => {
    const containers = (...items: Array<[string, string]>) => ({
      spec: { template: { spec: { containers: items.map(([name, image]) => ({ name, image })) } } },
    });
    // Live: the sidecar's image set by hand. Git lists the containers in either order.
    const live = deployment(containers(['app', 'api:1'], ['sidecar', 'proxy:2']));
    const ignored = (paths: string[], git: KubeObject) =>
      diffResources([desiredOf(git)], [live], {
        config: configWith({ ignore: [{ kinds: ['Deployment'], paths, reason: 'mesh' }] }),
      }).resources[0]!;
    const gitBefore = deployment(containers(['app', 'api:1'], ['sidecar', 'proxy:1']));
    const gitReordered = deployment(containers(['sidecar', 'proxy:1'], ['app', 'api:1']));

    it('a keyed rule still matches after the containers are reordered', () => {
      for (const git of [gitBefore, gitReordered]) {
        const resource = ignored(['spec.template.spec.containers[sidecar].image'], git);
        expect(resource.ignored.map((c) => c.live)).toEqual(['proxy:2']);
        expect(resource.changes).toEqual([]);
      }
      expect(ignored(['spec.template.spec.containers[app]'], gitReordered).ignored).toEqual([]);
      expect(ignored(['spec.template.spec.containers[*].image'], gitReordered).ignored).toHaveLength(1);
    });

    it('a port rule without its protocol ignores the TCP port, and only it', () => {
      const ports = (tcp: number, udp: number) => ({
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'api:1',
                  ports: [
                    { containerPort: 8080, hostPort: tcp },
                    { containerPort: 8080, protocol: 'UDP', hostPort: udp },
                  ],
                },
              ],
            },
          },
        },
      });
      const diff = (paths: string[]) =>
        diffResources([desiredOf(deployment(ports(1, 1)))], [deployment(ports(2, 2))], {
          config: configWith({ ignore: [{ kinds: ['Deployment'], paths, reason: 'host ports' }] }),
        }).resources[0]!;
      const fields = (changes: ReadonlyArray<{ path: string }>) => changes.map((c) => c.path);
      const tcpPort = '/spec/template/spec/containers/0/ports/0/hostPort';
      const udpPort = '/spec/template/spec/containers/0/ports/1/hostPort';
      for (const rule of [
        'spec.template.spec.containers[app].ports[8080]',
        'spec.template.spec.containers[app].ports[8080/TCP]',
      ]) {
        const resource = diff([rule]);
        expect(fields(resource.ignored)).toEqual([tcpPort]);
        expect(fields(resource.changes)).toEqual([udpPort]);
      }
      expect(fields(diff(['spec.template.spec.containers[app].ports[8080/UDP]']).ignored)).toEqual([udpPort]);
    });

    it('the index pointer form still matches the item at that index', () => {
      expect(ignored(['/spec/template/spec/containers/1/image'], gitBefore).ignored).toHaveLength(1);
      expect(ignored(['/spec/template/spec/containers/*/image'], gitReordered).ignored).toHaveLength(1);
      // The pointer names a position: after the reorder, index 1 is the app container.
      expect(ignored(['/spec/template/spec/containers/1/image'], gitReordered).ignored).toEqual([]);
    });
  });
});

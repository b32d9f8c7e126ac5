// Every real repository tree in the shared fixtures renders with the objects, namespaces and values
// that `kubectl apply -f` / `kustomize build` would produce.
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { readFixtureTree } from '../../support/fixtures.js';
import { find } from './helpers.js';

const ids = (result: ReturnType<typeof renderManifests>): string[] =>
  result.objects.map((o) => `${o.key.kind}/${o.key.namespace}/${o.key.name}`).sort();

describe('fixture trees', () => {
  it('renders the plain guestbook: single files, the multi-document all-in-one and legacy ReplicationControllers', () => {
    const files = readFixtureTree('manifests/kubernetes-examples/web/guestbook');
    const result = renderManifests(files, '');
    expect(result.errors).toEqual([]);
    expect(result.filesRead).toHaveLength(files.size);
    // all-in-one/ declares the objects of the single files again; kubectl applies it first (its walk is
    // lexical), so the single files' declarations are the ones the cluster holds: 9 objects, not 19.
    expect(result.objects).toHaveLength(9);
    expect(result.objects.some((o) => o.source.file.startsWith('all-in-one/'))).toBe(false);
    const allInOne = result.skipped.filter((d) => d.file === 'all-in-one/guestbook-all-in-one.yaml');
    expect(allInOne.map((d) => d.document)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(allInOne.every((d) => d.code === 'declared-again')).toBe(true);
    expect(allInOne[0]!.reason).toBe(
      'Service/default/redis-master is declared again at redis-master-service.yaml:1: the last declaration is the one applied (kubectl apply; Argo CD keeps the last), so all-in-one/guestbook-all-in-one.yaml:1 is not compared',
    );
    expect(result.skipped).toHaveLength(10);
    const rcs = result.objects.filter((o) => o.key.kind === 'ReplicationController');
    expect(rcs.map((o) => o.key.name).sort()).toEqual(['frontend', 'redis-master', 'redis-replica']);
    expect(
      result.objects.every((o) => o.key.namespace === 'default' && o.object.metadata.namespace === 'default'),
    ).toBe(true);
    expect(result.objects.every((o) => o.source.kustomizations.length === 0)).toBe(true);
  });

  it('gives a plain directory the default namespace from the options', () => {
    const result = renderManifests(readFixtureTree('manifests/kubernetes-examples/web/guestbook'), 'legacy', {
      defaultNamespace: 'guestbook',
    });
    expect(ids(result)).toEqual([
      'ReplicationController/guestbook/frontend',
      'ReplicationController/guestbook/redis-master',
      'ReplicationController/guestbook/redis-replica',
    ]);
  });

  it('builds the microservices-demo kustomization, leaving out the commented-out loadgenerator', () => {
    const files = readFixtureTree('manifests/microservices-demo/kubernetes-manifests');
    const result = renderManifests(files, '');
    expect(result.errors).toEqual([]);
    expect(result.objects).toHaveLength(33);
    expect(result.objects.some((o) => o.source.file === 'loadgenerator.yaml')).toBe(false);
    expect(result.filesRead).not.toContain('loadgenerator.yaml');
    expect(result.filesRead).toContain('kustomization.yaml');
    const frontend = find(result, 'Deployment', 'frontend');
    expect(frontend.key).toEqual({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'frontend' });
    expect(frontend.source.kustomizations).toEqual(['kustomization.yaml']);
    expect(find(result, 'Service', 'frontend-external').object.spec).toMatchObject({ type: 'LoadBalancer' });
  });

  it.each([
    ['staging', '>=1.0.0-alpha', ['podinfo.staging'], { enable: false }],
    ['production', '>=1.0.0', ['podinfo.production'], undefined],
  ])('builds the flux2 %s overlay, patching the base HelmRelease', (overlay, version, hostnames, test) => {
    const files = readFixtureTree('manifests/flux2-kustomize-helm-example/apps');
    const result = renderManifests(files, overlay);
    expect(result.errors).toEqual([]);
    expect(ids(result)).toEqual([
      'HelmRelease/podinfo/podinfo',
      'HelmRepository/podinfo/podinfo',
      'Namespace//podinfo',
    ]);
    const release = find(result, 'HelmRelease', 'podinfo');
    const spec = release.object.spec as Record<string, any>;
    expect(spec.chart.spec).toEqual({
      chart: 'podinfo',
      sourceRef: { kind: 'HelmRepository', name: 'podinfo' },
      version,
    });
    expect(spec.values.httpRoute.hostnames).toEqual(hostnames);
    expect(spec.values.httpRoute.enabled).toBe(true);
    expect(spec.values.redis.tag).toBe('8.6.2');
    expect(spec.test).toEqual(test);
    expect(release.source.kustomizations).toEqual(['base/podinfo/kustomization.yaml', `${overlay}/kustomization.yaml`]);
    expect(release.source.fields['/spec/chart/spec/version'].origin).toMatchObject({
      type: 'patch',
      kustomization: `${overlay}/kustomization.yaml`,
      file: `${overlay}/podinfo-values.yaml`,
    });
    expect(release.source.fields['/spec/interval'].origin).toEqual({ type: 'resource' });
    const namespace = find(result, 'Namespace', 'podinfo');
    expect(namespace.object.metadata.namespace).toBeUndefined();
    expect(result.filesRead.sort()).toEqual(
      [
        'base/podinfo/kustomization.yaml',
        'base/podinfo/namespace.yaml',
        'base/podinfo/release.yaml',
        'base/podinfo/repository.yaml',
        `${overlay}/kustomization.yaml`,
        `${overlay}/podinfo-values.yaml`,
      ].sort(),
    );
  });

  it('builds the Argo CD e2e guestbook kustomization with its quoted label and zero replicas', () => {
    const result = renderManifests(readFixtureTree('manifests/argo-cd/test/e2e/testdata/guestbook'), '', {
      defaultNamespace: 'argocd-e2e',
    });
    expect(result.errors).toEqual([]);
    expect(ids(result)).toEqual(['Deployment/argocd-e2e/guestbook-ui', 'Service/argocd-e2e/guestbook-ui']);
    const deployment = find(result, 'Deployment', 'guestbook-ui');
    expect(deployment.object.metadata.labels).toEqual({ test: 'true' });
    expect((deployment.object.spec as any).replicas).toBe(0);
  });
});

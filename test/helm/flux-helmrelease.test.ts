// A Flux HelmRelease whose chart is a path of this repository's GitRepository, rendered by the pinned
// Helm as helm-controller renders it, compared object for object with `helm template` run directly on
// the same chart and values (hooks left out, as Flux leaves them out of the release manifest).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { chartFiles, helmTemplateObjects, withoutStamps } from '../support/charts.js';
import { pinnedHelm } from '../support/tools.js';

const helm = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!helm.found) throw new Error(helm.reason);

/** `helm template` run directly, its documents as objects. */
function helmTemplate(fixture: string, args: string[]): KubeObject[] {
  return helmTemplateObjects(args[0]!, join(REPO_ROOT, 'test/fixtures', fixture), args.slice(1));
}

function byKey(objects: KubeObject[]): Map<string, KubeObject> {
  return new Map(objects.map((obj) => [`${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`, obj]));
}

const HELMRELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: webapp
  namespace: flux-system
spec:
  interval: 10m
  targetNamespace: shop
  chart:
    spec:
      chart: ./charts/webapp
      sourceRef:
        kind: GitRepository
        name: flux-system
  valuesFrom:
    - kind: ConfigMap
      name: webapp-values
    - kind: ConfigMap
      name: webapp-values
      valuesKey: tag
      targetPath: image.tag
    - kind: Secret
      name: webapp-secrets
      valuesKey: token
      targetPath: extraEnv.API_TOKEN
  values:
    replicaCount: 2
`;

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: webapp-values
  namespace: flux-system
data:
  values.yaml: |
    replicaCount: 5
    extraEnv:
      LOG_LEVEL: debug
  tag: "2.2.0"
`;

function repository(): Map<string, string> {
  const files = chartFiles('charts/webapp', 'charts/webapp');
  files.set('clusters/prod/release.yaml', HELMRELEASE);
  files.set('clusters/prod/values.yaml', CONFIGMAP);
  return files;
}

const SERVER = {
  gitVersion: 'v1.32.3',
  resources: [{ group: 'monitoring.coreos.com', version: 'v1', kind: 'ServiceMonitor', namespaced: true }],
};

describe('a Flux HelmRelease with a chart from this repository', () => {
  const charts = createChartRenderer({ helm: helm.helm });
  const rendered = renderCluster(
    repository(),
    { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' },
    { live: { items: [], server: SERVER }, charts },
  );

  it('renders what helm template renders with the values merged in Flux order', () => {
    expect(rendered.errors).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'values-'));
    // Flux's order: valuesFrom (the ConfigMap's values.yaml, then tag at image.tag, then the Secret), then spec.values.
    writeFileSync(
      join(dir, 'v.yaml'),
      'replicaCount: 2\nextraEnv:\n  LOG_LEVEL: debug\n  API_TOKEN: from-the-secret\nimage:\n  tag: "2.2.0"\n',
    );
    const expected = helmTemplate('charts/webapp', [
      'shop-webapp',
      '--namespace',
      'shop',
      '--no-hooks',
      '--include-crds',
      '--kube-version',
      'v1.32.3',
      '--api-versions',
      'monitoring.coreos.com/v1/ServiceMonitor',
      '--values',
      join(dir, 'v.yaml'),
    ]);
    const ours = rendered.objects
      .filter((desired) => desired.object.metadata?.labels?.['helm.toolkit.fluxcd.io/name'] === 'webapp')
      .map((desired) => withoutStamps(desired.object));
    const theirs = byKey(expected);
    expect(ours.length).toBe(theirs.size);
    for (const obj of ours) {
      const key = `${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`;
      const want = structuredClone(theirs.get(key) ?? theirs.get(key.replace('/shop/', '//')));
      expect(want, key).toBeDefined();
      // Helm prints namespaced objects without a namespace; Flux installs them in the target namespace.
      if (!want!.metadata!.namespace && obj.metadata?.namespace === 'shop') want!.metadata!.namespace = 'shop';
      // The Secret-sourced value is not checked: the env var stays, its value says where it comes from.
      for (const env of (want as any).spec?.template?.spec?.containers?.[0]?.env ?? []) {
        if (env.name === 'API_TOKEN') env.value = '‹from Secret flux-system/webapp-secrets›';
      }
      expect(obj, key).toEqual(want);
    }
  });

  it('leaves hooks and test Pods out, keeps nulls, reads yes as a string and stamps helm-controller labels', () => {
    const kinds = rendered.objects.map((desired) => `${desired.object.kind}/${desired.object.metadata?.name}`);
    expect(kinds).not.toContain('Job/shop-webapp-migrate');
    expect(kinds.some((kind) => kind.startsWith('Pod/'))).toBe(false);
    const deployment = rendered.objects.find((desired) => desired.object.kind === 'Deployment')!.object as any;
    expect(deployment.spec.template.spec.containers[0].securityContext).toEqual({ seccompProfile: null });
    expect(deployment.metadata.labels['helm.toolkit.fluxcd.io/name']).toBe('webapp');
    expect(deployment.metadata.namespace).toBe('shop');
    expect(deployment.spec.replicas).toBe(2);
    const configMap = rendered.objects.find(
      (desired) => desired.object.kind === 'ConfigMap' && desired.object.metadata?.name === 'shop-webapp',
    )!;
    expect(configMap.object.data).toEqual({ GREETING: 'hello from shop-webapp', enabled: 'yes' });
    expect(kinds).toContain('ServiceMonitor/shop-webapp');
    expect(kinds).toContain('CustomResourceDefinition/widgets.example.com');
  });

  it('says the Secret-sourced field is not checked, and never prints the placeholder', () => {
    const note = rendered.notes.find((n) => n.code === 'not-checkable');
    expect(note?.message).toBe(
      'spec.template.spec.containers[webapp].env[API_TOKEN].value is from Secret flux-system/webapp-secrets (valuesFrom of HelmRelease flux-system/webapp), not checked',
    );
    const deployment = rendered.objects.find((desired) => desired.object.kind === 'Deployment')!;
    expect(deployment.source.secretFields).toEqual({
      '/spec/template/spec/containers/0/env/1/value': '‹from Secret flux-system/webapp-secrets›',
    });
    expect(JSON.stringify(rendered.objects.map((d) => d.object))).not.toContain('driftback-placeholder');
  });

  it('reports the chart, not rendered, without Helm', () => {
    const without = renderCluster(
      repository(),
      { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' },
      { live: { items: [], server: SERVER } },
    );
    expect(without.objects.filter((d) => d.object.kind === 'Deployment')).toEqual([]);
    expect(without.notes.map((n) => n.message)).toContain(
      'HelmRelease flux-system/webapp: reported, not rendered: helm not found',
    );
  });
});

describe('a HelmRelease whose release name is longer than Helm allows', () => {
  // `[<targetNamespace>-]<name>` is 67 characters here; helm-controller installs it as the name
  // internal/release/name_test.go gives for it (40 characters, `-`, 12 hex digits of its sha256).
  const release = [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata: {name: which-is-longer-than-53-characters, namespace: flux-system}',
    'spec:',
    '  interval: 10m',
    '  targetNamespace: release-name-with-very-long-name',
    '  chart:',
    '    spec: {chart: ./charts/webapp, sourceRef: {kind: GitRepository, name: flux-system}}',
    '',
  ].join('\n');
  const files = chartFiles('charts/webapp', 'charts/webapp');
  files.set('clusters/prod/release.yaml', release);
  const rendered = renderCluster(
    files,
    { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' },
    { live: { items: [], server: SERVER }, charts: createChartRenderer({ helm: helm.helm }) },
  );

  it('renders under the shortened name, as helm template renders that release', () => {
    expect(rendered.errors).toEqual([]);
    expect(rendered.notRendered ?? []).toEqual([]);
    const name = 'release-name-with-very-long-name-which-i-788ca0d0d7b0';
    const expected = helmTemplate('charts/webapp', [
      name,
      '--namespace',
      'release-name-with-very-long-name',
      '--include-crds',
      '--kube-version',
      'v1.32.3',
      '--api-versions',
      'monitoring.coreos.com/v1/ServiceMonitor',
    ]);
    const ours = rendered.objects.filter((d) => d.object.kind !== 'HelmRelease').map((d) => withoutStamps(d.object));
    expect(ours.map((obj) => obj.metadata?.name).sort()).toEqual(expected.map((obj) => obj.metadata?.name).sort());
    const deployment = ours.find((obj) => obj.kind === 'Deployment')!;
    expect(deployment.metadata?.name).toBe(`${name}-webapp`);
    expect(deployment).toEqual({
      ...expected.find((obj) => obj.kind === 'Deployment'),
      metadata: {
        ...expected.find((obj) => obj.kind === 'Deployment')!.metadata,
        namespace: 'release-name-with-very-long-name',
      },
    });
  });
});

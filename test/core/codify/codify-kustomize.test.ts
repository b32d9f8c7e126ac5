import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { codifyDrift } from '../../../src/core/codify/index.js';
import { parseConfig } from '../../../src/core/config/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { changedLines, configWith, diff, fixtureRepo, liveAfterHandEdit, render, type HandEdit } from './support.js';

function liveWith(
  files: Map<string, string>,
  root: string,
  edits: Record<string, HandEdit[]>,
  manager = 'kubectl-edit',
): KubeObject[] {
  return render(files, root).map((d) =>
    liveAfterHandEdit(d.object, edits[`${d.key.kind}/${d.key.name}`] ?? [], manager),
  );
}

function codify(files: Map<string, string>, root: string, live: KubeObject[], sections: Record<string, unknown> = {}) {
  const config = configWith(sections);
  const result = diff(render(files, root), live, config);
  return codifyDrift({ files, root, result, live, config });
}

function withEdits(files: Map<string, string>, edits: Map<string, string>): Map<string, string> {
  const merged = new Map(files);
  for (const [path, text] of edits) merged.set(path, text);
  return merged;
}

describe('shared base (flux2 example: apps/base/podinfo used by staging and production)', () => {
  const files = fixtureRepo('flux2-kustomize-helm-example');

  it("writes a change to an object from the base into the overlay's own patch for it, leaving the base and the other overlay alone", () => {
    const live = liveWith(files, 'apps/staging', {
      'HelmRelease/podinfo': [{ segments: ['spec', 'interval'], value: '10m' }],
    });
    const out = codify(files, 'apps/staging', live);
    expect(out.check).toEqual({ ok: true });
    const patch = 'apps/staging/podinfo-values.yaml';
    expect(out.codified).toMatchObject([{ kind: 'patch', file: patch }]);
    expect([...out.edits.keys()]).toEqual([patch]);
    expect(changedLines(files.get(patch)!, out.edits.get(patch)!)).toEqual({ removed: [], added: ['  interval: 10m'] });
    const after = withEdits(files, out.edits);
    expect(render(after, 'apps/production').map((d) => d.object)).toEqual(
      render(files, 'apps/production').map((d) => d.object),
    );
    const staging = render(after, 'apps/staging').find((d) => d.key.kind === 'HelmRelease')!;
    expect((staging.object.spec as { interval: string }).interval).toBe('10m');
  });

  it('creates a patch of its own, registered in the overlay, when the overlay has none for the object', () => {
    const own = new Map(files);
    own.set(
      'apps/staging/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../base/podinfo\n',
    );
    const live = liveWith(own, 'apps/staging', {
      'HelmRelease/podinfo': [{ segments: ['spec', 'interval'], value: '10m' }],
    });
    const out = codify(own, 'apps/staging', live);
    expect(out.check).toEqual({ ok: true });
    expect([...out.edits.keys()].sort()).toEqual([
      'apps/staging/driftback-helmrelease-podinfo.yaml',
      'apps/staging/kustomization.yaml',
    ]);
    expect(parse(out.edits.get('apps/staging/driftback-helmrelease-podinfo.yaml')!)).toEqual({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'podinfo', namespace: 'podinfo' },
      spec: { interval: '10m' },
    });
  });

  it('extends the same overlay patch file for a second change to the object', () => {
    const live = liveWith(files, 'apps/staging', {
      'HelmRelease/podinfo': [
        { segments: ['spec', 'interval'], value: '10m' },
        { segments: ['spec', 'values', 'redis', 'tag'], value: '8.6.3' },
      ],
    });
    const out = codify(files, 'apps/staging', live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified.map((c) => c.kind)).toEqual(['patch', 'patch']);
    const spec = parse(out.edits.get('apps/staging/podinfo-values.yaml')!).spec;
    expect(spec).toMatchObject({
      interval: '10m',
      values: { redis: { tag: '8.6.3' }, httpRoute: { hostnames: ['podinfo.staging'] } },
    });
    expect(out.edits.has('apps/staging/kustomization.yaml')).toBe(false);
  });

  it("changes a value that the overlay's own patch sets inside that patch, in place", () => {
    const live = liveWith(files, 'apps/production', {
      'HelmRelease/podinfo': [{ segments: ['spec', 'chart', 'spec', 'version'], value: '>=6.0.0' }],
    });
    const out = codify(files, 'apps/production', live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'replace', file: 'apps/production/podinfo-values.yaml', line: 9 }]);
    expect(
      changedLines(
        files.get('apps/production/podinfo-values.yaml')!,
        out.edits.get('apps/production/podinfo-values.yaml')!,
      ),
    ).toEqual({ removed: ['      version: ">=1.0.0"'], added: ['      version: ">=6.0.0"'] });
  });
});

describe('kustomize app used by one cluster only (argo-cd guestbook)', () => {
  const files = fixtureRepo('argo-cd');
  const root = 'test/e2e/testdata/guestbook';

  it('edits the resource file in place', () => {
    const live = liveWith(
      files,
      root,
      { 'Deployment/guestbook-ui': [{ segments: ['spec', 'replicas'], value: 2 }] },
      'kubectl-scale',
    );
    const out = codify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    const file = `${root}/guestbook-ui-deployment.yaml`;
    expect(changedLines(files.get(file)!, out.edits.get(file)!)).toEqual({
      removed: ['  replicas: 0'],
      added: ['  replicas: 2'],
    });
  });

  it('changes the images: entry when kustomize set the image', () => {
    const withImages = new Map(files);
    const kustomization = `${root}/kustomization.yaml`;
    withImages.set(
      kustomization,
      files.get(kustomization)! + 'images:\n  - name: quay.io/argoprojlabs/argocd-e2e-container\n    newTag: "0.3"\n',
    );
    const live = liveWith(
      withImages,
      root,
      {
        'Deployment/guestbook-ui': [
          {
            segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'guestbook-ui' } }, 'image'],
            value: 'quay.io/argoprojlabs/argocd-e2e-container:0.4',
          },
        ],
      },
      'kubectl-set',
    );
    const out = codify(withImages, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'replace', file: kustomization }]);
    expect(changedLines(withImages.get(kustomization)!, out.edits.get(kustomization)!)).toEqual({
      removed: ['    newTag: "0.3"'],
      added: ['    newTag: "0.4"'],
    });
  });
});

describe('transformer entries', () => {
  const files = fixtureRepo('argo-cd');
  const root = 'test/e2e/testdata/guestbook';
  const kustomization = `${root}/kustomization.yaml`;

  it('changes the count of a replicas: entry when kustomize set the replica count', () => {
    const withReplicas = new Map(files);
    withReplicas.set(kustomization, files.get(kustomization)! + 'replicas:\n- name: guestbook-ui\n  count: 1\n');
    const live = liveWith(
      withReplicas,
      root,
      { 'Deployment/guestbook-ui': [{ segments: ['spec', 'replicas'], value: 3 }] },
      'kubectl-scale',
    );
    const out = codify(withReplicas, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'replace', file: kustomization, line: 9 }]);
    expect(changedLines(withReplicas.get(kustomization)!, out.edits.get(kustomization)!)).toEqual({
      removed: ['  count: 1'],
      added: ['  count: 3'],
    });
  });
});

describe('additions below a map that comes from the shared base', () => {
  it('adds the new key in the overlay patch, not in the base', () => {
    const files = fixtureRepo('flux2-kustomize-helm-example');
    const live = liveWith(files, 'apps/staging', {
      'HelmRelease/podinfo': [{ segments: ['spec', 'values', 'httpRoute', 'annotations'], value: { team: 'web' } }],
    });
    const out = codify(files, 'apps/staging', live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'patch', file: 'apps/staging/podinfo-values.yaml' }]);
    const values = parse(out.edits.get('apps/staging/podinfo-values.yaml')!).spec.values;
    expect(values).toEqual({ httpRoute: { hostnames: ['podinfo.staging'], annotations: { team: 'web' } } });
    expect(out.edits.has('apps/base/podinfo/release.yaml')).toBe(false);
  });
});

describe('resources created by hand', () => {
  const created: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'feature-flags',
      namespace: 'default',
      uid: 'a1',
      resourceVersion: '42',
      creationTimestamp: '2026-12-02T03:00:00Z',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'web' },
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-12-02T03:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:checkout': {} } },
        },
      ],
    },
    data: { checkout: 'on' },
  };

  it('writes a cleaned manifest at newResourcePath and lists it in the kustomization in its own style', () => {
    const files = fixtureRepo('microservices-demo');
    const root = 'kubernetes-manifests';
    const live = [...liveWith(files, root, {}), created];
    const out = codify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([
      { kind: 'new-file', file: 'kubernetes-manifests/default/configmap-feature-flags.yaml' },
    ]);
    expect(out.edits.get('kubernetes-manifests/default/configmap-feature-flags.yaml')).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: feature-flags\n  namespace: default\n  annotations:\n    team: web\ndata:\n  checkout: "on"\n',
    );
    const kustomization = 'kubernetes-manifests/kustomization.yaml';
    expect(changedLines(files.get(kustomization)!, out.edits.get(kustomization)!)).toEqual({
      removed: [],
      added: [' - default/configmap-feature-flags.yaml'],
    });
  });

  it("writes no file the API server would reject: the manifest is checked against the kind's schema first", () => {
    const files = fixtureRepo('microservices-demo');
    const root = 'kubernetes-manifests';
    const odd: KubeObject = { ...created, data: { checkout: 'on' }, binaryData: { blob: 42 } };
    const out = codify(files, root, [...liveWith(files, root, {}), odd]);
    expect(out.edits.size).toBe(0);
    expect(out.reported).toMatchObject([
      {
        key: { kind: 'ConfigMap', name: 'feature-flags' },
        reason:
          'the manifest written for it would be rejected: /binaryData/blob must be a string, not number; no file is written',
      },
    ]);
  });

  it('reports a Secret made by hand instead of writing its values', () => {
    const files = fixtureRepo('microservices-demo');
    const root = 'kubernetes-manifests';
    const secret: KubeObject = { ...created, kind: 'Secret', data: { password: 'hash:abc' } };
    const out = codify(files, root, [...liveWith(files, root, {}), secret]);
    expect(out.edits.size).toBe(0);
    expect(out.reported).toMatchObject([
      { key: { kind: 'Secret', name: 'feature-flags' }, reason: expect.stringContaining('never written to Git') },
    ]);
  });
});

describe('names and namespaces set by kustomize', () => {
  it('an overlay with namePrefix and namespace still gets a patch that targets the base object', () => {
    const files = fixtureRepo('flux2-kustomize-helm-example');
    const staging = 'apps/staging/kustomization.yaml';
    files.set(staging, files.get(staging)! + 'namePrefix: stg-\nnamespace: podinfo-staging\n');
    const live = render(files, 'apps/staging').map((d) =>
      liveAfterHandEdit(
        d.object,
        d.key.kind === 'HelmRelease' ? [{ segments: ['spec', 'interval'], value: '15m' }] : [],
      ),
    );
    expect(live.find((o) => o.kind === 'HelmRelease')!.metadata).toMatchObject({
      name: 'stg-podinfo',
      namespace: 'podinfo-staging',
    });
    const out = codify(files, 'apps/staging', live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'patch', file: 'apps/staging/podinfo-values.yaml' }]);
    expect(parse(out.edits.get('apps/staging/podinfo-values.yaml')!).metadata).toEqual({
      name: 'podinfo',
      namespace: 'podinfo',
    });
  });
});

describe('names that would leave the cluster path', () => {
  const handMade = (name: string, namespace = 'default', kind = 'ConfigMap'): KubeObject => ({
    apiVersion: 'v1',
    kind,
    metadata: {
      name,
      namespace,
      uid: 'b2',
      creationTimestamp: '2026-12-02T03:00:00Z',
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-12-02T03:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': {} },
        },
      ],
    },
    data: { a: 'b' },
  });

  it.each([
    ['x/../../prod-us/backdoor', 'default'],
    ['../../.github/workflows/deploy', 'default'],
    ['deploy', '../../.github/workflows'],
  ])('a live object named %j in %j is reported, never written', (name, namespace) => {
    const files = fixtureRepo('microservices-demo');
    const root = 'kubernetes-manifests';
    const out = codify(files, root, [...liveWith(files, root, {}), handMade(name, namespace)]);
    expect(out.edits.size).toBe(0);
    expect(out.codified).toEqual([]);
    expect(out.reported).toMatchObject([
      {
        reason: expect.stringMatching(
          /^metadata\.(name|namespace) ".*" is not a (valid ConfigMap name|namespace name).*; no file is written for it$/,
        ),
      },
    ]);
  });

  it('a newResourcePath that leads outside the cluster path is refused by the config', () => {
    const parsed = parseConfig('pullRequests:\n  newResourcePath: "apps/{namespace}/{kind}-{name}.yaml"\n');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.problems).toMatchObject([
      {
        line: 2,
        field: 'pullRequests.newResourcePath',
        message: expect.stringMatching(/^must start with \{cluster_path\}\//),
      },
    ]);
  });
});

describe('values set through replacements', () => {
  const deploy =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n';
  const target = '  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - spec.replicas\n';

  it('edits the sourceValue a replacement copies, and its self-check passes', () => {
    const kustomization = `resources:\n- deploy.yaml\nreplacements:\n- sourceValue: "2"\n${target}`;
    const files = new Map([
      ['app/kustomization.yaml', kustomization],
      ['app/deploy.yaml', deploy],
    ]);
    const rendered = render(files, 'app')[0];
    expect((rendered.object.spec as { replicas: number }).replicas).toBe(2);
    expect(rendered.source.fields['/spec/replicas'].origin).toMatchObject({
      type: 'replacement',
      from: { file: 'app/kustomization.yaml' },
    });
    const live = liveWith(
      files,
      'app',
      { 'Deployment/web': [{ segments: ['spec', 'replicas'], value: 4 }] },
      'kubectl-scale',
    );
    const out = codify(files, 'app', live);
    expect(out.check).toEqual({ ok: true });
    expect(changedLines(kustomization, out.edits.get('app/kustomization.yaml')!)).toEqual({
      removed: ['- sourceValue: "2"'],
      added: ['- sourceValue: 4'],
    });
    expect(out.edits.has('app/deploy.yaml')).toBe(false);
  });

  it('does not write when editing the copied field of another object would change that object too', () => {
    const files = new Map([
      [
        'app/kustomization.yaml',
        `resources:\n- deploy.yaml\n- settings.yaml\nreplacements:\n- source:\n    kind: ConfigMap\n    name: settings\n    fieldPath: data.replicas\n${target}`,
      ],
      ['app/settings.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  replicas: "2"\n'],
      ['app/deploy.yaml', deploy],
    ]);
    const rendered = render(files, 'app').find((d) => d.key.kind === 'Deployment')!;
    expect(rendered.source.fields['/spec/replicas'].origin).toMatchObject({
      type: 'replacement',
      from: { file: 'app/settings.yaml' },
    });
    const live = liveWith(
      files,
      'app',
      { 'Deployment/web': [{ segments: ['spec', 'replicas'], value: 4 }] },
      'kubectl-scale',
    );
    const out = codify(files, 'app', live);
    expect(out.check).toMatchObject({ ok: false, reason: expect.stringContaining('ConfigMap/default/settings') });
    expect(out.edits.size).toBe(0);
  });
});

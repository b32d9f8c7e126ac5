// Each kustomize feature on a small inline tree, with the output kustomize documents for it.
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { find, tree } from './helpers.js';

const DEPLOYMENT = `
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api
    labels:
      app: api
  spec:
    replicas: 2
    selector:
      matchLabels:
        app: api
    template:
      metadata:
        labels:
          app: api
      spec:
        serviceAccountName: api
        containers:
        - name: api
          image: ghcr.io/acme/api:1.0
          ports:
          - containerPort: 8080
          env:
          - name: LOG_LEVEL
            value: info
          - name: DB_PASSWORD
            valueFrom:
              secretKeyRef:
                name: db
                key: password
          envFrom:
          - configMapRef:
              name: settings
          volumeMounts:
          - name: config
            mountPath: /etc/api
        - name: sidecar
          image: busybox
        volumes:
        - name: config
          configMap:
            name: settings
        - name: data
          persistentVolumeClaim:
            claimName: data
        - name: projected
          projected:
            sources:
            - configMap:
                name: settings
`;

const SUPPORTING = `
  apiVersion: v1
  kind: Service
  metadata:
    name: api
  spec:
    selector:
      app: api
    ports:
    - port: 80
      targetPort: 8080
  ---
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
  data:
    mode: fast
  ---
  apiVersion: v1
  kind: ServiceAccount
  metadata:
    name: api
  ---
  apiVersion: v1
  kind: PersistentVolumeClaim
  metadata:
    name: data
  spec:
    resources:
      requests:
        storage: 1Gi
  ---
  apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleBinding
  metadata:
    name: api
  roleRef:
    apiGroup: rbac.authorization.k8s.io
    kind: Role
    name: api
  subjects:
  - kind: ServiceAccount
    name: api
  - kind: ServiceAccount
    name: default
  ---
  apiVersion: rbac.authorization.k8s.io/v1
  kind: Role
  metadata:
    name: api
  rules: []
  ---
  apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata:
    name: api
  spec:
    tls:
    - secretName: db
    rules:
    - http:
        paths:
        - path: /
          pathType: Prefix
          backend:
            service:
              name: api
              port:
                number: 80
  ---
  apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata:
    name: api
  spec:
    scaleTargetRef:
      apiVersion: apps/v1
      kind: Deployment
      name: api
    minReplicas: 1
    maxReplicas: 3
  ---
  apiVersion: v1
  kind: Secret
  metadata:
    name: db
  stringData:
    password: hunter2
  ---
  apiVersion: v1
  kind: Namespace
  metadata:
    name: shop
`;

function build(kustomization: string, extra: Record<string, string> = {}) {
  const files = tree({
    'app/deployment.yaml': DEPLOYMENT,
    'app/supporting.yaml': SUPPORTING,
    'app/kustomization.yaml': kustomization,
    ...extra,
  });
  return { files, result: renderManifests(files, 'app') };
}

const base = `
  resources:
  - deployment.yaml
  - supporting.yaml
`;

describe('kustomize namespace', () => {
  it('sets the namespace on namespaced objects only, on subjects named default and on subjects of accounts in the build', () => {
    const { result } = build(`${base}\n  namespace: shop`);
    expect(result.errors).toEqual([]);
    expect(find(result, 'Deployment', 'api').key.namespace).toBe('shop');
    expect(find(result, 'Namespace', 'shop').object.metadata.namespace).toBeUndefined();
    expect(find(result, 'Namespace', 'shop').key.namespace).toBe('');
    const binding = find(result, 'RoleBinding', 'api').object as any;
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'api', namespace: 'shop' },
      { kind: 'ServiceAccount', name: 'default', namespace: 'shop' },
    ]);
    expect(find(result, 'Deployment', 'api').source.fields['/metadata/namespace'].origin).toEqual({
      type: 'namespace',
      kustomization: 'app/kustomization.yaml',
    });
    expect(find(result, 'Deployment', 'api').source.sourceNamespace).toBeUndefined();
  });

  it('uses options.defaultNamespace only when no kustomization sets one', () => {
    const { files } = build(base);
    const result = renderManifests(files, 'app', { defaultNamespace: 'team-a' });
    expect(find(result, 'Service', 'api').key.namespace).toBe('team-a');
    expect(find(result, 'Namespace', 'shop').key.namespace).toBe('');
  });
});

describe('kustomize namePrefix / nameSuffix and name references', () => {
  it('renames objects (not Namespaces) and keeps references in the same build consistent', () => {
    const { result } = build(`${base}\n  namePrefix: prod-\n  nameSuffix: -v2`);
    expect(result.errors).toEqual([]);
    const deployment = find(result, 'Deployment', 'prod-api-v2');
    const pod = (deployment.object.spec as any).template.spec;
    expect(pod.serviceAccountName).toBe('prod-api-v2');
    expect(pod.volumes[0].configMap.name).toBe('prod-settings-v2');
    expect(pod.volumes[1].persistentVolumeClaim.claimName).toBe('prod-data-v2');
    expect(pod.volumes[2].projected.sources[0].configMap.name).toBe('prod-settings-v2');
    expect(pod.containers[0].env[1].valueFrom.secretKeyRef.name).toBe('prod-db-v2');
    expect(pod.containers[0].envFrom[0].configMapRef.name).toBe('prod-settings-v2');
    const binding = find(result, 'RoleBinding', 'prod-api-v2').object as any;
    expect(binding.roleRef.name).toBe('prod-api-v2');
    expect(binding.subjects[0].name).toBe('prod-api-v2');
    expect(binding.subjects[1].name).toBe('default');
    const ingress = find(result, 'Ingress', 'prod-api-v2').object as any;
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe('prod-api-v2');
    expect(ingress.spec.tls[0].secretName).toBe('prod-db-v2');
    expect((find(result, 'HorizontalPodAutoscaler', 'prod-api-v2').object.spec as any).scaleTargetRef.name).toBe(
      'prod-api-v2',
    );
    expect(find(result, 'Namespace', 'shop').key.name).toBe('shop');
    expect(deployment.source.sourceName).toBe('api');
    expect(deployment.source.fields['/metadata/name'].origin).toEqual({
      type: 'name-affix',
      kustomization: 'app/kustomization.yaml',
    });
  });

  it('applies an overlay prefix on top of a base prefix, and references follow both', () => {
    const files = tree({
      'base/deployment.yaml': DEPLOYMENT,
      'base/supporting.yaml': SUPPORTING,
      'base/kustomization.yaml': `${base}\n  namePrefix: base-`,
      'prod/kustomization.yaml': `
        resources:
        - ../base
        namePrefix: prod-
        namespace: prod
      `,
    });
    const result = renderManifests(files, 'prod');
    expect(result.errors).toEqual([]);
    const deployment = find(result, 'Deployment', 'prod-base-api');
    expect((deployment.object.spec as any).template.spec.volumes[0].configMap.name).toBe('prod-base-settings');
    expect(deployment.source.kustomizations).toEqual(['base/kustomization.yaml', 'prod/kustomization.yaml']);
    const binding = find(result, 'RoleBinding', 'prod-base-api').object as any;
    expect(binding.subjects[0]).toEqual({ kind: 'ServiceAccount', name: 'prod-base-api', namespace: 'prod' });
  });

  // What kubectl kustomize 5.7.1 prints for these trees: a configurations spec for metadata/name of
  // one kind takes the place of the default spec for every kind; a spec at another path adds to it.
  it('writes the prefix at the field specs of configurations, which replace the default metadata/name spec', () => {
    const objects = `
      apiVersion: v1
      kind: Ingress
      metadata:
        name: ing
      ---
      apiVersion: x/v1
      kind: Foo
      metadata:
        name: foo
      spec:
        name: bar
    `;
    const build = (config: string) =>
      renderManifests(
        tree({
          'app/objects.yaml': objects,
          'app/config.yaml': config,
          'app/kustomization.yaml': 'resources: [objects.yaml]\nnamePrefix: p-\nconfigurations: [config.yaml]',
        }),
        'app',
      );
    const oneKind = build('namePrefix:\n- path: metadata/name\n  kind: Foo');
    expect(oneKind.errors).toEqual([]);
    expect(oneKind.objects.map((o) => o.key.name)).toEqual(['ing', 'p-foo']);
    const otherPath = build('namePrefix:\n- path: spec/name\n  kind: Foo');
    expect(otherPath.objects.map((o) => o.key.name)).toEqual(['p-ing', 'p-foo']);
    expect((find(otherPath, 'Foo', 'p-foo').object.spec as any).name).toBe('p-bar');
  });

  it('writes a PrefixSuffixTransformer plugin at its own fieldSpecs only, and refuses one without fieldSpecs', () => {
    const build = (plugin: string) =>
      renderManifests(
        tree({
          'app/cm.yaml':
            'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s',
          'app/t.yaml': `apiVersion: builtin\nkind: PrefixSuffixTransformer\nmetadata:\n  name: x\nprefix: p-\nsuffix: -s\n${plugin}`,
          'app/kustomization.yaml': 'resources: [cm.yaml]\ntransformers: [t.yaml]',
        }),
        'app',
      );
    const scoped = build('fieldSpecs:\n- path: metadata/name\n  kind: Secret');
    expect(scoped.errors).toEqual([]);
    expect(scoped.objects.map((o) => o.key.name)).toEqual(['cm', 'p-s-s']);
    expect(
      build('')
        .errors.map((e) => e.message)
        .join('\n'),
    ).toMatch(/fieldSpecs is not expected to be nil/);
  });

  it('refuses configurations whose spec disagrees with a default one on create, as kustomize does', () => {
    const result = renderManifests(
      tree({
        'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm',
        'app/config.yaml': 'commonLabels:\n- path: metadata/labels\n  kind: Foo',
        'app/kustomization.yaml': 'resources: [cm.yaml]\ncommonLabels: {a: b}\nconfigurations: [config.yaml]',
      }),
      'app',
    );
    expect(result.errors.map((e) => e.message).join('\n')).toMatch(/conflicting field specs for metadata\/labels/);
  });

  it("keeps a reference on the object of its own branch when another branch renamed a namesake (kustomize's previous ids)", () => {
    const role = (suffix: string) => ({
      [`${suffix || 'pub'}/kustomization.yaml`]: `resources: [role.yaml]${suffix ? `\nnameSuffix: ${suffix}` : ''}`,
      [`${suffix || 'pub'}/role.yaml`]: `
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: dns
        ---
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata:
          name: dns-viewer
        roleRef:
          apiGroup: rbac.authorization.k8s.io
          kind: ClusterRole
          name: dns
      `,
    });
    const result = renderManifests(
      tree({
        ...role(''),
        ...role('-private'),
        'kustomization.yaml': 'namespace: kube-system\nresources: [pub, -private]',
      }),
      '.',
    );
    expect(result.errors).toEqual([]);
    expect((find(result, 'ClusterRoleBinding', 'dns-viewer').object as any).roleRef.name).toBe('dns');
    expect((find(result, 'ClusterRoleBinding', 'dns-viewer-private').object as any).roleRef.name).toBe('dns-private');
  });
});

describe('kustomize commonLabels, labels and commonAnnotations', () => {
  it('commonLabels reach metadata, selectors and pod templates', () => {
    const { result } = build(`${base}\n  commonLabels:\n    team: shop`);
    const deployment = find(result, 'Deployment', 'api').object as any;
    expect(deployment.metadata.labels).toEqual({ app: 'api', team: 'shop' });
    expect(deployment.spec.selector.matchLabels).toEqual({ app: 'api', team: 'shop' });
    expect(deployment.spec.template.metadata.labels).toEqual({ app: 'api', team: 'shop' });
    expect((find(result, 'Service', 'api').object as any).spec.selector).toEqual({ app: 'api', team: 'shop' });
    expect(find(result, 'ConfigMap', 'settings').object.metadata.labels).toEqual({ team: 'shop' });
    expect(find(result, 'Deployment', 'api').source.fields['/spec/selector/matchLabels/team'].origin).toEqual({
      type: 'labels',
      kustomization: 'app/kustomization.yaml',
    });
  });

  it.each([
    [{ includeSelectors: false, includeTemplates: false }, { app: 'api' }, { app: 'api' }],
    [{ includeSelectors: false, includeTemplates: true }, { app: 'api' }, { app: 'api', tier: 'web' }],
    [
      { includeSelectors: true, includeTemplates: false },
      { app: 'api', tier: 'web' },
      { app: 'api', tier: 'web' },
    ],
  ])('labels with %j', (flags, selector, template) => {
    const { result } = build(`${base}
  labels:
  - pairs:
      tier: web
    includeSelectors: ${flags.includeSelectors}
    includeTemplates: ${flags.includeTemplates}`);
    const deployment = find(result, 'Deployment', 'api').object as any;
    expect(deployment.metadata.labels).toEqual({ app: 'api', tier: 'web' });
    expect(deployment.spec.selector.matchLabels).toEqual(selector);
    expect(deployment.spec.template.metadata.labels).toEqual(template);
  });

  it('commonAnnotations reach metadata and pod templates', () => {
    const { result } = build(`${base}\n  commonAnnotations:\n    owner: shop-team`);
    const deployment = find(result, 'Deployment', 'api').object as any;
    expect(deployment.metadata.annotations).toEqual({ owner: 'shop-team' });
    expect(deployment.spec.template.metadata.annotations).toEqual({ owner: 'shop-team' });
    expect(find(result, 'Service', 'api').object.metadata.annotations).toEqual({ owner: 'shop-team' });
  });
});

describe('kustomize images and replicas', () => {
  it.each([
    ['newTag: "2.0"', 'ghcr.io/acme/api:2.0'],
    ['newName: registry.local/api', 'registry.local/api:1.0'],
    ['newName: registry.local/api\n    newTag: "3"', 'registry.local/api:3'],
    ['digest: sha256:abc', 'ghcr.io/acme/api@sha256:abc'],
    ['newTag: 1.20', 'ghcr.io/acme/api:1.20'],
  ])('images entry %s gives %s', (entry, image) => {
    const { result } = build(`${base}\n  images:\n  - name: ghcr.io/acme/api\n    ${entry}`);
    expect(result.errors).toEqual([]);
    const containers = (find(result, 'Deployment', 'api').object as any).spec.template.spec.containers;
    expect(containers[0].image).toBe(image);
    expect(containers[1].image).toBe('busybox');
  });

  // kubectl kustomize 5.7.1 prints the same for this tree: entries apply in turn (a renamed image is
  // matched by its new name), and image volumes are images too.
  it('applies images entries in turn and rewrites image volume references', () => {
    const result = renderManifests(
      tree({
        'app/pod.yaml': `
          apiVersion: v1
          kind: Pod
          metadata:
            name: p
          spec:
            containers:
            - name: c
              image: nginx:1.0
            volumes:
            - name: models
              image:
                reference: ghcr.io/acme/models:v1
        `,
        'app/kustomization.yaml': `
          resources: [pod.yaml]
          images:
          - name: ghcr.io/acme/models
            newTag: v2
          - name: nginx
            newName: ghcr.io/acme/nginx
          - name: ghcr.io/acme/nginx
            newTag: "2.0"
        `,
      }),
      'app',
    );
    const spec = find(result, 'Pod', 'p').object.spec as any;
    expect(spec.containers[0].image).toBe('ghcr.io/acme/nginx:2.0');
    expect(spec.volumes[0].image.reference).toBe('ghcr.io/acme/models:v2');
  });

  it('replicas sets spec.replicas of the named workload', () => {
    const { result } = build(`${base}\n  replicas:\n  - name: api\n    count: 5`);
    expect((find(result, 'Deployment', 'api').object as any).spec.replicas).toBe(5);
    expect(find(result, 'Deployment', 'api').source.fields['/spec/replicas'].origin).toEqual({
      type: 'replicas',
      kustomization: 'app/kustomization.yaml',
      index: 0,
    });
  });
});

describe('kustomize patches', () => {
  it("applies a strategic merge patch file: containers and env merged by name (the patch's items first, as kustomize orders them), ports by containerPort", () => {
    const { result } = build(`${base}\n  patches:\n  - path: patch.yaml`, {
      'app/patch.yaml': `
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: api
        spec:
          template:
            spec:
              containers:
              - name: api
                env:
                - name: LOG_LEVEL
                  value: debug
                - name: NEW
                  value: "1"
                ports:
                - containerPort: 8080
                  name: http
      `,
    });
    expect(result.errors).toEqual([]);
    const containers = (find(result, 'Deployment', 'api').object as any).spec.template.spec.containers;
    expect(containers).toHaveLength(2);
    expect(containers[0].image).toBe('ghcr.io/acme/api:1.0');
    expect(containers[0].env.map((e: any) => [e.name, e.value])).toEqual([
      ['LOG_LEVEL', 'debug'],
      ['NEW', '1'],
      ['DB_PASSWORD', undefined],
    ]);
    expect(containers[0].ports).toEqual([{ containerPort: 8080, name: 'http' }]);
    expect(result.filesRead).toContain('app/patch.yaml');
  });

  it('deletes list items and whole objects with $patch: delete, and null removes a field', () => {
    const { result } = build(`${base}
  patchesStrategicMerge:
  - |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
    spec:
      revisionHistoryLimit: null
      replicas: null
      template:
        spec:
          containers:
          - name: sidecar
            $patch: delete
  - |-
    apiVersion: v1
    kind: Secret
    metadata:
      name: db
    $patch: delete`);
    expect(result.errors).toEqual([]);
    const spec = (find(result, 'Deployment', 'api').object as any).spec;
    expect(spec.replicas).toBeUndefined();
    expect(spec.template.spec.containers.map((c: any) => c.name)).toEqual(['api']);
    expect(result.objects.some((o) => o.key.kind === 'Secret')).toBe(false);
  });

  it('replaces a list with $patch: replace', () => {
    const { result } = build(`${base}
  patches:
  - patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: api
      spec:
        template:
          spec:
            volumes:
            - $patch: replace
            - name: only
              emptyDir: {}`);
    expect(result.errors).toEqual([]);
    expect((find(result, 'Deployment', 'api').object as any).spec.template.spec.volumes).toEqual([
      { name: 'only', emptyDir: {} },
    ]);
  });

  it.each([
    ['kind: Deployment', ['Deployment/api']],
    ['kind: Service\n      name: a.i', ['Service/api']],
    ['labelSelector: app=api', ['Deployment/api']],
    ['kind: Deployment|Service', ['Deployment/api', 'Service/api']],
    ['group: apps\n      version: v1', ['Deployment/api']],
  ])('selects patch targets by %s', (target, expected) => {
    const { result } = build(`${base}
  patches:
  - target:
      ${target}
    patch: |-
      - op: add
        path: /metadata/annotations
        value:
          patched: "yes"`);
    expect(result.errors).toEqual([]);
    const patched = result.objects
      .filter((o) => o.object.metadata.annotations?.patched === 'yes')
      .map((o) => `${o.key.kind}/${o.key.name}`);
    expect(patched.sort()).toEqual(expected);
  });

  it('applies JSON 6902 patches from patchesJson6902 (file) after prefixes, matching the original name', () => {
    const { result } = build(
      `${base}
  namePrefix: x-
  patchesJson6902:
  - target:
      group: apps
      version: v1
      kind: Deployment
      name: api
    path: ops.yaml`,
      {
        'app/ops.yaml': `
        - op: replace
          path: /spec/replicas
          value: 7
        - op: remove
          path: /spec/template/spec/containers/1
        - op: add
          path: /spec/template/spec/containers/0/args
          value: ["--fast"]
      `,
      },
    );
    expect(result.errors).toEqual([]);
    const spec = (find(result, 'Deployment', 'x-api').object as any).spec;
    expect(spec.replicas).toBe(7);
    expect(spec.template.spec.containers).toHaveLength(1);
    expect(spec.template.spec.containers[0].args).toEqual(['--fast']);
    expect(find(result, 'Deployment', 'x-api').source.fields['/spec/replicas'].origin).toMatchObject({
      type: 'patch',
      patchType: 'json6902',
      file: 'app/ops.yaml',
    });
  });
});

describe('kustomize generators', () => {
  // kustomize's hasher hashes kind, data and an empty name (it looks the name up as a field called
  // "metadata/name"); the krusty conformance cases pin the same rule for named objects.
  it("generates a ConfigMap with kustomize's hash suffix, which does not depend on the name (generatorOptions example)", () => {
    const files = tree({
      'k/kustomization.yaml': `
        configMapGenerator:
        - name: my-application-properties
          files:
          - application.properties
        generatorOptions:
          labels:
            kustomize.generated.resources: config-label
          annotations:
            kustomize.generated.resource: config-annotation
      `,
    });
    files.set('k/application.properties', '# application.properties\nFOO=Bar');
    const result = renderManifests(files, 'k');
    expect(result.errors).toEqual([]);
    const cm = find(result, 'ConfigMap', 'my-application-properties-fg7g7c8hm4');
    expect(cm.object).toMatchObject({
      data: { 'application.properties': '# application.properties\nFOO=Bar' },
      metadata: {
        labels: { 'kustomize.generated.resources': 'config-label' },
        annotations: { 'kustomize.generated.resource': 'config-annotation' },
      },
    });
    expect(result.filesRead.sort()).toEqual(['k/application.properties', 'k/kustomization.yaml']);
  });

  it('generates from literals and env files, hashes after the prefix, and rewrites references to the hashed name', () => {
    const { result } = build(
      `
  resources:
  - deployment.yaml
  namePrefix: p-
  configMapGenerator:
  - name: settings
    literals:
    - mode=fast
    - quoted="a b"
    envs:
    - app.env
  secretGenerator:
  - name: db
    literals:
    - password=hunter2
    options:
      disableNameSuffixHash: true`,
      { 'app/app.env': '# comment\nA=1\n\nB=two\n' },
    );
    expect(result.errors).toEqual([]);
    const cm = result.objects.find((o) => o.key.kind === 'ConfigMap')!;
    expect(cm.key.name).toMatch(/^p-settings-[a-z0-9]{10}$/);
    expect(cm.object.data).toEqual({ A: '1', B: 'two', mode: 'fast', quoted: 'a b' });
    const secret = find(result, 'Secret', 'p-db');
    expect(secret.object).toMatchObject({
      type: 'Opaque',
      data: { password: Buffer.from('hunter2').toString('base64') },
    });
    const pod = (find(result, 'Deployment', 'p-api').object as any).spec.template.spec;
    expect(pod.volumes[0].configMap.name).toBe(cm.key.name);
    expect(pod.containers[0].envFrom[0].configMapRef.name).toBe(cm.key.name);
    expect(pod.containers[0].env[1].valueFrom.secretKeyRef.name).toBe('p-db');
    expect(cm.source.fields['/data/mode'].origin).toEqual({
      type: 'generator',
      kustomization: 'app/kustomization.yaml',
      index: 0,
      generator: 'configMapGenerator',
    });
  });

  it('merges and replaces a base ConfigMap with behavior merge / replace', () => {
    const files = tree({
      'base/kustomization.yaml': `
        configMapGenerator:
        - name: settings
          literals:
          - a=1
          - b=2
      `,
      'merge/kustomization.yaml': `
        resources:
        - ../base
        configMapGenerator:
        - name: settings
          behavior: merge
          literals:
          - b=3
          - c=4
      `,
      'replace/kustomization.yaml': `
        resources:
        - ../base
        configMapGenerator:
        - name: settings
          behavior: replace
          literals:
          - c=4
      `,
    });
    const merged = renderManifests(files, 'merge');
    expect(merged.errors).toEqual([]);
    expect(merged.objects.map((o) => o.object.data)).toEqual([{ a: '1', b: '3', c: '4' }]);
    const replaced = renderManifests(files, 'replace');
    expect(replaced.objects.map((o) => o.object.data)).toEqual([{ c: '4' }]);
    expect(replaced.objects[0].key.name).toMatch(/^settings-/);
  });
});

describe('kustomize components and nested directories', () => {
  it("applies a component's resources and transformers to the including kustomization", () => {
    const files = tree({
      'app/deployment.yaml': DEPLOYMENT,
      'app/kustomization.yaml': `
        resources:
        - deployment.yaml
        components:
        - ../components/monitoring
      `,
      'components/monitoring/kustomization.yaml': `
        apiVersion: kustomize.config.k8s.io/v1alpha1
        kind: Component
        resources:
        - monitor.yaml
        patches:
        - target:
            kind: Deployment
          patch: |-
            - op: add
              path: /metadata/annotations
              value:
                prometheus.io/scrape: "true"
      `,
      'components/monitoring/monitor.yaml': `
        apiVersion: monitoring.coreos.com/v1
        kind: ServiceMonitor
        metadata:
          name: api
        spec: {}
      `,
    });
    const result = renderManifests(files, 'app');
    expect(result.errors).toEqual([]);
    expect(find(result, 'Deployment', 'api').object.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
    expect(find(result, 'ServiceMonitor', 'api').source.kustomizations).toEqual([
      'components/monitoring/kustomization.yaml',
      'app/kustomization.yaml',
    ]);
  });

  it('accepts Kustomization and kustomization.yml as the kustomization file name', () => {
    for (const name of ['Kustomization', 'kustomization.yml']) {
      const files = tree({
        [`app/${name}`]: `resources:\n- deployment.yaml\nnamespace: x`,
        'app/deployment.yaml': DEPLOYMENT,
      });
      const result = renderManifests(files, 'app');
      expect(find(result, 'Deployment', 'api').key.namespace).toBe('x');
    }
  });
});

describe('strategic merge directives on maps', () => {
  it('replaces a whole map with $patch: replace', () => {
    const { result } = build(`${base}
  patches:
  - patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: api
      spec:
        selector:
          $patch: replace
          matchLabels:
            only: this`);
    expect(result.errors).toEqual([]);
    expect((find(result, 'Deployment', 'api').object as any).spec.selector).toEqual({ matchLabels: { only: 'this' } });
  });
});

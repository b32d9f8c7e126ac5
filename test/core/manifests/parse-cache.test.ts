// A parse cache shared by the renders of one pull request (head, then base) must never change what a
// render returns: the same objects and the same source maps as a render without it, whatever the
// transformers did to the trees of the render before, and whichever files changed in between.
import { describe, expect, it } from 'vitest';
import { newParseCache, renderManifests } from '../../../src/core/manifests/index.js';
import type { RenderResult } from '../../../src/core/model/index.js';
import { readFixtureTree } from '../../support/fixtures.js';
import { tree } from './helpers.js';

type Files = Map<string, string>;

/** Head and base of a pull request over one tree: `change` turns base's files into head's. */
interface Case {
  name: string;
  base: Files;
  root: string;
  change: (files: Files) => Files;
}

const edited = (files: Files, path: string, edit: (text: string) => string): Files => {
  const text = files.get(path);
  if (text === undefined) throw new Error(`no ${path} in the tree`);
  return new Map([...files, [path, edit(text)]]);
};
const without = (files: Files, path: string): Files => new Map([...files].filter(([p]) => p !== path));

const overlay = tree({
  'base/kustomization.yaml': `
    resources: [app.yaml]
    configMapGenerator:
      - name: settings
        literals: [MODE=base]
  `,
  'base/app.yaml': `
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
      labels: {app: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers:
            - name: web
              image: nginx:1.25
              envFrom: [{configMapRef: {name: settings}}]
    ---
    apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec:
      selector: {app: web}
      ports: [{port: 80}]
  `,
  'overlays/prod/kustomization.yaml': `
    resources: [../../base]
    namespace: prod
    namePrefix: prod-
    commonLabels: {env: prod}
    commonAnnotations: {owner: platform}
    images:
      - name: nginx
        newTag: "1.27"
    replicas:
      - name: web
        count: 3
    patches:
      - path: resources.yaml
        target: {kind: Deployment}
  `,
  'overlays/prod/resources.yaml': `
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      template:
        spec:
          containers:
            - name: web
              resources: {limits: {memory: 256Mi}}
  `,
});

const cases: Case[] = [
  {
    name: 'plain directory, a file deleted',
    base: readFixtureTree('manifests/kubernetes-examples/web/guestbook'),
    root: '',
    change: (files) => without(files, 'all-in-one/guestbook-all-in-one.yaml'),
  },
  {
    name: 'kustomization, a resource file edited',
    base: readFixtureTree('manifests/microservices-demo/kubernetes-manifests'),
    root: '',
    change: (files) => edited(files, 'frontend.yaml', (text) => text.replace('image: frontend', 'image: frontend:v2')),
  },
  {
    name: 'flux overlays with patches, nothing changed',
    base: readFixtureTree('manifests/flux2-kustomize-helm-example/apps'),
    root: 'production',
    change: (files) => files,
  },
  {
    name: 'overlay: base file, patch and kustomization edited',
    base: overlay,
    root: 'overlays/prod',
    change: (files) =>
      edited(
        edited(
          edited(files, 'base/app.yaml', (text) => text.replace('nginx:1.25', 'nginx:1.26')),
          'overlays/prod/resources.yaml',
          (text) => text.replace('256Mi', '512Mi'),
        ),
        'overlays/prod/kustomization.yaml',
        (text) => text.replace('count: 3', 'count: 5'),
      ),
  },
  {
    name: 'overlay: same text, transformers run twice on cached trees',
    base: overlay,
    root: 'overlays/prod',
    change: (files) => new Map(files),
  },
];

/** What a render shows a user: objects with their source maps, problems, skipped documents, files read. */
function shown(result: RenderResult): unknown {
  return JSON.parse(JSON.stringify(result));
}

describe('parse cache shared by head and base', () => {
  it.each(cases)('$name: head and base equal their uncached renders', ({ base, root, change }) => {
    const head = change(base);
    const cache = newParseCache();
    const cachedHead = renderManifests(head, root, { cache });
    const cachedBase = renderManifests(base, root, { cache });
    // The same render again, now served entirely from the cache.
    const cachedHeadAgain = renderManifests(head, root, { cache });
    const plainHead = renderManifests(head, root);
    const plainBase = renderManifests(base, root);
    expect(plainBase.objects.length).toBeGreaterThan(0);
    expect(shown(cachedHead)).toEqual(shown(plainHead));
    expect(shown(cachedBase)).toEqual(shown(plainBase));
    expect(shown(cachedHeadAgain)).toEqual(shown(plainHead));
    expect(cachedBase.objects.map((o) => o.source.fields)).toEqual(plainBase.objects.map((o) => o.source.fields));
  });

  it('shows the edit of a file whose text changed between head and base', () => {
    const base = overlay;
    const head = edited(base, 'base/app.yaml', (text) =>
      text.replace('replicas: 1', 'replicas: 1\n  minReadySeconds: 9'),
    );
    const cache = newParseCache();
    const deployment = (result: RenderResult) => result.objects.find((o) => o.key.kind === 'Deployment')!;
    const atBase = deployment(renderManifests(base, 'overlays/prod', { cache }));
    const atHead = deployment(renderManifests(head, 'overlays/prod', { cache }));
    expect(atBase.object.spec).not.toHaveProperty('minReadySeconds');
    expect(atHead.object.spec).toMatchObject({ minReadySeconds: 9, replicas: 3 });
    expect(atHead.source.fields['/spec/minReadySeconds'].location).toMatchObject({ file: 'base/app.yaml', line: 8 });
  });

  it('reports the problems of a cached broken file in every render', () => {
    const files = tree({
      'bad.yaml': `
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: one
      `,
      'good.yaml': `
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: two}
      `,
    });
    const cache = newParseCache();
    const first = renderManifests(files, '', { cache });
    const second = renderManifests(files, '', { cache });
    expect(first.errors).toHaveLength(1);
    expect(first.errors[0]).toMatchObject({ file: 'bad.yaml' });
    expect(second.errors).toEqual(first.errors);
    expect(second.objects.map((o) => o.key.name)).toEqual(['two']);
  });
});

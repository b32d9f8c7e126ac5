// Source locations must be exact: codify edits these byte ranges and check runs annotate these lines.
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { readFixtureTree } from '../../support/fixtures.js';
import { find, tree, writtenAt } from './helpers.js';

describe('source map', () => {
  it('points every scalar of a plain fixture file at its own bytes', () => {
    const files = readFixtureTree('manifests/microservices-demo/kubernetes-manifests');
    const result = renderManifests(files, '');
    let checked = 0;
    for (const object of result.objects) {
      for (const [pointer, source] of Object.entries(object.source.fields)) {
        if (source.origin.type !== 'resource') continue;
        const segments = pointer
          .split('/')
          .slice(1)
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
        const value = segments.reduce<any>((v, s) => v?.[s], object.object);
        if (typeof value === 'object' && value !== null) continue;
        const text = writtenAt(files, object, pointer)!;
        const unquoted = /^["']/.test(text) ? text.slice(1, -1) : text;
        expect(unquoted, `${object.source.file} ${pointer}`).toBe(String(value));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(400);
  });

  it('has an entry for every node, collections included, keyed by JSON pointer with rendered list indices', () => {
    const files = readFixtureTree('manifests/argo-cd/test/e2e/testdata/guestbook');
    const deployment = find(renderManifests(files, ''), 'Deployment', 'guestbook-ui');
    const fields = deployment.source.fields;
    for (const pointer of [
      '',
      '/metadata',
      '/metadata/labels',
      '/spec/template/spec/containers',
      '/spec/template/spec/containers/0',
      '/spec/template/spec/containers/0/ports/0/containerPort',
    ]) {
      expect(fields[pointer], pointer).toBeDefined();
    }
    expect(writtenAt(files, deployment, '/metadata/labels/test')).toBe('"true"');
    expect(writtenAt(files, deployment, '/spec/replicas')).toBe('0');
    expect(fields['/spec/replicas'].location).toMatchObject({
      file: 'guestbook-ui-deployment.yaml',
      document: 0,
      line: 8,
      column: 13,
    });
    expect(writtenAt(files, deployment, '/spec/template/spec/containers/0/image')).toBe(
      'quay.io/argoprojlabs/argocd-e2e-container:0.2',
    );
    expect(deployment.source.location).toMatchObject({
      file: 'guestbook-ui-deployment.yaml',
      document: 0,
      line: 1,
      column: 1,
    });
  });

  it('locates documents of a multi-document file with a leading --- and comments', () => {
    const files = tree({
      'all.yaml': `
        ---
        # first
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: one
        data:
          key: value # trailing comment
        ---
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: two
        data:
          key: 'quoted'
      `,
    });
    const result = renderManifests(files, '');
    const two = find(result, 'ConfigMap', 'two');
    expect(two.source.document).toBe(2);
    expect(two.source.fields['/data/key'].location).toMatchObject({ document: 2, line: 16 });
    expect(writtenAt(files, two, '/data/key')).toBe("'quoted'");
    expect(writtenAt(files, find(result, 'ConfigMap', 'one'), '/data/key')).toBe('value');
  });

  it('points patched fields at the patch file, images at the newTag node and replicas at the count node', () => {
    const files = tree({
      'base/deploy.yaml': `
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          replicas: 1
          template:
            spec:
              containers:
              - name: web
                image: nginx:1.25
      `,
      'base/kustomization.yaml': 'resources:\n- deploy.yaml\n',
      'prod/kustomization.yaml': `
        resources:
        - ../base
        patches:
        - path: memory.yaml
        images:
        - name: nginx
          newTag: "1.27"
        replicas:
        - name: web
          count: 4
      `,
      'prod/memory.yaml': `
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          template:
            spec:
              containers:
              - name: web
                resources:
                  limits:
                    memory: 512Mi
      `,
    });
    const result = renderManifests(files, 'prod');
    expect(result.errors).toEqual([]);
    const web = find(result, 'Deployment', 'web');
    const memory = '/spec/template/spec/containers/0/resources/limits/memory';
    expect(web.source.fields[memory]).toMatchObject({
      location: { file: 'prod/memory.yaml', line: 12 },
      origin: {
        type: 'patch',
        file: 'prod/memory.yaml',
        index: 0,
        kustomization: 'prod/kustomization.yaml',
        patchType: 'strategic-merge',
      },
    });
    expect(writtenAt(files, web, memory)).toBe('512Mi');
    expect(writtenAt(files, web, '/spec/template/spec/containers/0/image')).toBe('"1.27"');
    expect(web.source.fields['/spec/template/spec/containers/0/image'].origin).toEqual({
      type: 'images',
      kustomization: 'prod/kustomization.yaml',
      index: 0,
      part: 'newTag',
    });
    expect(writtenAt(files, web, '/spec/template/spec/containers/0/name')).toBe('web');
    expect(web.source.fields['/spec/template/spec/containers/0/name'].location?.file).toBe('base/deploy.yaml');
    expect(writtenAt(files, web, '/spec/replicas')).toBe('4');
    expect(web.source.fields['/spec/replicas'].location).toMatchObject({ file: 'prod/kustomization.yaml', line: 10 });
  });

  it('points fields of an inline patch at their bytes inside the kustomization file', () => {
    const files = tree({
      'app/deploy.yaml': `
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          replicas: 1
      `,
      'app/kustomization.yaml': `
        resources:
        - deploy.yaml
        patches:
        - target:
            kind: Deployment
          patch: |-
            - op: replace
              path: /spec/replicas
              value: 9
        - patch: |
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
            spec:
              paused: true
      `,
    });
    const result = renderManifests(files, 'app');
    expect(result.errors).toEqual([]);
    const web = find(result, 'Deployment', 'web');
    expect(writtenAt(files, web, '/spec/replicas')).toBe('9');
    expect(web.source.fields['/spec/replicas']).toMatchObject({
      location: { file: 'app/kustomization.yaml', line: 9 },
      origin: { type: 'patch', index: 0, patchType: 'json6902' },
    });
    expect(writtenAt(files, web, '/spec/paused')).toBe('true');
    expect(web.source.fields['/spec/paused'].location?.line).toBe(16);
  });

  it('marks the default namespace as set by the render options, with no file location', () => {
    const files = tree({ 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' });
    const a = find(renderManifests(files, 'cm.yaml', { defaultNamespace: 'ops' }), 'ConfigMap', 'a');
    expect(a.key.namespace).toBe('ops');
    expect(a.source.fields['/metadata/namespace']).toEqual({ origin: { type: 'namespace', kustomization: '' } });
    expect(a.source.sourceNamespace).toBeUndefined();
  });
});

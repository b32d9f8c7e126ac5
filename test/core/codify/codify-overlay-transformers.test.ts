// Codify on a tenant overlay whose kustomization adds labels and annotations to everything it renders
// (kustomize's LabelTransformer / AnnotationsTransformer builtins, `commonLabels`, `labels`,
// `commonAnnotations`: kubectl.docs.kubernetes.io/references/kustomize/builtins/): the new manifest of a
// ConfigMap a person created renders with those labels, which live cannot have before the overlay
// applies it. The self-check expects them; and an edit it does refuse is dropped alone.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { codifyDrift, codifyWith, type CodifyEngine } from '../../../src/core/codify/index.js';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { keyId, type KubeObject, type PathSegment } from '../../../src/core/model/index.js';
import { configWith, diff, handMadeConfigMap, liveAfterHandEdit, render } from './support.js';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
        - name: api
          image: nginx:1.25
          env:
            - name: MODE
              value: normal
`;

const LABEL_TRANSFORMER = `apiVersion: builtin
kind: LabelTransformer
metadata:
  name: tenant
labels:
  tenant: team-a
fieldSpecs:
  - path: metadata/labels
    create: true
`;

const OVERLAYS: Record<string, Record<string, string>> = {
  'a LabelTransformer': {
    'tenant/kustomization.yaml': 'namespace: team-a\nresources:\n  - ../base\ntransformers:\n  - labels.yaml\n',
    'tenant/labels.yaml': LABEL_TRANSFORMER,
  },
  'commonLabels and commonAnnotations': {
    'tenant/kustomization.yaml':
      'namespace: team-a\nresources:\n  - ../base\ncommonLabels:\n  tenant: team-a\ncommonAnnotations:\n  owner: team-a\n',
  },
  'labels without selectors': {
    'tenant/kustomization.yaml':
      'namespace: team-a\nresources:\n  - ../base\nlabels:\n  - pairs:\n      tenant: team-a\n    includeTemplates: true\n',
  },
};

const CONTAINER: PathSegment[] = ['spec', 'template', 'spec', 'containers', { key: { name: 'api' } }];

function repository(overlay: Record<string, string>): Map<string, string> {
  return new Map([
    ['base/kustomization.yaml', 'resources:\n  - deployment.yaml\n'],
    ['base/deployment.yaml', DEPLOYMENT],
    ...Object.entries(overlay),
  ]);
}

function handMade(labels?: Record<string, string>): KubeObject {
  return handMadeConfigMap('team-a', labels);
}

/** The tenant's Deployment after a person scaled it and set an env var, plus the ConfigMap they created. */
function liveOf(files: Map<string, string>, configMap: KubeObject): KubeObject[] {
  const [deployment] = render(files, 'tenant');
  return [
    liveAfterHandEdit(deployment.object, [
      { segments: ['spec', 'replicas'], value: 5 },
      { segments: [...CONTAINER, 'env', { key: { name: 'MODE' } }, 'value'], value: 'degraded' },
    ]),
    configMap,
  ];
}

describe('codify on an overlay with label and annotation transformers', () => {
  for (const [name, overlay] of Object.entries(OVERLAYS)) {
    it(`${name}: writes the new ConfigMap and the scale and env edits; the self-check expects the overlay's labels`, () => {
      const files = repository(overlay);
      const live = liveOf(files, handMade());
      const config = configWith();
      const result = diff(render(files, 'tenant'), live, config);
      const out = codifyDrift({ files, root: 'tenant', result, live, config });
      expect(out.check).toEqual({ ok: true });
      expect(out.reported).toEqual([]);
      expect(out.codified.map((entry) => `${entry.kind} ${entry.file}`).sort()).toEqual([
        'new-file tenant/team-a/configmap-feature-flags.yaml',
        'replace base/deployment.yaml',
        'replace base/deployment.yaml',
      ]);
      expect(parse(out.edits.get('tenant/team-a/configmap-feature-flags.yaml')!)).toEqual({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'feature-flags', namespace: 'team-a' },
        data: { checkout: 'on' },
      });
      // Merged, only the labels the overlay adds to the new object are left: it applies them.
      const merged = new Map([...files, ...out.edits]);
      const after = diff(render(merged, 'tenant'), live, config);
      const left = after.resources.flatMap((resource) =>
        resource.changes.map((change) => `${keyId(resource.key)} ${change.path}`),
      );
      // Each map the overlay adds is named, not the whole metadata (live has its name and namespace).
      const maps = name.startsWith('commonLabels') ? ['labels', 'annotations'] : ['labels'];
      expect(left).toEqual(maps.map((map) => `/ConfigMap/team-a/feature-flags /metadata/${map}`));
      expect(after.resources.filter((resource) => resource.status === 'extra')).toEqual([]);
    });
  }

  it("an overlay label that would overwrite the live object's own label refuses that file only", () => {
    const files = repository(OVERLAYS['a LabelTransformer']);
    // The person labelled the ConfigMap tenant=team-b; the overlay would apply tenant=team-a.
    const live = liveOf(files, handMade({ tenant: 'team-b' }));
    const config = configWith();
    const result = diff(render(files, 'tenant'), live, config);
    const out = codifyDrift({ files, root: 'tenant', result, live, config });
    expect(out.check).toEqual({ ok: true });
    expect(out.codified.map((entry) => `${entry.kind} ${entry.change?.path ?? ''}`)).toEqual([
      'replace /spec/replicas',
      'replace /spec/template/spec/containers/0/env/0/value',
    ]);
    expect([...out.edits.keys()]).toEqual(['base/deployment.yaml']);
    expect(out.reported).toEqual([
      {
        key: expect.objectContaining({ kind: 'ConfigMap', name: 'feature-flags' }),
        reason:
          'not written: still or newly different after the edit: /ConfigMap/team-a/feature-flags /metadata/labels/tenant (replace)',
      },
    ]);
  });
});

describe('one refused edit never blocks the rest', () => {
  const files = repository(OVERLAYS['commonLabels and commonAnnotations']);
  const live = liveOf(files, handMade());
  const config = configWith();
  const result = diff(render(files, 'tenant'), live, config);

  /** Renders like kustomize, except that it loses the env value codify writes: that edit must fail alone. */
  const losesEnv: CodifyEngine = {
    render: (edited, root, options) =>
      renderManifests(
        new Map([...edited].map(([path, text]) => [path, text.replace('value: degraded', 'value: normal')])),
        root,
        options,
      ),
    diff: (desired, liveObjects) => diff(desired, liveObjects, config),
  };

  it('drops only the edit whose check fails, reports it with the reason, and writes the others', () => {
    const out = codifyWith(losesEnv, { files, root: 'tenant', result, live, config });
    expect(out.check).toEqual({ ok: true });
    expect(out.codified.map((entry) => `${entry.kind} ${entry.change?.path ?? entry.file}`)).toEqual([
      'new-file tenant/team-a/configmap-feature-flags.yaml',
      'replace /spec/replicas',
    ]);
    expect(out.edits.get('base/deployment.yaml')).toBe(DEPLOYMENT.replace('replicas: 2', 'replicas: 5'));
    expect(out.edits.has('tenant/team-a/configmap-feature-flags.yaml')).toBe(true);
    expect(out.reported).toEqual([
      expect.objectContaining({
        change: expect.objectContaining({ path: '/spec/template/spec/containers/0/env/0/value' }),
        reason:
          'not written: still or newly different after the edit: apps/Deployment/team-a/api /spec/template/spec/containers/0/env/0/value (replace)',
      }),
    ]);
  });

  it('when every edit fails, nothing is written and the check says why', () => {
    const stale: CodifyEngine = {
      render: (_edited, root, options) => renderManifests(files, root, options),
      diff: (desired, liveObjects) => diff(desired, liveObjects, config),
    };
    const out = codifyWith(stale, { files, root: 'tenant', result, live, config });
    expect(out.edits.size).toBe(0);
    expect(out.codified).toEqual([]);
    expect(out.check).toMatchObject({ ok: false, reason: expect.stringMatching(/^still or newly different/) });
    expect(out.reported.map((entry) => entry.reason.slice(0, 16))).toEqual([
      'not written: sti',
      'not written: sti',
      'not written: sti',
    ]);
  });
});

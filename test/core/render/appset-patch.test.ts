// An ApplicationSet's `templatePatch` as the applicationset controller applies it
// (controllers/template/patch.go, k8s.io/apimachinery strategicpatch): the first cases are Argo CD's
// own (patch_test.go Test_ApplyTemplatePatch, TestError); the documented example is Argo CD's
// Template.md (test/fixtures/upstream/argo-cd-applicationset/docs/..., argoproj/argo-cd, Apache-2.0).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../../src/core/model/index.js';
import { expandApplicationSet } from '../../../src/core/render/appset-expand.js';
import { applyTemplatePatch } from '../../../src/core/render/appset-patch.js';
import { readFixtureTree } from '../../support/fixtures.js';

const GO = { goTemplate: true, missingKeyError: false };

const guestbook = () => ({
  metadata: { name: 'my-cluster-guestbook', finalizers: ['resources-finalizer.argocd.argoproj.io'] },
  spec: {
    project: 'default',
    source: {
      repoURL: 'https://github.com/argoproj/argocd-example-apps.git',
      targetRevision: 'HEAD',
      path: 'guestbook',
    },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
  },
});

const patched = (patch: string, application: Record<string, unknown> = guestbook(), params = {}) => {
  const result = applyTemplatePatch(application, patch, params, GO);
  return result.ok ? result.value : `ERROR: ${result.reason}`;
};

describe("Argo CD's templatePatch cases", () => {
  const expected = {
    metadata: { ...guestbook().metadata, annotations: { 'annotation-some-key': 'annotation-some-value' } },
    spec: {
      ...guestbook().spec,
      source: { ...guestbook().spec.source, helm: { valueFiles: ['values.test.yaml', 'values.big.yaml'] } },
      syncPolicy: { automated: { prune: true } },
    },
  };

  it('patch with JSON', () => {
    const patch = `{
      "metadata": {"annotations": {"annotation-some-key": "annotation-some-value"}},
      "spec": {
        "source": {"helm": {"valueFiles": ["values.test.yaml", "values.big.yaml"]}},
        "syncPolicy": {"automated": {"prune": true}}
      }
    }`;
    expect(patched(patch)).toEqual(expected);
  });

  it('patch with YAML', () => {
    const patch = `
metadata:
  annotations:
    annotation-some-key: annotation-some-value
spec:
  source:
    helm:
      valueFiles:
        - values.test.yaml
        - values.big.yaml
  syncPolicy:
    automated:
      prune: true`;
    expect(patched(patch)).toEqual(expected);
  });

  it("project field isn't overwritten", () => {
    expect(patched('spec:\n  project: my-project')).toEqual(guestbook());
  });

  it('a patch that is not a map is an error', () => {
    expect(patched('hello world')).toBe(
      'ERROR: invalid templatePatch: json: cannot unmarshal string into Go value of type v1alpha1.Application',
    );
  });
});

describe('strategic merge on an Application', () => {
  it.each([
    ['maps merge key by key', 'spec:\n  destination:\n    namespace: other', { namespace: 'other' }],
    ['null deletes a key', 'spec:\n  source:\n    targetRevision: null', { targetRevision: undefined }],
    ['`$patch: replace` replaces a map', 'spec:\n  source:\n    $patch: replace\n    chart: c', { replaced: true }],
  ])('%s', (_name, patch, change) => {
    const app = patched(patch) as ReturnType<typeof guestbook>;
    if ('namespace' in change) expect(app.spec.destination.namespace).toBe('other');
    if ('targetRevision' in change) expect(Object.keys(app.spec.source)).toEqual(['repoURL', 'path']);
    if ('replaced' in change) expect(app.spec.source).toEqual({ chart: 'c' });
    expect(app.spec.project).toBe('default');
  });

  it('lists are replaced, not merged: no Application field merges lists by key', () => {
    const app = patched('metadata:\n  finalizers: [a]') as ReturnType<typeof guestbook>;
    expect(app.metadata.finalizers).toEqual(['a']);
    const removed = patched('metadata:\n  finalizers: null') as ReturnType<typeof guestbook>;
    expect(removed.metadata).toEqual({ name: 'my-cluster-guestbook' });
  });

  it('`$patch: delete` leaves an empty map, and an empty `spec:` clears the spec but its project', () => {
    expect((patched('spec:\n  source:\n    $patch: delete') as any).spec.source).toEqual({});
    expect((patched('spec:\n') as any).spec).toEqual({ project: 'default' });
  });

  it('`$retainKeys` keeps only the keys it lists; a patch key it does not list is an error', () => {
    const patch = 'spec:\n  source:\n    $retainKeys: [repoURL, chart]\n    chart: c';
    expect((patched(patch) as any).spec.source).toEqual({ repoURL: guestbook().spec.source.repoURL, chart: 'c' });
    expect(patched('spec:\n  source:\n    $retainKeys: [repoURL]\n    chart: c')).toContain(
      'invalid patch format: chart is not in $retainKeys',
    );
  });

  it('YAML 1.1 typing as sigs.k8s.io/yaml reads it: yes is true, 010 is octal', () => {
    const app = patched('spec:\n  syncPolicy:\n    automated:\n      prune: yes\n  revisionHistoryLimit: 010');
    expect((app as any).spec.syncPolicy.automated.prune).toBe(true);
    expect((app as any).spec.revisionHistoryLimit).toBe(8);
  });

  it('a valuesObject key both sides hold fails, as in Argo CD; a new one is added as written, nulls too', () => {
    const app = guestbook() as any;
    app.spec.source.helm = { valuesObject: { replicas: 2, image: { tag: 'a' } } };
    expect(patched('spec:\n  source:\n    helm:\n      valuesObject:\n        image: {tag: b}', app)).toBe(
      'ERROR: error while applying templatePatch: unable to find api field in struct RawExtension for the json field "image"',
    );
    const added = patched('spec:\n  source:\n    helm:\n      valuesObject:\n        extra: {keep: null}', app) as any;
    expect(added.spec.source.helm.valuesObject).toEqual({ replicas: 2, image: { tag: 'a' }, extra: { keep: null } });
  });

  it('refuses what it cannot read, with the reason', () => {
    expect(patched('spec: [a')).toMatch(/^ERROR: error while converting templatePatch to JSON: yaml: /);
    expect(patched('{"spec": ')).toMatch(/^ERROR: invalid templatePatch: /);
    expect(patched('spec: x')).toBe(
      'ERROR: invalid templatePatch: json: cannot unmarshal string into Go struct field Application.spec of type struct',
    );
    expect(patched('spec:\n  syncPolicy:\n    automated:\n      prune: "true"')).toBe(
      'ERROR: invalid templatePatch: json: cannot unmarshal string into Go struct field Application.spec.syncPolicy.automated.prune of type bool',
    );
    expect(patched('spec:\n  source:\n    helm:\n      valueFiles: [a, 3]')).toContain(
      'cannot unmarshal number into Go struct field Application.spec.source.helm.valueFiles of type string',
    );
    expect(patched('spec:\n  $patch: merge\n  x: 1')).toContain('unknown patch type: merge in map');
  });

  it("checks every field of Argo CD's Application CRD, deep in lists and structs, and ignores unknown ones", () => {
    const refused = (patch: string) => (patched(patch) as string).replace('ERROR: invalid templatePatch: json: ', '');
    expect(refused('spec:\n  source:\n    directory:\n      jsonnet:\n        tlas: [{name: a, code: "yes"}]')).toBe(
      'cannot unmarshal string into Go struct field Application.spec.source.directory.jsonnet.tlas.code of type bool',
    );
    expect(refused('spec:\n  ignoreDifferences: [{kind: Deployment, jsonPointers: /spec/replicas}]')).toBe(
      'cannot unmarshal string into Go struct field Application.spec.ignoreDifferences.jsonPointers of type []string',
    );
    expect(refused('spec:\n  sources: [{repoURL: r, kustomize: {replicas: [{name: web, count: true}]}}]')).toBe(
      'cannot unmarshal bool into Go value of type int32',
    );
    expect(refused('spec:\n  syncPolicy:\n    retry: {limit: 1.5}')).toBe(
      'cannot unmarshal number 1.5 into Go struct field Application.spec.syncPolicy.retry.limit of type int64',
    );
    expect(refused('spec:\n  info: [{name: a, value: 3}]')).toBe(
      'cannot unmarshal number into Go struct field Application.spec.info.value of type string',
    );
    const accepted = patched(
      'spec:\n  notAField: 3\n  source:\n    kustomize:\n      replicas: [{name: web, count: "2"}]',
    );
    expect(accepted).toMatchObject({ spec: { notAField: 3, source: { kustomize: { replicas: [{ count: '2' }] } } } });
    expect(patched('{{ .missing.x }}', guestbook(), { missing: 'text' })).toContain("can't evaluate field x");
  });

  it('a patch that renders to nothing changes nothing', () => {
    expect(patched('{{ if .on }}spec: {}{{ end }}\n# nothing')).toEqual(guestbook());
  });
});

describe("Argo CD's documented templatePatch example", () => {
  const doc = readFixtureTree('argo-cd-applicationset').get('docs/operator-manual/applicationset/Template.md')!;
  const text = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('templatePatch'))!;

  const expand = (appset: KubeObject) =>
    expandApplicationSet(appset, { files: new Map(), live: [], isThisRepository: () => true });

  it('value files from a list and the automated sync policy only where the element asks for it', () => {
    const appset = parse(text) as KubeObject;
    appset.metadata = { ...appset.metadata, namespace: 'argocd' };
    const elements = (appset.spec as any).generators[0].list.elements;
    elements.push({
      cluster: 'engineering-prod',
      url: 'https://prod.example',
      autoSync: false,
      valueFiles: ['a.yaml'],
    });
    // The example names its Applications after `.nameNormalized`, a cluster generator parameter the
    // list elements do not set: Argo CD prints `<no value>` for it.
    (appset.spec as any).template.metadata.name = '{{ .cluster }}-deployment';
    const expansion = expand(appset);
    expect(expansion.ok).toBe(true);
    const apps = expansion.ok ? expansion.applications : [];
    expect(apps.map((app) => [app.metadata.name, (app.spec as any).source.helm, (app.spec as any).syncPolicy])).toEqual(
      [
        [
          'engineering-dev-deployment',
          { valueFiles: ['values.large.yaml', 'values.debug.yaml'] },
          { automated: { prune: true } },
        ],
        ['engineering-prod-deployment', { valueFiles: ['a.yaml'] }, undefined],
      ],
    );
    expect(apps[0]!.metadata).toMatchObject({
      namespace: 'argocd',
      finalizers: ['resources-finalizer.argocd.argoproj.io'],
    });
  });

  it('as written: the Application is named after a parameter the list does not give', () => {
    const appset = parse(text) as KubeObject;
    const expansion = expand(appset);
    expect(expansion.ok && expansion.applications.map((app) => app.metadata.name)).toEqual(['<no value>-deployment']);
  });

  it('a patch that fails for one parameter set leaves the ApplicationSet not rendered, with the reason', () => {
    const appset = parse(text) as KubeObject;
    (appset.spec as any).templatePatch = 'spec:\n  source: {{ .cluster }}\n';
    const expansion = expand(appset);
    expect(expansion).toEqual({
      ok: false,
      reason:
        'invalid templatePatch: json: cannot unmarshal string into Go struct field Application.spec.source of type struct',
    });
  });
});

// kustomize's `crds:` definitions read into field specs (the krusty crd_test cases build with them).
import { describe, expect, it } from 'vitest';
import { configFromCrdDefinitions } from '../../../src/core/manifests/crd-config.js';

const objectProps = { kind: { type: 'string' }, apiVersion: { type: 'string' }, metadata: { $ref: 'meta.ObjectMeta' } };

describe('crds: OpenAPI definitions as transformer field specs', () => {
  it('reads each extension at its path under the kind, following $refs', () => {
    const config = configFromCrdDefinitions({
      'example.com/v1.Widget': {
        Schema: { properties: { ...objectProps, spec: { $ref: 'example.com/v1.WidgetSpec' } } },
      },
      'example.com/v1.WidgetSpec': {
        Schema: {
          properties: {
            secretRef: { 'x-kubernetes-object-ref-api-version': 'v1', 'x-kubernetes-object-ref-kind': 'Secret' },
            owner: {
              'x-kubernetes-object-ref-api-version': 'v1',
              'x-kubernetes-object-ref-kind': 'ServiceAccount',
              'x-kubernetes-object-ref-name-key': 'account',
            },
            selector: { 'x-kubernetes-label-selector': '' },
            notes: { 'x-kubernetes-annotation': '' },
            id: { 'x-kubernetes-identity': '' },
          },
        },
      },
    });
    expect(config.nameReference).toEqual([
      { kind: 'Secret', version: 'v1', fieldSpecs: [{ kind: 'Widget', path: 'spec/secretRef/name', create: false }] },
      {
        kind: 'ServiceAccount',
        version: 'v1',
        fieldSpecs: [{ kind: 'Widget', path: 'spec/owner/account', create: false }],
      },
    ]);
    expect(config.commonLabels).toEqual([{ kind: 'Widget', path: 'spec/selector', create: false }]);
    expect(config.commonAnnotations).toEqual([{ kind: 'Widget', path: 'spec/notes', create: false }]);
    expect(config.namePrefix).toEqual([{ kind: 'Widget', path: 'spec/id', create: false }]);
  });

  it('skips types that are not objects and ends on a $ref cycle', () => {
    const config = configFromCrdDefinitions({
      'a.Loop': { Schema: { properties: { ...objectProps, next: { $ref: 'a.Loop' } } } },
      'a.Part': {
        Schema: {
          properties: {
            ref: { 'x-kubernetes-object-ref-api-version': 'v1', 'x-kubernetes-object-ref-kind': 'Secret' },
          },
        },
      },
    });
    expect(config.nameReference).toEqual([]);
    expect(configFromCrdDefinitions(['not', 'a', 'map'])).toMatchObject({ nameReference: [] });
  });
});

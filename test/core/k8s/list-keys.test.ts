// Server-side apply's keys and strategic merge patch's keys, each derived by its own rule from the
// merge facts generated from Kubernetes' OpenAPI (the table itself: list-keys-generated.test.ts).
import { describe, expect, it } from 'vitest';
import {
  listKeysFor,
  mergeFactsAt,
  parseQuantity,
  quantitiesEqual,
  strategicMergeOf,
  type StrategicMerge,
} from '../../../src/core/k8s/index.js';

describe('listKeysFor', () => {
  const rows: Array<[string, string, string, string[] | undefined]> = [
    ['apps', 'Deployment', '/spec/template/spec/containers', ['name']],
    ['apps', 'Deployment', '/spec/template/spec/containers/*/ports', ['containerPort', 'protocol']],
    ['apps', 'StatefulSet', '/spec/template/spec/containers/*/volumeMounts', ['mountPath']],
    ['apps', 'DaemonSet', '/spec/template/spec/initContainers/*/env', ['name']],
    ['', 'Service', '/spec/ports', ['port', 'protocol']],
    ['', 'Pod', '/spec/volumes', ['name']],
    ['', 'ReplicationController', '/spec/template/spec/containers', ['name']],
    ['batch', 'Job', '/spec/template/spec/containers', ['name']],
    ['batch', 'CronJob', '/spec/jobTemplate/spec/template/spec/containers/*/env', ['name']],
    ['apps', 'Deployment', '/spec/template/spec/containers/*/args', undefined],
    ['apps', 'Deployment', '/spec/template/spec/tolerations', undefined],
    ['networking.k8s.io', 'Ingress', '/spec/rules', undefined],
    ['example.com', 'Widget', '/spec/containers', undefined],
    // No list annotation in the API: one value for server-side apply, whatever the items hold.
    ['apps', 'StatefulSet', '/spec/volumeClaimTemplates', undefined],
    // A set (merge strategy, no key) is not keyed.
    ['', 'Node', '/spec/podCIDRs', undefined],
    ['', 'Service', '/metadata/finalizers', undefined],
    ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', '/webhooks', ['name']],
    ['storage.k8s.io', 'CSINode', '/spec/drivers', ['name']],
  ];
  for (const [group, kind, pointer, keys] of rows) {
    it(`${group || 'core'}/${kind} ${pointer} → ${keys ? keys.join('+') : 'atomic'}`, () => {
      expect(listKeysFor(group, kind, pointer)).toEqual(keys);
    });
  }
});

describe('strategicMergeOf (kustomize: list-map-keys when the list has a patch strategy, else its merge key)', () => {
  const keyed = (...keys: string[]): StrategicMerge => ({ type: 'keyed', keys });
  const rows: Array<[string, string, string, StrategicMerge]> = [
    ['apps', 'Deployment', 'spec/template/spec/containers', keyed('name')],
    // The API's patch merge key is containerPort; its list-map-keys add the protocol, and kustomize uses those.
    ['apps', 'Deployment', 'spec/template/spec/containers/*/ports', keyed('containerPort', 'protocol')],
    ['', 'Service', 'spec/ports', keyed('port', 'protocol')],
    ['', 'Pod', 'spec/volumes', keyed('name')],
    ['batch', 'CronJob', 'spec/jobTemplate/spec/template/spec/initContainers/*/env', keyed('name')],
    // Server-side apply keys resource claims by name; they carry no patch strategy, so a patch replaces them.
    ['apps', 'Deployment', 'spec/template/spec/containers/*/resources/claims', { type: 'replace' }],
    ['apps', 'StatefulSet', 'spec/volumeClaimTemplates', { type: 'replace' }],
    ['apps', 'Deployment', 'spec/template/spec/tolerations', { type: 'replace' }],
    ['', 'ConfigMap', 'metadata/finalizers', { type: 'set' }],
    ['', 'Node', 'spec/podCIDRs', { type: 'set' }],
    ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration', 'webhooks/*/matchConditions', keyed('name')],
    ['example.com', 'Widget', 'spec/template/spec/containers', { type: 'replace' }],
  ];
  it.each(rows)('%s/%s %s', (group, kind, path, merge) => {
    expect(strategicMergeOf(group, kind, path.split('/'))).toEqual(merge);
  });

  it('a fact of one version of a kind does not hold for another', () => {
    const hpa = (version: string) =>
      mergeFactsAt('autoscaling', 'HorizontalPodAutoscaler', '/spec/scaleTargetRef', version);
    expect(hpa('v1')).toMatchObject({ ssa: 'atomic' });
    expect(hpa('v2')).toBeUndefined();
    expect(listKeysFor('', 'Service', '/spec/ports', 'v1')).toEqual(['port', 'protocol']);
  });

  it("ObjectMeta holds wherever metadata sits: an object's own, and a pod template's", () => {
    expect(mergeFactsAt('', 'ConfigMap', '/metadata/ownerReferences')).toMatchObject({ ssa: ['uid'] });
    expect(mergeFactsAt('apps', 'Deployment', '/spec/template/metadata/finalizers')).toMatchObject({ ssa: 'set' });
  });

  it('keeps the two merges apart where the API annotates them differently', () => {
    const pointer = '/spec/template/spec/containers/*/resources/claims';
    expect(listKeysFor('apps', 'Deployment', pointer)).toEqual(['name']);
    expect(strategicMergeOf('apps', 'Deployment', pointer.slice(1).split('/'))).toEqual({ type: 'replace' });
  });
});

describe('quantities', () => {
  const rows: Array<[unknown, unknown, boolean]> = [
    ['500m', '0.5', true],
    ['1Gi', '1024Mi', true],
    ['1e3', '1k', true],
    ['1E3', '1000', true],
    ['2', 2, true],
    ['1.5Gi', '1536Mi', true],
    ['100u', '0.1m', true],
    ['1Ki', '1024', true],
    ['1M', '1000k', true],
    ['1Mi', '1M', false],
    ['0.1', '101m', false],
  ];
  for (const [a, b, equal] of rows) {
    it(`${String(a)} ${equal ? '=' : '≠'} ${String(b)}`, () => expect(quantitiesEqual(a, b)).toBe(equal));
  }
  it('text that is not a quantity is not parsed', () => {
    for (const text of ['abc', '1 Gi', '', 'Gi', '1.2.3']) expect(parseQuantity(text)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanLiveObject } from '../../../src/core/codify/index.js';
import { keyOf, type KubeObject } from '../../../src/core/model/index.js';
import { readFixture } from '../../support/fixtures.js';
import { configWith, diff } from './support.js';

function live(name: string): KubeObject {
  return parse(readFixture('k8s-diff/gitops-engine', name)) as KubeObject;
}

function asDesired(object: KubeObject) {
  const key = keyOf(object);
  return {
    key,
    object,
    source: {
      file: 'x.yaml',
      document: 0,
      location: { file: 'x.yaml', document: 0, range: [0, 0] as [number, number], line: 1, column: 1 },
      kustomizations: [],
      sourceName: key.name,
      fields: {},
    },
  };
}

describe('cleanLiveObject: a hand-made resource as a person would write it', () => {
  it.each([
    {
      file: 'smd-deploy-live.yaml',
      gone: [
        'status',
        'metadata.managedFields',
        'metadata.creationTimestamp',
        'metadata.generation',
        'metadata.annotations',
        'spec.progressDeadlineSeconds',
        'spec.revisionHistoryLimit',
        'spec.strategy',
        'spec.template.spec.dnsPolicy',
        'spec.template.spec.schedulerName',
        'spec.template.spec.restartPolicy',
        'spec.template.spec.containers.0.terminationMessagePath',
        'spec.template.spec.containers.0.terminationMessagePolicy',
      ],
      kept: ['spec.replicas', 'spec.selector', 'spec.template.spec.containers.0.image', 'metadata.labels'],
      tcpGone: false,
    },
    {
      file: 'smd-service-live.yaml',
      gone: [
        'status',
        'spec.clusterIP',
        'spec.clusterIPs',
        'spec.ipFamilies',
        'spec.ipFamilyPolicy',
        'spec.sessionAffinity',
        'spec.type',
        'metadata.resourceVersion',
        'metadata.uid',
      ],
      kept: [
        'spec.ports.0.port',
        'spec.ports.1.targetPort',
        'spec.ports.0.protocol',
        'metadata.name',
        'metadata.namespace',
      ],
      tcpGone: true,
    },
  ])('$file', ({ file, gone, kept, tcpGone }) => {
    const original = live(file);
    const cleaned = cleanLiveObject(original);
    const at = (obj: unknown, path: string): unknown =>
      path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], obj);
    for (const path of gone) expect(at(cleaned, path), path).toBeUndefined();
    for (const path of kept) expect(at(cleaned, path), path).toEqual(at(original, path));
    expect(JSON.stringify(cleaned)).not.toContain('kubectl.kubernetes.io');
    if (tcpGone) expect(JSON.stringify(cleaned.spec)).not.toContain('"TCP"');
    expect(original.status, 'the input is not changed').toBeDefined();
  });

  it('the cleaned manifest diffs in sync with the live object it came from', () => {
    for (const file of ['smd-deploy-live.yaml', 'smd-service-live.yaml']) {
      const object = live(file);
      const result = diff([asDesired(cleanLiveObject(object))], [object], configWith());
      expect(result.resources.map((r) => [file, r.status, r.changes.map((c) => c.path)])).toEqual([
        [file, 'in-sync', []],
      ]);
    }
  });
});

// A manifest written for a hand-made object holds only what a person wrote: for the debug Pod of the
// hand-made scenario, none of what admission and the scheduler added.
import { describe, expect, it } from 'vitest';
import { cleanLiveObject } from '../../../src/core/codify/index.js';
import { scenarioSnapshot } from '../../support/controllers.js';

describe('cleaning what the server added to a Pod', () => {
  const pod = scenarioSnapshot('hand-made', 'hand-made').items.find((o) => o.kind === 'Pod')!;

  it('keeps what kubectl run sent and nothing else', () => {
    expect(cleanLiveObject(pod)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'debug', namespace: 'shop', labels: { run: 'debug' } },
      spec: { containers: [{ name: 'debug', image: 'busybox:1.37', args: ['sleep', '3600'] }] },
    });
  });

  it("keeps a person's own tolerations, volumes, service account and priority class", () => {
    const own = structuredClone(pod);
    const spec = own.spec as Record<string, unknown>;
    spec.serviceAccountName = 'debugger';
    spec.serviceAccount = 'debugger';
    spec.priorityClassName = 'high';
    spec.priority = 1000;
    spec.tolerations = [...(spec.tolerations as unknown[]), { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }];
    spec.volumes = [...(spec.volumes as unknown[]), { name: 'scratch', emptyDir: {} }];
    const cleaned = cleanLiveObject(own).spec as Record<string, unknown>;
    expect(cleaned).toMatchObject({
      serviceAccountName: 'debugger',
      priorityClassName: 'high',
      tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      volumes: [{ name: 'scratch', emptyDir: {} }],
    });
    expect(cleaned).not.toHaveProperty('serviceAccount');
    expect(cleaned).not.toHaveProperty('priority');
    expect(cleaned).not.toHaveProperty('nodeName');
  });
});

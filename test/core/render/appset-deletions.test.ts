// What the ApplicationSet controller does with the Applications an ApplicationSet no longer generates,
// under the policy of the Argo CD instance that reconciles it (applicationset/utils/policy.go).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/core/model/index.js';
import { generatedFate } from '../../../src/core/render/appset-deletions.js';

const params = (namespace: string, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'argocd-cmd-params-cm', namespace },
  data,
});

const appset: KubeObject = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ApplicationSet',
  metadata: { name: 'apps', namespace: 'team-a' },
  spec: {},
};

const generated = (name: string): KubeObject => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: {
    name,
    namespace: 'team-a',
    finalizers: ['resources-finalizer.argocd.argoproj.io'],
    ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'apps', controller: true }],
  },
  spec: {},
});

describe('the policy for the Applications an ApplicationSet no longer generates', () => {
  it("is the one of the instance that reconciles the ApplicationSet's namespace, not another instance's", () => {
    const live = [
      params('argocd-other', { 'applicationsetcontroller.policy': 'sync' }),
      params('argocd', {
        'applicationsetcontroller.policy': 'create-only',
        'applicationsetcontroller.namespaces': 'team-*',
      }),
      generated('web'),
      generated('api'),
    ];
    const fate = generatedFate(appset, [generated('web')], live);
    expect(fate.policy).toBe('create-only');
    expect(fate.removed.map((removed) => [removed.application.metadata.name, removed.deleted])).toEqual([
      ['api', false],
    ]);
    expect([...fate.keptAsLive]).toEqual(['web']);
  });

  it('deletes, with what it deployed, under the sync policy of the reconciling instance', () => {
    const live = [
      params('argocd', { 'applicationsetcontroller.namespaces': 'team-a' }),
      generated('web'),
      generated('api'),
    ];
    const fate = generatedFate(appset, [generated('web')], live);
    expect(fate.policy).toBe('sync');
    expect(
      fate.removed.map((removed) => [removed.application.metadata.name, removed.deleted, removed.cascade]),
    ).toEqual([['api', true, true]]);
  });
});

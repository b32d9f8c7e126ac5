// Which objects are hooks, as Argo CD reads them: the cases of gitops-engine's own tests
// (pkg/sync/hook/hook_test.go, hook/helm/hook_test.go, helm/weight_test.go, delete_policy_test.go,
// syncwaves/waves_test.go), on Pods annotated as testingutils.Annotate(NewPod(), …) builds them.
import { describe, expect, it } from 'vitest';
import type { DesiredObject, KubeObject } from '../../../src/core/model/index.js';
import { keyOf } from '../../../src/core/model/index.js';
import { describeHook, hookRuns, liveHookOf, setHooksAside, syncHookOf } from '../../../src/core/sources/index.js';

function pod(annotations: Record<string, string> = {}, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'my-pod', namespace: 'fake-argocd-ns', annotations, labels },
    spec: { containers: [{ name: 'main', image: 'alpine:latest' }] },
  };
}

const argo = (value: string) => pod({ 'argocd.argoproj.io/hook': value });

describe('syncHookOf (gitops-engine hook_test.go)', () => {
  it('an object with no hook annotation is none (TestNoHooks)', () => {
    expect(syncHookOf(pod())).toBeUndefined();
  });

  it.each(['PreSync', 'Sync', 'PostSync', 'SyncFail'])(
    'one Argo CD hook %s runs in its phase (TestOneHook)',
    (type) => {
      expect(syncHookOf(argo(type))).toMatchObject({ phases: [type], skip: false });
    },
  );

  it('Skip alone is no hook but is never applied (TestSkipHook)', () => {
    expect(syncHookOf(argo('Skip'))).toMatchObject({ phases: [], skip: true });
  });

  it('a misspelt phase is still a hook, one no sync runs (TestGarbageHook)', () => {
    expect(syncHookOf(argo('Garbage'))).toMatchObject({ phases: [], skip: false });
  });

  it('two hooks, repeats, Skip with phases, garbage with a phase (TestTwoHooks, TestDupHookTypes, TestSkipAndHook)', () => {
    expect(syncHookOf(argo('PreSync,PostSync'))?.phases).toEqual(['PreSync', 'PostSync']);
    expect(syncHookOf(argo('Sync,Sync'))?.phases).toEqual(['Sync']);
    expect(syncHookOf(argo('Skip,PreSync,PostSync'))).toMatchObject({ phases: ['PreSync', 'PostSync'], skip: false });
    expect(syncHookOf(argo('Sync,Garbage'))?.phases).toEqual(['Sync']);
  });

  it('Helm hooks map to Argo CD phases; others are hooks no sync runs; crd-install is none (helm/type.go, hook.go)', () => {
    expect(syncHookOf(pod({ 'helm.sh/hook': 'pre-install' }))).toMatchObject({
      annotation: 'helm.sh/hook',
      phases: ['PreSync'],
    });
    expect(syncHookOf(pod({ 'helm.sh/hook': 'pre-install,post-upgrade' }))?.phases).toEqual(['PreSync', 'PostSync']);
    expect(syncHookOf(pod({ 'helm.sh/hook': 'garbage' }))).toMatchObject({ phases: [], skip: false });
    expect(syncHookOf(pod({ 'helm.sh/hook': 'test' }))).toMatchObject({ phases: [] });
    expect(syncHookOf(pod({ 'helm.sh/hook': 'crd-install' }))).toBeUndefined();
  });

  it("an Argo CD hook wins over Helm's (TestBothHooks)", () => {
    const both = pod({ 'argocd.argoproj.io/hook': 'Sync', 'helm.sh/hook': 'pre-install' });
    expect(syncHookOf(both)).toMatchObject({ annotation: 'argocd.argoproj.io/hook', phases: ['Sync'] });
  });

  it('PreDelete and PostDelete, by either annotation, are delete hooks no sync runs (controller/hook.go)', () => {
    expect(syncHookOf(argo('PostDelete'))).toMatchObject({ phases: [], onDelete: ['PostDelete'], skip: false });
    expect(syncHookOf(argo('PreDelete, PostDelete'))).toMatchObject({ onDelete: ['PreDelete', 'PostDelete'] });
    expect(syncHookOf(pod({ 'helm.sh/hook': 'pre-delete' }))).toMatchObject({ phases: [], onDelete: ['PreDelete'] });
    // isHookOfType reads each annotation on its own: a Helm delete hook counts beside an Argo CD sync phase.
    const both = syncHookOf(pod({ 'argocd.argoproj.io/hook': 'PreSync', 'helm.sh/hook': 'post-delete' }))!;
    expect(both).toMatchObject({ phases: ['PreSync'], onDelete: ['PostDelete'] });
    expect(syncHookOf(argo('PostSync'))).toMatchObject({ onDelete: [] });
    expect(describeHook(syncHookOf(argo('PostDelete'))!)).toBe('Argo CD PostDelete hook');
    expect(hookRuns(syncHookOf(argo('PostDelete'))!)).toBe(
      'when its Application is deleted (PostDelete, after what it deployed is deleted)',
    );
    expect(hookRuns(both)).toBe(
      'PreSync, wave 0; deleted: BeforeHookCreation; and when its Application is deleted (PostDelete, after what it deployed is deleted)',
    );
  });

  it('the wave is the sync-wave, else the Helm hook weight, else 0; a non-number is ignored (waves.go)', () => {
    expect(syncHookOf(pod({ 'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/sync-wave': '-1' }))?.wave).toBe(
      -1,
    );
    expect(syncHookOf(pod({ 'helm.sh/hook': 'pre-install', 'helm.sh/hook-weight': '5' }))?.wave).toBe(5);
    const both = { 'helm.sh/hook': 'pre-install', 'helm.sh/hook-weight': '5', 'argocd.argoproj.io/sync-wave': 'x' };
    expect(syncHookOf(pod(both))?.wave).toBe(5);
    expect(syncHookOf(argo('Sync'))?.wave).toBe(0);
  });

  it('delete policies: Argo CD and Helm mapped, BeforeHookCreation by default (delete_policy.go)', () => {
    expect(syncHookOf(argo('Sync'))?.deletePolicies).toEqual(['BeforeHookCreation']);
    const named = { 'argocd.argoproj.io/hook': 'Sync', 'argocd.argoproj.io/hook-delete-policy': 'HookSucceeded' };
    expect(syncHookOf(pod(named))?.deletePolicies).toEqual(['HookSucceeded']);
    const helm = { 'helm.sh/hook': 'post-install', 'helm.sh/hook-delete-policy': 'hook-failed' };
    expect(syncHookOf(pod(helm))?.deletePolicies).toEqual(['HookFailed']);
  });
});

describe('hooks under a Flux Kustomization', () => {
  // kustomize-controller reads neither annotation: it applies the object like any other.
  const fluxLabels = {
    'kustomize.toolkit.fluxcd.io/name': 'apps',
    'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
  };

  it('a live object Flux applied is no hook; one Argo CD applied is', () => {
    expect(liveHookOf(pod({ 'argocd.argoproj.io/hook': 'PreSync' }, fluxLabels))).toBeUndefined();
    const argoLabels = { 'app.kubernetes.io/instance': 'guestbook' };
    expect(liveHookOf(pod({ 'argocd.argoproj.io/hook': 'PreSync' }, argoLabels))?.phases).toEqual(['PreSync']);
  });

  it('a render keeps a hook a Flux Kustomization applies, and sets aside one an Application applies', () => {
    const desired = (name: string): DesiredObject => {
      const object = { ...argo('PreSync'), metadata: { ...argo('PreSync').metadata, name } };
      return { key: keyOf(object), object, source: { file: `${name}.yaml` } as DesiredObject['source'] };
    };
    const [flux, app] = [desired('flux-job'), desired('argo-job')];
    const source = (controller: 'flux' | 'argocd', kind: 'Kustomization' | 'Application', key = flux.key) => ({
      source: { id: { controller, kind, group: '', namespace: 'x', name: 'x' } },
      objects: [key],
    });
    const rendered = setHooksAside({
      objects: [flux, app],
      sources: [source('flux', 'Kustomization'), source('argocd', 'Application', app.key)],
    });
    expect(rendered.objects.map((d) => d.key.name)).toEqual(['flux-job']);
    expect(rendered.hooks.map((h) => h.desired.key.name)).toEqual(['argo-job']);
    expect(rendered.sources[1]!.objects).toEqual([]);
  });
});

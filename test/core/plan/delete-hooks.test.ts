// The Argo CD delete hooks a plan lists: those of the Applications it prunes (an app of apps that no
// longer declares one) and of those an ApplicationSet deletes; never a sync hook, never another
// Application's.
import { describe, expect, it } from 'vitest';
import { keyOf, type DesiredObject, type KubeObject } from '../../../src/core/model/index.js';
import { hooksOnDelete, unrenderedDeleteHooks } from '../../../src/core/plan/index.js';
import { syncHookOf, type DesiredHook } from '../../../src/core/sources/index.js';

const application = (name: string) => ({
  controller: 'argocd' as const,
  group: 'argoproj.io',
  kind: 'Application' as const,
  namespace: 'argocd',
  name,
});

function hook(name: string, value: string, app: string, wave = 0): DesiredHook {
  const object: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: app,
      annotations: { 'argocd.argoproj.io/hook': value, 'argocd.argoproj.io/sync-wave': String(wave) },
    },
  };
  const file = `apps/${app}/${name}.yaml`;
  const location = { file, document: 0, range: [0, 0] as [number, number], line: 1, column: 1 };
  const source = { file, document: 0, location, kustomizations: [], sourceName: name, fields: {} };
  const desired: DesiredObject = { key: keyOf(object), object, source };
  return { desired, hook: syncHookOf(object)!, appliedBy: application(app) };
}

describe('hooksOnDelete', () => {
  const head = [
    hook('cleanup', 'PostDelete', 'api'),
    hook('drain', 'PreDelete', 'api', 5),
    hook('backup', 'PreDelete', 'api', -1),
    hook('migrate', 'PreSync', 'api'),
    hook('cleanup', 'PostDelete', 'web'),
  ];
  const api = { group: 'argoproj.io', kind: 'Application', namespace: 'argocd', name: 'api' };

  it('lists the delete hooks of a pruned Application, PreDelete first, by wave', () => {
    const listed = hooksOnDelete([api], head);
    expect(listed.map((entry) => [entry.id.name, entry.hook.onDelete[0], entry.application.name])).toEqual([
      ['backup', 'PreDelete', 'api'],
      ['drain', 'PreDelete', 'api'],
      ['cleanup', 'PostDelete', 'api'],
    ]);
    expect(listed[0]).toMatchObject({ file: 'apps/api/backup.yaml', line: 1 });
  });

  it('lists none when no Application is deleted, and those given for an Application its ApplicationSet deletes', () => {
    expect(hooksOnDelete([], head)).toEqual([]);
    const more = [hook('cleanup', 'PostDelete', 'db'), hook('migrate', 'PreSync', 'db')];
    expect(hooksOnDelete([], head, more).map((entry) => `${entry.application.name}/${entry.id.name}`)).toEqual([
      'db/cleanup',
    ]);
  });
});

describe('unrenderedDeleteHooks: an Application deleted while its source does not render at head', () => {
  const api = { group: 'argoproj.io', kind: 'Application', namespace: 'argocd', name: 'api' };
  const deletion = { application: api, reason: 'app path apps/api does not exist' };
  const base = [
    hook('cleanup', 'PostDelete', 'api'),
    hook('migrate', 'PreSync', 'api'),
    hook('drain', 'PreDelete', 'web'),
  ];
  const liveApplication = (finalizers: string[]): KubeObject => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'api', namespace: 'argocd', finalizers },
  });
  const leftHook: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'cleanup',
      namespace: 'api',
      annotations: {
        'argocd.argoproj.io/hook': 'PostDelete',
        'argocd.argoproj.io/tracking-id': 'api:batch/Job:api/cleanup',
      },
    },
  };

  it("lists its delete hooks from base's render, with where they came from, and no one else's", () => {
    const { hooks, warnings } = unrenderedDeleteHooks([deletion], base, [liveApplication([])]);
    expect(hooks.map((entry) => [entry.id.name, entry.origin])).toEqual([
      ['cleanup', { at: 'base', reason: 'app path apps/api does not exist' }],
    ]);
    expect(hooks[0]).toMatchObject({ application: api, file: 'apps/api/cleanup.yaml' });
    expect(warnings).toEqual([]);
  });

  it('lists the hook objects the cluster holds for it when base does not show them', () => {
    const { hooks } = unrenderedDeleteHooks([deletion], [], [leftHook, liveApplication([])]);
    expect(hooks.map((entry) => [entry.id.name, entry.origin?.at, entry.application.name])).toEqual([
      ['cleanup', 'live', 'api'],
    ]);
  });

  it("warns when the Application carries Argo CD's delete finalizer, and says when no hook is known", () => {
    const live = [liveApplication(['post-delete-finalizer.argocd.argoproj.io'])];
    const { hooks, warnings } = unrenderedDeleteHooks([deletion], [], live);
    expect(hooks).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'not-rendered', id: api });
    expect(warnings[0]!.message).toContain('deleting it runs its PostDelete hooks');
    expect(warnings[0]!.message).toContain('Which hooks run is not known');
  });
});

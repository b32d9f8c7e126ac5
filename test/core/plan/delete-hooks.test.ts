// The Argo CD delete hooks a plan lists: those of the Applications it prunes (an app of apps that no
// longer declares one) and of those an ApplicationSet deletes; never a sync hook, never another
// Application's.
import { describe, expect, it } from 'vitest';
import { keyOf, type DesiredObject, type KubeObject } from '../../../src/core/model/index.js';
import { hooksOnDelete } from '../../../src/core/plan/index.js';
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

// The parameter files in an Application's path that Argo CD's repo server merges into its source
// (reposerver/repository/repository.go mergeSourceParameters: `.argocd-source.yaml`, then
// `.argocd-source-<app>.yaml`, JSON merge patches; repoURL, path, chart and targetRevision stay).
// Argo CD Image Updater's git write-back writes `.argocd-source-<app>.yaml` with `kustomize.images`
// (the shape its docs give for write-back-method: git). The app is Argo CD's e2e `guestbook`, copied
// byte for byte (test/fixtures/upstream).
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/core/model/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { readFixtureTree } from '../../support/fixtures.js';
import { argoApplication } from '../../support/argo-application.js';

const GUESTBOOK = readFixtureTree('manifests', 'argo-cd/test/e2e/testdata/guestbook');

const application = argoApplication('guestbook');

function render(extra: Array<[string, string]>, app: KubeObject = application, live: KubeObject[] = []) {
  const files = new Map<string, string>([
    ['apps/guestbook.yaml', stringify(app)],
    ...[...GUESTBOOK].map(([path, text]): [string, string] => [`guestbook/${path}`, text]),
    ...extra,
  ]);
  return renderCluster(
    files,
    { name: 'prod', path: 'apps', controller: 'argocd', defaultNamespace: 'default' },
    { live: { items: live, repository: 'acme/gitops' } },
  );
}

const imageOf = (rendered: ReturnType<typeof render>): unknown =>
  (rendered.objects.find((d) => d.key.kind === 'Deployment')!.object.spec as any).template.spec.containers[0].image;

describe('Argo CD parameter files in the Application path', () => {
  it('.argocd-source-<app>.yaml written by Image Updater sets the image the Application renders', () => {
    const written = 'kustomize:\n  images:\n  - quay.io/argoprojlabs/argocd-e2e-container:0.3\n';
    const rendered = render([['guestbook/.argocd-source-guestbook.yaml', written]]);
    expect(imageOf(rendered)).toBe('quay.io/argoprojlabs/argocd-e2e-container:0.3');
    expect(rendered.filesRead).toContain('guestbook/.argocd-source-guestbook.yaml');
  });

  it('.argocd-source.yaml applies to every Application of the path, the per-app file after it', () => {
    const all = 'kustomize:\n  images:\n  - quay.io/argoprojlabs/argocd-e2e-container:0.4\n  namePrefix: all-\n';
    const own = 'kustomize:\n  images:\n  - quay.io/argoprojlabs/argocd-e2e-container:0.5\n';
    const rendered = render([
      ['guestbook/.argocd-source.yaml', all],
      ['guestbook/.argocd-source-guestbook.yaml', own],
    ]);
    expect(imageOf(rendered)).toBe('quay.io/argoprojlabs/argocd-e2e-container:0.5');
    expect(rendered.objects.map((d) => d.key.name)).toContain('all-guestbook-ui');
  });

  it('a file of another Application, or one that moves the path, changes nothing of this one', () => {
    const other = render([['guestbook/.argocd-source-other.yaml', 'kustomize:\n  namePrefix: other-\n']]);
    expect(other.objects.map((d) => d.key.name)).toContain('guestbook-ui');
    const moved = render([['guestbook/.argocd-source-guestbook.yaml', 'path: elsewhere\n']]);
    expect(imageOf(moved)).toBe('quay.io/argoprojlabs/argocd-e2e-container:0.2');
  });

  it('a file that is not a map fails that Application with the file named', () => {
    const rendered = render([['guestbook/.argocd-source-guestbook.yaml', '- just\n- a list\n']]);
    expect(rendered.sources.find((s) => s.source.id.name === 'guestbook')?.scope).toBe('not-rendered');
    expect(rendered.errors.map((e) => e.file)).toContain('guestbook/.argocd-source-guestbook.yaml');
  });

  it('an Application in any namespace reads `.argocd-source-<namespace>_<name>.yaml` (its instance name), not the plain name', () => {
    // controller/state.go passes `AppName: app.InstanceName(controllerNamespace)` to the repo server;
    // Image Updater writes the same name (DefaultTargetFilePattern `.argocd-source-%s_%s.yaml`).
    const teamApp = { ...application, metadata: { name: 'guestbook', namespace: 'team-a' } };
    const live: KubeObject[] = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', namespace: 'argocd' }, data: {} },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'argocd-cmd-params-cm', namespace: 'argocd' },
        data: { 'application.namespaces': 'team-*' },
      },
    ];
    const namespaced = 'kustomize:\n  images:\n  - quay.io/argoprojlabs/argocd-e2e-container:0.6\n';
    const plain = 'kustomize:\n  images:\n  - quay.io/argoprojlabs/argocd-e2e-container:0.7\n';
    const both = render(
      [
        ['guestbook/.argocd-source-team-a_guestbook.yaml', namespaced],
        ['guestbook/.argocd-source-guestbook.yaml', plain],
      ],
      teamApp,
      live,
    );
    expect(imageOf(both)).toBe('quay.io/argoprojlabs/argocd-e2e-container:0.6');
    expect(both.filesRead).toContain('guestbook/.argocd-source-team-a_guestbook.yaml');
    expect(both.filesRead).not.toContain('guestbook/.argocd-source-guestbook.yaml');
    const onlyPlain = render([['guestbook/.argocd-source-guestbook.yaml', plain]], teamApp, live);
    expect(imageOf(onlyPlain)).toBe('quay.io/argoprojlabs/argocd-e2e-container:0.2');
  });
});

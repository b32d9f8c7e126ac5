// Argo CD Image Updater's per-image annotations (argocd-image-updater pkg/common/constants.go,
// pkg/argocd/argocd.go getHelmParamNamesFromAnnotation, pkg/argocd/update.go SetHelmImage): an entry
// without an alias writes the Helm parameters `image.name` and `image.tag`; `<alias>.helm.image-name` and
// `<alias>.helm.image-tag` name them for an alias, `<alias>.helm.image-spec` replaces both. Under
// write-back-method `argocd` (the default) the updater writes them into the live Application's
// `spec.source.helm.parameters`: what Git lacks there is the updater's, never drift to codify. Under
// `git` it writes `.argocd-source-<app>.yaml`, `<namespace>_<name>` for an Application outside the control
// plane's namespace (DefaultTargetFilePattern `.argocd-source-%s_%s.yaml`).
import { describe, expect, it } from 'vitest';
import { diffResources } from '../../../src/core/diff/index.js';
import { keyOf, type KubeObject } from '../../../src/core/model/index.js';
import { imageUpdaterScopes, setImageUpdaterAside } from '../../../src/core/render/argocd-image-updater.js';
import type { SourceResult } from '../../../src/core/render/source-worklist.js';
import { argoApplicationRef } from '../../../src/core/sources/identity.js';
import { configWith, desiredOf, managed } from '../diff/support.js';

const PREFIX = 'argocd-image-updater.argoproj.io';

function application(namespace: string, annotations: Record<string, string>, parameters?: unknown[]): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'web', namespace, annotations },
    spec: {
      project: 'default',
      source: {
        repoURL: 'https://github.com/acme/gitops.git',
        targetRevision: 'main',
        path: 'charts/web',
        helm: { valueFiles: ['values.yaml'], ...(parameters ? { parameters } : {}) },
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'web' },
    },
  };
}

/** The Application `web` as one source of the render, with a Deployment it renders. */
function sourceOf(namespace: string): SourceResult {
  return {
    source: { id: argoApplicationRef(namespace, 'web'), path: 'charts/web' } as SourceResult['source'],
    scope: 'rendered',
    objects: [{ group: 'apps', kind: 'Deployment', namespace: 'web', name: 'web' }],
  };
}

/** The Application as Git has it and as `manager` left it live: its diff with the updater's changes aside. */
function diffApplication(
  annotations: Record<string, string>,
  liveParameters: unknown[],
  manager = 'argocd-image-updater',
) {
  const desired = application('argocd', annotations);
  const live = application('argocd', annotations, liveParameters);
  const parameters = { 'f:spec': { 'f:source': { 'f:helm': { 'f:parameters': {} } } } };
  live.metadata.managedFields = [managed(manager, parameters)];
  const diff = diffResources([desiredOf(desired, 'argocd')], [live], { config: configWith() });
  const scopes = imageUpdaterScopes([sourceOf('argocd')], [desired]);
  const aside = setImageUpdaterAside(diff, scopes);
  return aside.resources.find((r) => keyOf(live).kind === r.key.kind)!;
}

describe('Argo CD Image Updater: the Helm parameters it writes into the Application', () => {
  it('an entry without an alias owns image.name and image.tag in the live Application (write-back argocd)', () => {
    const annotations = { [`${PREFIX}/image-list`]: 'ghcr.io/acme/web:~1.4' };
    const resource = diffApplication(annotations, [
      { name: 'image.name', value: 'ghcr.io/acme/web', forceString: true },
      { name: 'image.tag', value: '1.4.7', forceString: true },
    ]);
    expect(resource.changes).toEqual([]);
    expect(resource.status).toBe('in-sync');
    expect(resource.reported?.map((c) => c.reported?.code)).toContain('image-automation');
    expect(resource.reported?.[0]?.reported?.reason).toContain(
      'Argo CD Image Updater (Application argocd/web, image ghcr.io/acme/web, update-strategy semver',
    );
    expect(resource.reported?.[0]?.reported?.reason).toContain('the parameters of Application argocd/web');
  });

  it('an alias writes the parameters its helm.image-name and helm.image-tag name, and only those', () => {
    const annotations = {
      [`${PREFIX}/image-list`]: 'web=ghcr.io/acme/web',
      [`${PREFIX}/web.helm.image-name`]: 'frontend.image.repository',
      [`${PREFIX}/web.helm.image-tag`]: 'frontend.image.tag',
    };
    const owned = diffApplication(annotations, [
      { name: 'frontend.image.repository', value: 'ghcr.io/acme/web', forceString: true },
      { name: 'frontend.image.tag', value: '2.0.1', forceString: true },
    ]);
    expect(owned.changes).toEqual([]);
    expect(owned.reported?.[0]?.reported?.reason).toContain('image alias `web` = ghcr.io/acme/web');
    // `image.tag` is not this alias's parameter: a person set it, and it stays drift.
    const other = diffApplication(
      annotations,
      [{ name: 'image.tag', value: 'hotfix', forceString: true }],
      'kubectl-edit',
    );
    expect(other.changes.length).toBeGreaterThan(0);
    expect(other.reported ?? []).toEqual([]);
  });

  it('an alias with helm.image-spec writes that one parameter instead of name and tag', () => {
    const annotations = {
      [`${PREFIX}/image-list`]: 'web=ghcr.io/acme/web',
      [`${PREFIX}/web.helm.image-spec`]: 'web.image',
      [`${PREFIX}/web.helm.image-tag`]: 'web.tag',
    };
    const spec = diffApplication(annotations, [{ name: 'web.image', value: 'ghcr.io/acme/web:2.0.1' }]);
    expect(spec.changes).toEqual([]);
    const tag = diffApplication(annotations, [{ name: 'web.tag', value: '2.0.1' }], 'kubectl-edit');
    expect(tag.changes.length).toBeGreaterThan(0);
  });

  it('git write-back names the parameter file as the updater writes it, with the namespace outside the control plane', () => {
    const annotations = { [`${PREFIX}/image-list`]: 'ghcr.io/acme/web', [`${PREFIX}/write-back-method`]: 'git' };
    const cm = (name: string, data: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'argocd' },
      data,
    });
    const instance = [cm('argocd-cm', {}), cm('argocd-cmd-params-cm', { 'application.namespaces': 'team-*' })];
    const [own] = imageUpdaterScopes([sourceOf('argocd')], [application('argocd', annotations), ...instance]);
    expect(own?.writesTo).toBe('`charts/web/.argocd-source-web.yaml` in Git (write-back-method: git)');
    const [team] = imageUpdaterScopes([sourceOf('team-a')], [application('team-a', annotations), ...instance]);
    expect(team?.writesTo).toBe('`charts/web/.argocd-source-team-a_web.yaml` in Git (write-back-method: git)');
  });
});

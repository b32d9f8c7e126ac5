// The built-in cluster-scoped kinds table: namespaces are neither defaulted nor set by kustomize for these.
import { describe, expect, it } from 'vitest';
import { findKustomizationFile, isBuiltInClusterScoped, renderManifests } from '../../../src/core/manifests/index.js';
import { tree } from './helpers.js';

describe('isBuiltInClusterScoped', () => {
  it.each([
    ['', 'Namespace', true],
    ['', 'PersistentVolume', true],
    ['rbac.authorization.k8s.io', 'ClusterRole', true],
    ['rbac.authorization.k8s.io', 'ClusterRoleBinding', true],
    ['apiextensions.k8s.io', 'CustomResourceDefinition', true],
    ['storage.k8s.io', 'StorageClass', true],
    ['networking.k8s.io', 'IngressClass', true],
    ['rbac.authorization.k8s.io', 'RoleBinding', false],
    ['', 'ConfigMap', false],
    ['apps', 'Deployment', false],
    ['helm.toolkit.fluxcd.io', 'HelmRelease', false],
  ])('%s/%s → %s', (group, kind, expected) => {
    expect(isBuiltInClusterScoped(group, kind)).toBe(expected);
  });

  it('gives cluster-scoped objects no namespace, even under a kustomization namespace', () => {
    const files = tree({
      'k/kustomization.yaml': 'namespace: apps\nresources:\n- rbac.yaml\n',
      'k/rbac.yaml': `
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: reader
        rules: []
      `,
    });
    const [role] = renderManifests(files, 'k').objects;
    expect(role.key).toEqual({
      group: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      namespace: '',
      name: 'reader',
    });
    expect(role.object.metadata.namespace).toBeUndefined();
  });
});

describe('findKustomizationFile', () => {
  it.each([
    [['app/kustomization.yaml'], 'app', 'app/kustomization.yaml'],
    [['app/kustomization.yml'], 'app/', 'app/kustomization.yml'],
    [['app/Kustomization'], './app', 'app/Kustomization'],
    [['kustomization.yaml'], '', 'kustomization.yaml'],
    [['app/deploy.yaml'], 'app', undefined],
  ])('%j in %s → %s', (paths, dir, expected) => {
    expect(findKustomizationFile(new Map(paths.map((p) => [p, ''])), dir)).toBe(expected);
  });
});

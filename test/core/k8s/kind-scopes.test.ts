// Whether a kind is namespaced, as the cluster says: discovery first, then the cluster's CRDs, where
// the server stored the cluster's objects, the repository's CRDs; Kubernetes' own kinds from its
// OpenAPI documents (a kind is cluster-scoped when no path of its API goes through
// `/namespaces/{namespace}/`). The Release CRD is provider-helm's (`scope: Cluster`).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isBuiltInClusterScoped, isClusterScopedKind, kindScopesOf } from '../../../src/core/k8s/index.js';
import type { KubeObject, ServedType } from '../../../src/core/model/index.js';
import { readFixture } from '../../support/fixtures.js';

const releaseCrd = parse(
  readFixture('manifests', 'provider-helm', 'package', 'crds', 'helm.crossplane.io_releases.yaml'),
) as KubeObject;
const HELM = 'helm.crossplane.io';

const served = (group: string, kind: string, namespaced: boolean): ServedType => ({ group, kind, namespaced });
const object = (apiVersion: string, kind: string, namespace?: string): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name: 'x', ...(namespace ? { namespace } : {}) },
});
const namespacedCrd: KubeObject = {
  ...releaseCrd,
  spec: { ...(releaseCrd.spec as object), scope: 'Namespaced' },
};

describe('isBuiltInClusterScoped: from the OpenAPI documents', () => {
  it.each([
    ['', 'Namespace', true],
    ['', 'PersistentVolume', true],
    ['', 'Node', true],
    ['rbac.authorization.k8s.io', 'ClusterRole', true],
    ['apiregistration.k8s.io', 'APIService', true],
    ['storage.k8s.io', 'VolumeAttachment', true],
    ['resource.k8s.io', 'DeviceClass', true],
    ['', 'ConfigMap', false],
    ['apps', 'Deployment', false],
    ['rbac.authorization.k8s.io', 'RoleBinding', false],
    // Custom kinds are not Kubernetes' to say, however well known.
    ['gateway.networking.k8s.io', 'GatewayClass', false],
    ['cert-manager.io', 'ClusterIssuer', false],
  ])('%s/%s → %s', (group, kind, expected) => expect(isBuiltInClusterScoped(group, kind)).toBe(expected));
});

describe('kindScopesOf and isClusterScopedKind', () => {
  it.each([
    ['discovery says cluster-scoped', { served: [served(HELM, 'Release', false)] }, true],
    [
      'discovery says namespaced, over a CRD that says otherwise',
      { served: [served(HELM, 'Release', true)], live: [releaseCrd] },
      false,
    ],
    ['the cluster’s CRD', { live: [releaseCrd] }, true],
    ['the cluster’s CRD over the repository’s', { live: [namespacedCrd], desired: [releaseCrd] }, false],
    ['a cluster object stored in no namespace', { live: [object(`${HELM}/v1beta1`, 'Release')] }, true],
    [
      'one object of the kind in a namespace makes it namespaced',
      { live: [object(`${HELM}/v1beta1`, 'Release'), object(`${HELM}/v1beta1`, 'Release', 'apps')] },
      false,
    ],
    [
      'the cluster’s CRD over where objects sit',
      { live: [object(`${HELM}/v1beta1`, 'Release', 'apps'), releaseCrd] },
      true,
    ],
    ['the repository’s CRD when the cluster says nothing', { desired: [releaseCrd] }, true],
    ['nobody says anything: a custom kind is namespaced', {}, false],
  ])('%s', (_name, evidence, expected) => {
    expect(isClusterScopedKind(kindScopesOf(evidence), HELM, 'Release')).toBe(expected);
  });

  it.each([
    ['a built-in kind with no word from the cluster: the OpenAPI documents', '', 'Namespace', {}, true],
    [
      'a built-in object without a namespace in a file written by hand says nothing',
      'apps',
      'Deployment',
      { live: [object('apps/v1', 'Deployment')] },
      false,
    ],
    [
      'discovery speaks for built-in kinds too',
      'apps',
      'Deployment',
      { served: [served('apps', 'Deployment', true)] },
      false,
    ],
  ])('%s', (_name, group, kind, evidence, expected) => {
    expect(isClusterScopedKind(kindScopesOf(evidence), group, kind)).toBe(expected);
  });
});

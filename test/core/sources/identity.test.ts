// A source's identity and its stamps, one row per tracking method: what the writer puts on an object is
// what the reader finds on it. Formats are read from upstream: fluxcd/pkg ssa/manager.go SetOwnerLabels and
// fluxcd/helm-controller internal/postrender/build.go (Flux); argoproj/argo-cd@37ee009
// util/argo/resource_tracking.go (SetAppInstance, BuildAppInstanceValue, ParseAppInstanceValue,
// TruncateLabel, GetAppName), pkg/apis/application/v1alpha1/types.go (Application.InstanceName) and
// util/argo/argo.go ParseInstanceName (Argo CD). The last block reads the stamps the controller scenarios'
// builder writes (test/fixtures/controllers, docs/upstream/controllers.md) and writes them back byte for byte.
import { describe, expect, it } from 'vitest';
import { keyOf, type KubeObject, type ResourceKey } from '../../../src/core/model/index.js';
import {
  DEFAULT_ARGO_TRACKING,
  describeSource,
  isStampKey,
  liveStampKeys,
  readArgoSettings,
  readSource,
  sourceName,
  sourceRefOf,
  sourceRefText,
  stampedRefs,
  stampedSource,
  stampsFor,
  type ArgoTracking,
  type SourceRef,
  type Stamp,
} from '../../../src/core/sources/index.js';
import { scenarioSnapshot } from '../../support/controllers.js';

const kustomization: SourceRef = {
  controller: 'flux',
  group: 'kustomize.toolkit.fluxcd.io',
  kind: 'Kustomization',
  namespace: 'flux-system',
  name: 'apps',
};
const release: SourceRef = {
  controller: 'flux',
  group: 'helm.toolkit.fluxcd.io',
  kind: 'HelmRelease',
  namespace: 'podinfo',
  name: 'podinfo',
};
const app = (namespace: string, name: string): SourceRef => ({
  controller: 'argocd',
  group: 'argoproj.io',
  kind: 'Application',
  namespace,
  name,
});
const known = (settings: Partial<ArgoTracking>): ArgoTracking => ({
  ...DEFAULT_ARGO_TRACKING,
  from: 'argocd-cm',
  ...settings,
});

const service: ResourceKey = { group: '', kind: 'Service', namespace: 'shop', name: 'frontend' };
const deployment: ResourceKey = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'frontend' };
const role: ResourceKey = { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', namespace: '', name: 'reader' };
const crd: ResourceKey = {
  group: 'apiextensions.k8s.io',
  kind: 'CustomResourceDefinition',
  namespace: '',
  name: 'x.io',
};
const longName = `${'payments-'.repeat(7)}api`; // the 63rd character is a dash

interface Row {
  method: string;
  ref: SourceRef;
  target: ResourceKey;
  tracking?: ArgoTracking;
  destination?: string;
  stamps: Stamp[];
}

const label = (key: string, value: string): Stamp => ({ map: 'labels', key, value });
const annotation = (key: string, value: string): Stamp => ({ map: 'annotations', key, value });

const ROWS: Row[] = [
  {
    method: 'Flux Kustomization labels',
    ref: kustomization,
    target: deployment,
    stamps: [
      label('kustomize.toolkit.fluxcd.io/name', 'apps'),
      label('kustomize.toolkit.fluxcd.io/namespace', 'flux-system'),
    ],
  },
  {
    method: 'Flux HelmRelease labels',
    ref: release,
    target: deployment,
    stamps: [label('helm.toolkit.fluxcd.io/name', 'podinfo'), label('helm.toolkit.fluxcd.io/namespace', 'podinfo')],
  },
  {
    method: 'Argo CD label tracking',
    ref: app('argocd', 'guestbook'),
    target: service,
    tracking: known({ trackingMethod: 'label' }),
    stamps: [label('app.kubernetes.io/instance', 'guestbook')],
  },
  {
    method: 'Argo CD label tracking with a custom application.instanceLabelKey, the name not truncated',
    ref: app('argocd', longName),
    target: service,
    tracking: known({ trackingMethod: 'label', instanceLabelKey: 'argocd.example.com/app' }),
    stamps: [label('argocd.example.com/app', longName)],
  },
  {
    method: 'Argo CD annotation tracking (the 3.x default), core group empty',
    ref: app('argocd', 'guestbook'),
    target: service,
    stamps: [annotation('argocd.argoproj.io/tracking-id', 'guestbook:/Service:shop/frontend')],
  },
  {
    method: 'Argo CD annotation tracking of a cluster-scoped object: the destination namespace',
    ref: app('argocd', 'guestbook'),
    target: role,
    destination: 'shop',
    stamps: [
      annotation('argocd.argoproj.io/tracking-id', 'guestbook:rbac.authorization.k8s.io/ClusterRole:shop/reader'),
    ],
  },
  {
    method: 'Argo CD annotation tracking of a CRD: no annotation',
    ref: app('argocd', 'guestbook'),
    target: crd,
    stamps: [],
  },
  {
    method: 'Argo CD annotation tracking with installationID',
    ref: app('argocd', 'guestbook'),
    target: deployment,
    tracking: known({ installationID: 'prod-argo' }),
    stamps: [
      annotation('argocd.argoproj.io/tracking-id', 'guestbook:apps/Deployment:shop/frontend'),
      annotation('argocd.argoproj.io/installation-id', 'prod-argo'),
    ],
  },
  {
    method: 'Argo CD annotation+label: the label truncated to 63 characters, no trailing dash',
    ref: app('argocd', longName),
    target: service,
    tracking: known({ trackingMethod: 'annotation+label' }),
    stamps: [
      label('app.kubernetes.io/instance', 'payments-'.repeat(7).slice(0, 62)),
      annotation('argocd.argoproj.io/tracking-id', `${longName}:/Service:shop/frontend`),
    ],
  },
  {
    method: 'Argo CD Application outside the control plane (application.namespaces): <ns>_<name>',
    ref: app('team-a', 'web'),
    target: service,
    stamps: [annotation('argocd.argoproj.io/tracking-id', 'team-a_web:/Service:shop/frontend')],
  },
  {
    method: 'Argo CD label tracking of an Application outside the control plane',
    ref: app('team-a', 'web'),
    target: service,
    tracking: known({ trackingMethod: 'label' }),
    stamps: [label('app.kubernetes.io/instance', 'team-a_web')],
  },
  {
    method: 'Argo CD with its control plane in another namespace',
    ref: app('gitops', 'web'),
    target: service,
    tracking: known({ controlPlaneNamespace: 'gitops' }),
    stamps: [annotation('argocd.argoproj.io/tracking-id', 'web:/Service:shop/frontend')],
  },
];

/** A live object of `key` carrying `stamps`, as the controller left it. */
function stamped(key: ResourceKey, stamps: readonly Stamp[]): KubeObject {
  const metadata: KubeObject['metadata'] = { name: key.name, ...(key.namespace ? { namespace: key.namespace } : {}) };
  for (const stamp of stamps) (metadata[stamp.map] ??= {})[stamp.key] = stamp.value;
  return { apiVersion: key.group ? `${key.group}/v1` : 'v1', kind: key.kind, metadata };
}

describe('stamps per tracking method: written, then read back from the live object', () => {
  it.each(ROWS)('$method', (row) => {
    const stamps = stampsFor(row.ref, row.target, row.tracking, row.destination);
    expect(stamps).toEqual(row.stamps);
    const live = stamped(row.target, stamps);
    // Annotation+label with a truncated label: Argo CD reads the annotation (GetAppName), as does the reader.
    expect(stampedRefs(live, row.tracking)).toEqual(stamps.length ? [row.ref] : []);
    for (const stamp of stamps) expect(isStampKey(stamp.map, stamp.key, row.tracking)).toBe(true);
  });
});

describe('what the reader does not take for a stamp', () => {
  it('a tracking id copied from another object (Argo CD isSelfReferencedObj)', () => {
    const copied = stamped(service, [annotation('argocd.argoproj.io/tracking-id', 'guestbook:/Service:shop/other')]);
    expect(stampedRefs(copied)).toEqual([]);
  });

  it('a malformed tracking id (ParseAppInstanceValue needs <app>:<group>/<kind>:<namespace>/<name>)', () => {
    expect(stampedRefs(stamped(service, [annotation('argocd.argoproj.io/tracking-id', 'guestbook')]))).toEqual([]);
  });

  it('another installation of Argo CD (installation-id differs)', () => {
    const tracking = known({ installationID: 'prod-argo' });
    const other = stamped(deployment, [
      annotation('argocd.argoproj.io/tracking-id', 'guestbook:apps/Deployment:shop/frontend'),
      annotation('argocd.argoproj.io/installation-id', 'staging-argo'),
    ]);
    expect(stampedRefs(other, tracking)).toEqual([]);
    expect(stampedRefs(other)).toEqual([app('argocd', 'guestbook')]);
  });

  it("a chart's own instance label under annotation tracking", () => {
    const chart = stamped(service, [label('app.kubernetes.io/instance', 'podinfo')]);
    expect(stampedRefs(chart, known({ trackingMethod: 'annotation' }))).toEqual([]);
    expect(stampedRefs(chart, known({ trackingMethod: 'label' }))).toEqual([app('argocd', 'podinfo')]);
  });

  it('with argocd-cm out of view: Argo CD 3 tracks by annotation, and Flux labels its install the same way', () => {
    const fluxInstall = stamped(service, [label('app.kubernetes.io/instance', 'flux-system')]);
    expect(stampedRefs(fluxInstall)).toEqual([]);
  });

  it('a Flux name label without its namespace label', () => {
    expect(stampedRefs(stamped(service, [label('kustomize.toolkit.fluxcd.io/name', 'apps')]))).toEqual([]);
  });

  it('labels and annotations that are no stamp', () => {
    expect(isStampKey('labels', 'app.kubernetes.io/name')).toBe(false);
    expect(isStampKey('annotations', 'app.kubernetes.io/instance')).toBe(false);
    expect(isStampKey('labels', 'kustomize.toolkit.fluxcd.io/prune')).toBe(false);
  });
});

describe('the stamps a live object carries, read from the object alone', () => {
  const instance = 'app.kubernetes.io/instance';
  it.each([
    [
      'Flux labels',
      stampsFor(kustomization, deployment),
      DEFAULT_ARGO_TRACKING,
      false,
      ['labels/kustomize.toolkit.fluxcd.io/name', 'labels/kustomize.toolkit.fluxcd.io/namespace'],
    ],
    [
      'helm-controller labels',
      stampsFor(release, deployment),
      DEFAULT_ARGO_TRACKING,
      false,
      ['labels/helm.toolkit.fluxcd.io/name', 'labels/helm.toolkit.fluxcd.io/namespace'],
    ],
    [
      'annotation tracking',
      stampsFor(app('argocd', 'shop'), deployment),
      DEFAULT_ARGO_TRACKING,
      true,
      ['annotations/argocd.argoproj.io/tracking-id'],
    ],
    // annotation+label shows itself: the label is the tracking id's app name.
    [
      'annotation+label, argocd-cm out of view',
      stampsFor(app('argocd', 'shop'), deployment, known({ trackingMethod: 'annotation+label' })),
      DEFAULT_ARGO_TRACKING,
      true,
      ['annotations/argocd.argoproj.io/tracking-id', `labels/${instance}`],
    ],
    // A chart's own instance label under annotation tracking is Git's, not a stamp.
    [
      'a chart label beside a tracking id',
      [...stampsFor(app('argocd', 'shop'), deployment), label(instance, 'shop-release')],
      DEFAULT_ARGO_TRACKING,
      true,
      ['annotations/argocd.argoproj.io/tracking-id'],
    ],
    // Label tracking (Argo CD before 3.0): an applier wrote the object, no tracking id, no Flux label.
    [
      'label tracking, argocd-cm out of view',
      stampsFor(app('argocd', 'shop'), deployment, known({ trackingMethod: 'label' })),
      DEFAULT_ARGO_TRACKING,
      true,
      [`labels/${instance}`],
    ],
    ['the same label on an object no applier wrote', [label(instance, 'shop')], DEFAULT_ARGO_TRACKING, false, []],
    [
      'label tracking from argocd-cm',
      [label(instance, 'shop')],
      known({ trackingMethod: 'label' }),
      false,
      [`labels/${instance}`],
    ],
    ['annotation tracking from argocd-cm: the label is no stamp', [label(instance, 'shop')], known({}), true, []],
  ] as const)('%s', (_, stamps, tracking, applied, expected) => {
    expect([...liveStampKeys(stamped(deployment, stamps), tracking, applied)].sort()).toEqual([...expected].sort());
  });
});

describe('the source of a chart release applied by a Kustomization', () => {
  it('is the Kustomization; the HelmRelease is the release', () => {
    const object = stamped(deployment, [...stampsFor(kustomization, deployment), ...stampsFor(release, deployment)]);
    expect(stampedRefs(object)).toEqual([kustomization, release]);
    expect(stampedSource(object)).toEqual(kustomization);
  });
});

describe('one text form', () => {
  it.each([
    [kustomization, 'Kustomization/flux-system/apps', 'flux-system/apps', 'Flux Kustomization flux-system/apps'],
    [release, 'HelmRelease/podinfo/podinfo', 'podinfo/podinfo', 'Flux HelmRelease podinfo/podinfo'],
    [
      app('argocd', 'guestbook'),
      'Application/argocd/guestbook',
      'argocd/guestbook',
      'Argo CD Application argocd/guestbook',
    ],
    [
      { controller: 'kubectl', group: '', kind: 'Cluster', namespace: '', name: 'prod-eu' } as SourceRef,
      'Cluster/prod-eu',
      'prod-eu',
      "kubectl applying cluster prod-eu's path",
    ],
  ])('%o', (ref, text, name, sentence) => {
    expect(sourceRefText(ref)).toBe(text);
    expect(sourceName(ref)).toBe(name);
    expect(describeSource(ref)).toBe(sentence);
  });

  it('a controller object is its own ref', () => {
    const object = (apiVersion: string, kind: string): KubeObject => ({
      apiVersion,
      kind,
      metadata: { namespace: 'flux-system', name: 'apps' },
    });
    expect(sourceRefOf(object('kustomize.toolkit.fluxcd.io/v1', 'Kustomization'))).toEqual(kustomization);
    expect(sourceRefOf(object('helm.toolkit.fluxcd.io/v2', 'HelmRelease'))?.kind).toBe('HelmRelease');
    expect(sourceRefOf(object('argoproj.io/v1alpha1', 'Application'))?.controller).toBe('argocd');
    expect(sourceRefOf(object('kustomize.config.k8s.io/v1beta1', 'Kustomization'))).toBeUndefined();
  });
});

/** An Application's `spec.destination.namespace`, from the snapshot. */
function destinationOf(items: readonly KubeObject[], ref: SourceRef): string | undefined {
  const object = items.find((item) => {
    const own = sourceRefOf(item);
    return own?.kind === ref.kind && own.namespace === ref.namespace && own.name === ref.name;
  });
  const source = object ? readSource(object, true) : undefined;
  return source?.transforms.controller === 'argocd' ? source.transforms.destination.namespace : undefined;
}

describe("the controllers' own stamps in the scenarios, written back byte for byte", () => {
  const STAMP_KEYS =
    /^(kustomize|helm)\.toolkit\.fluxcd\.io\/(name|namespace)$|^argocd\.argoproj\.io\/(tracking-id|installation-id)$/;
  it.each([
    ['flux-podinfo', 'unchanged', 'Flux Kustomization labels'],
    ['flux-helm', 'unchanged', 'Flux Kustomization and HelmRelease labels'],
    ['argocd-csa-label', 'unchanged', 'Argo CD label tracking'],
    ['argocd-ssa-annotation', 'unchanged', 'Argo CD annotation tracking'],
    ['argocd-ssa-annotation', 'annotation-label', 'Argo CD annotation+label tracking'],
  ])('%s %s (%s)', (scenario, snapshot) => {
    const items = scenarioSnapshot(scenario, snapshot).items;
    const tracking = readArgoSettings(items);
    let checked = 0;
    for (const object of items) {
      const refs = stampedRefs(object, tracking);
      const carried: Stamp[] = [];
      for (const map of ['labels', 'annotations'] as const) {
        for (const [key, value] of Object.entries(object.metadata?.[map] ?? {})) {
          const instance = tracking.trackingMethod !== 'annotation' && key === tracking.instanceLabelKey;
          if (STAMP_KEYS.test(key) || (instance && refs.length)) carried.push({ map, key, value });
        }
      }
      if (carried.length === 0) continue;
      const written = refs.flatMap((ref) => stampsFor(ref, keyOf(object), tracking, destinationOf(items, ref)));
      const sort = (stamps: Stamp[]) =>
        [...stamps].sort((a, b) => `${a.map}/${a.key}`.localeCompare(`${b.map}/${b.key}`));
      expect(sort(written), `${object.kind}/${object.metadata.name}`).toEqual(sort(carried));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3);
  });
});

// What the cluster says of custom kinds, through the whole drift pipeline: a Crossplane managed
// resource is cluster-scoped because discovery (or its CRD) says so, not because a list names it;
// the fields its provider late-initializes and those Crossplane fills into a claim are the
// controller's; an Argo Rollout's pod template is compared as a pod template.
//
// Git holds upstream manifests (test/fixtures/upstream/manifests): provider-helm's
// `release-oci-url-with-tag.yaml` (`chart.url` only), Crossplane's e2e claim, Argo Rollouts'
// `rollout-canary.yaml`. Live holds them as their controllers leave them, each managedFields entry
// modelled on the code that writes it:
// * provider-helm (binary `provider-helm`: cluster/images/provider-helm/Dockerfile, so client-go names
//   the manager so) late-initializes `chart.name` and `chart.version` with an Update
//   (pkg/controller/cluster/release/release.go), sets the external-name annotation and its finalizer
//   `finalizer.managedresource.crossplane.io`, and writes status through the status subresource
//   (crossplane-runtime pkg/reconciler/managed/reconciler.go: client.Update, client.Status().Update,
//   resource.APIFinalizer);
// * Crossplane (`crossplane`) binds the claim: `spec.resourceRef`, `spec.compositionRevisionRef`
//   (internal/controller/apiextensions/claim/syncer_ssa.go, client.Update), finalizer
//   `finalizer.apiextensions.crossplane.io` and status (claim/reconciler.go);
// * the API server fills the CRD's defaults (`deletionPolicy: Delete`, `maxHistory: 20`,
//   `managementPolicies: ["*"]`) and owns them to nobody under server-side apply.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig, type Config } from '../../../src/core/config/index.js';
import type { KubeObject, ResourceDiff, ServedType } from '../../../src/core/model/index.js';
import { evaluateDrift } from '../../../src/core/pipeline/index.js';
import { type LiveState } from '../../../src/core/model/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { readFixture } from '../../support/fixtures.js';
import { managed } from '../diff/support.js';

const RELEASE = readFixture(
  'manifests',
  'provider-helm',
  'examples',
  'cluster',
  'sample',
  'release-oci-url-with-tag.yaml',
);
const RELEASE_CRD = readFixture('manifests', 'provider-helm', 'package', 'crds', 'helm.crossplane.io_releases.yaml');
const CLAIM = readFixture(
  'manifests',
  'crossplane',
  'test',
  'e2e',
  'manifests',
  'apiextensions',
  'composition',
  'legacy',
  'claim.yaml',
);
const ROLLOUT = readFixture('manifests', 'argo-rollouts', 'examples', 'rollout-canary.yaml');

const APPLIED = '2026-12-01T09:00:00Z';
const RECONCILED = '2026-12-01T09:00:05Z';

function config(): Config {
  const parsed = parseConfig(
    'clusters:\n  - name: prod\n    path: clusters/prod\n    defaultNamespace: apps\ndrift:\n  minSnapshots: 1\n',
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

const files = new Map([
  ['clusters/prod/release.yaml', RELEASE],
  ['clusters/prod/claim.yaml', CLAIM],
  ['clusters/prod/rollout.yaml', ROLLOUT],
]);

/** CI applied each manifest with `kubectl apply --server-side` (manager `kubectl`, Apply). */
const byCi = (fieldsV1: Record<string, unknown>) => managed('kubectl', fieldsV1, 'Apply', APPLIED);

function liveRelease(extra: Array<Record<string, unknown>> = []): KubeObject {
  const release = parse(RELEASE) as KubeObject;
  return {
    ...release,
    metadata: {
      name: 'example-oci-url-with-tag',
      creationTimestamp: APPLIED,
      annotations: { 'crossplane.io/external-name': 'example-oci-url-with-tag' },
      finalizers: ['finalizer.managedresource.crossplane.io'],
      managedFields: [
        byCi({
          'f:spec': {
            'f:forProvider': { 'f:chart': { 'f:url': {} }, 'f:namespace': {} },
            'f:providerConfigRef': { 'f:name': {} },
          },
        }),
        managed(
          'provider-helm',
          {
            'f:metadata': {
              'f:annotations': { '.': {}, 'f:crossplane.io/external-name': {} },
              'f:finalizers': { '.': {}, 'v:"finalizer.managedresource.crossplane.io"': {} },
            },
            'f:spec': { 'f:forProvider': { 'f:chart': { 'f:name': {}, 'f:version': {} } } },
          },
          'Update',
          RECONCILED,
        ),
        managed(
          'provider-helm',
          { 'f:status': { '.': {}, 'f:atProvider': {}, 'f:conditions': {} } },
          'Update',
          RECONCILED,
          'status',
        ),
        ...extra,
      ] as never,
    },
    spec: {
      deletionPolicy: 'Delete',
      forProvider: {
        chart: { url: 'oci://ghcr.io/stefanprodan/charts/podinfo:6.10.2', name: 'podinfo', version: '6.10.2' },
        maxHistory: 20,
        namespace: 'crossplane-system',
      },
      managementPolicies: ['*'],
      providerConfigRef: { name: 'helm-provider' },
    },
    status: { atProvider: { state: 'deployed', revision: 1 }, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function liveClaim(): KubeObject {
  const claim = parse(CLAIM) as KubeObject;
  const spec = claim.spec as Record<string, unknown>;
  return {
    ...claim,
    metadata: {
      ...claim.metadata,
      creationTimestamp: APPLIED,
      finalizers: ['finalizer.apiextensions.crossplane.io'],
      managedFields: [
        byCi({
          'f:spec': {
            'f:coolField': {},
            'f:compositionRef': { 'f:name': {} },
            'f:compositeDeletePolicy': {},
            'f:writeConnectionSecretToRef': { 'f:name': {} },
          },
        }),
        managed(
          'crossplane',
          {
            'f:metadata': { 'f:finalizers': { '.': {}, 'v:"finalizer.apiextensions.crossplane.io"': {} } },
            'f:spec': {
              'f:compositionRevisionRef': { '.': {}, 'f:name': {} },
              'f:resourceRef': { '.': {}, 'f:apiVersion': {}, 'f:kind': {}, 'f:name': {} },
            },
          },
          'Update',
          RECONCILED,
        ),
        managed('crossplane', { 'f:status': { 'f:conditions': {} } }, 'Update', RECONCILED, 'status'),
      ] as never,
    },
    spec: {
      ...spec,
      compositionRevisionRef: { name: 'parent-4d1e2f3' },
      compositionUpdatePolicy: 'Automatic',
      resourceRef: { apiVersion: 'nop.example.org/v1alpha1', kind: 'XNopResource', name: 'ext-functions-7xk2p' },
    },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function liveRollout(image: string, imageManager?: string): KubeObject {
  const rollout = structuredClone(parse(ROLLOUT) as KubeObject);
  const containers = (rollout.spec as any).template.spec.containers as Array<Record<string, unknown>>;
  containers[0]!.image = image;
  // A Rollouts CRD without list-map keys (releases before v1.x): server-side apply owns the list whole.
  const entries = [
    byCi({ 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': {} } }, 'f:strategy': {} } }),
    ...(imageManager
      ? [
          managed(
            imageManager,
            { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': {} } } } },
            'Update',
            '2026-12-01T11:30:00Z',
          ),
        ]
      : []),
  ];
  return {
    ...rollout,
    metadata: { ...rollout.metadata, namespace: 'apps', creationTimestamp: APPLIED, managedFields: entries as never },
  };
}

const SERVED: ServedType[] = [
  { group: 'helm.crossplane.io', version: 'v1beta1', kind: 'Release', resource: 'releases', namespaced: false },
  { group: 'nop.example.org', version: 'v1alpha1', kind: 'NopResource', resource: 'nopresources', namespaced: true },
  { group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout', resource: 'rollouts', namespaced: true },
];

/** A snapshot of `items`; `served: null` for an agent that records no discovery. */
function state(items: KubeObject[], served: ServedType[] | null = SERVED): LiveState {
  return {
    items,
    cluster: 'prod',
    capturedAt: '2026-12-01T12:00:00Z',
    scope: { complete: true, errors: [] },
    ...(served ? { server: { resources: served } } : {}),
  };
}

function evaluate(live: LiveState) {
  const cfg = config();
  const evaluation = evaluateDrift({
    snapshot: live,
    config: cfg,
    cluster: cfg.clusters![0]!,
    files,
    history: [],
    declined: new Set(),
  });
  if (evaluation.type !== 'evaluated') throw new Error(evaluation.type);
  return evaluation;
}

const resourceOf = (resources: ResourceDiff[], kind: string) => resources.filter((r) => r.key.kind === kind);

describe('a cluster-scoped custom resource is where the cluster says', () => {
  it.each([
    ['discovery says so', state([liveRelease()])],
    [
      'its CRD in the snapshot says so (an agent that records no discovery)',
      state([liveRelease(), parse(RELEASE_CRD) as KubeObject], null),
    ],
    ['the server stored it in no namespace', state([liveRelease()], null)],
  ])('%s: keyed without a namespace, matched with its live object, in sync', (_name, live) => {
    const release = renderCluster(files, config().clusters![0]!, { live }).objects.find(
      (d) => d.key.kind === 'Release',
    )!;
    expect(release.key).toEqual({
      group: 'helm.crossplane.io',
      kind: 'Release',
      namespace: '',
      name: 'example-oci-url-with-tag',
    });
    const releases = resourceOf(evaluate(live).diff.resources, 'Release');
    expect(releases).toEqual([expect.objectContaining({ status: 'in-sync', changes: [] })]);
  });

  it('its CRD in the repository says so, when the cluster has neither the CRD nor the object yet', () => {
    const withCrd = new Map([...files, ['clusters/prod/crds/releases.yaml', RELEASE_CRD]]);
    const rendered = renderCluster(withCrd, config().clusters![0]!, { live: state([], null) });
    const release = rendered.objects.find((d) => d.key.kind === 'Release')!;
    expect(release.key.namespace).toBe('');
    expect(release.object.metadata.namespace).toBeUndefined();
  });

  it('nothing said: a custom kind is taken as namespaced (the documented fallback)', () => {
    const rendered = renderCluster(files, config().clusters![0]!, { live: state([], null) });
    expect(rendered.objects.find((d) => d.key.kind === 'Release')!.key.namespace).toBe('apps');
  });
});

describe("fields a controller writes into spec are the controller's", () => {
  it('late-initialized chart name and version, the external name and CRD defaults are no drift', () => {
    const [release] = resourceOf(evaluate(state([liveRelease()])).diff.resources, 'Release');
    expect(release).toEqual(expect.objectContaining({ status: 'in-sync', changes: [], conflicts: [] }));
  });

  it("a claim's resourceRef and compositionRevisionRef, filled by Crossplane, are no drift", () => {
    const [claim] = resourceOf(evaluate(state([liveClaim()])).diff.resources, 'NopResource');
    expect(claim).toEqual(
      expect.objectContaining({ key: expect.objectContaining({ namespace: 'default' }), changes: [] }),
    );
  });

  it('a manager that is neither a person’s tool, a known controller nor the object’s own stays unknown', () => {
    const sync = managed(
      'acme-sync',
      { 'f:spec': { 'f:forProvider': { 'f:wait': {} } } },
      'Update',
      '2026-12-01T10:40:00Z',
    );
    const live = liveRelease([sync]);
    (live.spec as any).forProvider.wait = true;
    const evaluated = evaluate(state([live]));
    const [release] = resourceOf(evaluated.diff.resources, 'Release');
    expect(release!.changes).toEqual([
      expect.objectContaining({
        path: '/spec/forProvider/wait',
        op: 'add',
        live: true,
        manager: 'acme-sync',
        time: '2026-12-01T10:40:00Z',
        cause: 'unknown',
      }),
    ]);
    // Reported, never codified: only human causes are codified by default.
    const cfg = config();
    expect(cfg.drift.causes).toEqual(['human']);
  });
});

describe("an Argo Rollout's pod template is compared as a pod template", () => {
  it('in sync: the rollout as Git has it', () => {
    const [rollout] = resourceOf(
      evaluate(state([liveRollout('argoproj/rollouts-demo:blue')])).diff.resources,
      'Rollout',
    );
    expect(rollout).toEqual(expect.objectContaining({ status: 'in-sync', changes: [] }));
  });

  it('a hand-set image is that container’s image, keyed by its name, with its manager', () => {
    const live = liveRollout('argoproj/rollouts-demo:yellow', 'kubectl-argo-rollouts');
    const [rollout] = resourceOf(evaluate(state([live])).diff.resources, 'Rollout');
    expect(rollout!.changes).toEqual([
      expect.objectContaining({
        path: '/spec/template/spec/containers/0/image',
        segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'rollouts-demo' } }, 'image'],
        desired: 'argoproj/rollouts-demo:blue',
        live: 'argoproj/rollouts-demo:yellow',
        manager: 'kubectl-argo-rollouts',
        cause: 'human',
      }),
    ]);
  });
});

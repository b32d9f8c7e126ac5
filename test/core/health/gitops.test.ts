// Flux and Argo CD objects: their health, and the reconciler state driftback reads from them.
import { describe, expect, it } from 'vitest';
import { assessHealth, reconcilerStateOf } from '../../../src/core/health/index.js';
import type { HealthStatus, KubeObject } from '../../../src/core/model/index.js';

const kustomization = (spec: Record<string, unknown>, status: Record<string, unknown>, generation = 3): KubeObject => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'apps', namespace: 'flux-system', generation },
  spec: { path: './clusters/prod-eu', interval: '10m', ...spec },
  status: { observedGeneration: 3, ...status },
});
const ready = (status: string, reason = 'ReconciliationSucceeded', message = 'Applied revision: main@sha1:abc') => ({
  type: 'Ready',
  status,
  reason,
  message,
  lastTransitionTime: '2026-12-02T03:00:00Z',
});
const application = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name: 'checkout', namespace: 'argocd' },
  spec: {
    source: { repoURL: 'https://github.com/acme/platform-gitops', path: 'apps/checkout', targetRevision: 'HEAD' },
    ...spec,
  },
  status,
});

const HEALTH_CASES: Array<[string, KubeObject, HealthStatus]> = [
  ['flux kustomization ready', kustomization({}, { conditions: [ready('True')] }), 'Healthy'],
  ['flux kustomization suspended', kustomization({ suspend: true }, { conditions: [ready('True')] }), 'Suspended'],
  [
    'flux kustomization failing',
    kustomization({}, { conditions: [ready('False', 'BuildFailed', 'kustomize build failed')] }),
    'Degraded',
  ],
  [
    'flux kustomization reconciling',
    kustomization(
      {},
      { conditions: [ready('Unknown', 'Progressing'), { type: 'Reconciling', status: 'True', reason: 'Progressing' }] },
    ),
    'Progressing',
  ],
  [
    'flux kustomization stalled',
    kustomization({}, { conditions: [ready('False'), { type: 'Stalled', status: 'True', reason: 'InvalidPath' }] }),
    'Degraded',
  ],
  [
    'flux kustomization new generation not observed',
    kustomization({}, { conditions: [ready('True')] }, 4),
    'Progressing',
  ],
  ['flux kustomization without status', { ...kustomization({}, {}), status: undefined }, 'Progressing'],
  [
    'flux helmrelease ready',
    {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'podinfo' },
      spec: {},
      status: { conditions: [ready('True')] },
    },
    'Healthy',
  ],
  [
    'flux gitrepository failing to fetch',
    {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: { name: 'flux-system' },
      spec: {},
      status: { conditions: [ready('False', 'GitOperationFailed', 'auth failed')] },
    },
    'Degraded',
  ],
  [
    'argo application healthy',
    application({ syncPolicy: { automated: {} } }, { health: { status: 'Healthy' }, sync: { status: 'Synced' } }),
    'Healthy',
  ],
  [
    'argo application degraded',
    application({}, { health: { status: 'Degraded', message: 'pods crash' }, sync: { status: 'OutOfSync' } }),
    'Degraded',
  ],
  ['argo application suspended', application({}, { health: { status: 'Suspended' } }), 'Suspended'],
  ['argo application never assessed', application({}, {}), 'Unknown'],
];

describe('health of GitOps controller objects', () => {
  it.each(HEALTH_CASES)('%s', (_name, live, status) => {
    expect(assessHealth(live).status).toBe(status);
  });

  it('says why a Flux Kustomization is not ready', () => {
    expect(
      assessHealth(kustomization({}, { conditions: [ready('False', 'BuildFailed', 'kustomize build failed')] }))
        .message,
    ).toBe('BuildFailed: kustomize build failed');
  });

  it('shows the Argo CD sync status next to its health', () => {
    expect(
      assessHealth(
        application({}, { health: { status: 'Degraded', message: 'pods crash' }, sync: { status: 'OutOfSync' } }),
      ).message,
    ).toBe('pods crash; sync: OutOfSync');
  });
});

describe('reconcilerStateOf', () => {
  it('reads a Flux Kustomization', () => {
    const live = kustomization(
      { suspend: true },
      {
        conditions: [ready('True')],
        lastHandledReconcileAt: '2026-12-02T02:59:00Z',
        lastAppliedRevision: 'main@sha1:abc',
        lastAttemptedRevision: 'main@sha1:def',
      },
    );
    expect(reconcilerStateOf(live)).toEqual({
      kind: 'flux-kustomization',
      name: 'apps',
      namespace: 'flux-system',
      path: './clusters/prod-eu',
      suspended: true,
      since: '2026-12-02T03:00:00Z',
      ready: true,
      lastReconciled: '2026-12-02T02:59:00Z',
      lastAppliedRevision: 'main@sha1:abc',
      lastAttemptedRevision: 'main@sha1:def',
      message: 'Applied revision: main@sha1:abc',
    });
  });

  it('falls back to the Ready transition time when Flux has handled no manual reconcile', () => {
    const state = reconcilerStateOf(kustomization({}, { conditions: [ready('False', 'BuildFailed', 'boom')] }));
    expect(state).toMatchObject({
      suspended: false,
      ready: false,
      lastReconciled: '2026-12-02T03:00:00Z',
      message: 'boom',
    });
  });

  it('reads a Flux HelmRelease v2 with its release history', () => {
    const live: KubeObject = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'podinfo', namespace: 'podinfo' },
      spec: { suspend: false },
      status: { history: [{ chartVersion: '6.5.4' }], lastAttemptedRevision: '6.5.4', conditions: [ready('True')] },
    };
    expect(reconcilerStateOf(live)).toMatchObject({
      kind: 'flux-helmrelease',
      suspended: false,
      ready: true,
      lastAppliedRevision: '6.5.4',
      lastAttemptedRevision: '6.5.4',
    });
    expect(reconcilerStateOf(live)?.path).toBeUndefined();
  });

  it('reads an Argo CD Application with automated sync', () => {
    const live = application(
      { syncPolicy: { automated: { prune: true } } },
      {
        health: { status: 'Healthy' },
        sync: { status: 'Synced', revision: 'abc123' },
        reconciledAt: '2026-12-02T03:01:00Z',
      },
    );
    expect(reconcilerStateOf(live)).toEqual({
      kind: 'argocd-application',
      name: 'checkout',
      namespace: 'argocd',
      path: 'apps/checkout',
      suspended: false,
      ready: true,
      lastReconciled: '2026-12-02T03:01:00Z',
      lastAppliedRevision: 'abc123',
    });
  });

  it('treats an Argo CD Application without automated sync as suspended', () => {
    expect(reconcilerStateOf(application({ syncPolicy: {} }, { sync: { status: 'OutOfSync' } }))).toMatchObject({
      suspended: true,
      outOfSync: true,
    });
  });

  it('tells an Application that is only OutOfSync (a hand change) from one that is failing', () => {
    const synced = { phase: 'Succeeded', message: 'successfully synced (all tasks run)' };
    const outOfSync = application(
      { syncPolicy: { automated: {} } },
      { health: { status: 'Healthy' }, sync: { status: 'OutOfSync' }, operationState: synced },
    );
    expect(reconcilerStateOf(outOfSync)).toMatchObject({ ready: true, outOfSync: true });
    expect(reconcilerStateOf(outOfSync)?.message).toBeUndefined();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['degraded', { health: { status: 'Degraded', message: 'Back-off pulling image' } }, 'Back-off pulling image'],
      [
        'a failed sync',
        { operationState: { phase: 'Failed', message: 'one or more objects failed to apply' } },
        'one or more objects failed to apply',
      ],
      [
        'an error condition',
        { conditions: [{ type: 'ComparisonError', message: 'rpc error' }] },
        'ComparisonError: rpc error',
      ],
    ];
    for (const [, status, message] of cases) {
      expect(
        reconcilerStateOf(application({ syncPolicy: { automated: {} } }, { sync: { status: 'Synced' }, ...status })),
      ).toMatchObject({ ready: false, message });
    }
  });

  it('reads the first source of a multi-source Application', () => {
    const live = application(
      { source: undefined, sources: [{ path: 'charts/api' }], syncPolicy: { automated: {} } },
      {},
    );
    expect(reconcilerStateOf(live)?.path).toBe('charts/api');
  });

  it('is undefined for objects that are not reconcilers', () => {
    expect(reconcilerStateOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api' } })).toBeUndefined();
    expect(
      reconcilerStateOf({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        metadata: { name: 'k' },
      }),
    ).toBeUndefined();
  });
});

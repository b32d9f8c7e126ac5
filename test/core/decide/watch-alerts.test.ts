// The watch's alerts as data: a cluster not reporting, a GitOps controller not reconciling. What the
// snapshot, HEAD and GitHub's comparison show, and the issues opened before → the issues to open and
// close, in order, with the state to remember.
import { describe, expect, it } from 'vitest';
import {
  commitsToCompare,
  decideNotReconciling,
  decideNotReporting,
  withReconcilerIssues,
  type AlertAction,
  type Comparison,
  type NotReconcilingEntry,
  type NotReportingRecord,
} from '../../../src/core/decide/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const NOW = '2026-12-02T12:00:00Z';
const line = (action: AlertAction): string =>
  action.kind === 'alert.open' ? `open ${action.key}` : `close #${action.issue}: ${action.comment}`;

describe('decideNotReporting', () => {
  const prod = { name: 'prod', staleAfter: '30m' };
  const decide = (latest: string | undefined, open?: NotReportingRecord, configuredAt = '2026-12-01T00:00:00Z') =>
    decideNotReporting({
      cluster: prod,
      ...(latest ? { latestCapturedAt: latest } : {}),
      configuredAt,
      ...(open ? { open } : {}),
      now: NOW,
    });
  const open = { issue: 7, since: '2026-12-02T10:00:00Z' };

  it.each<[string, string | undefined, NotReportingRecord | undefined, string[], unknown]>([
    ['reporting, nothing open: nothing', '2026-12-02T11:50:00Z', undefined, [], undefined],
    [
      'older than staleAfter: one issue opened',
      '2026-12-02T11:00:00Z',
      undefined,
      ['open alert/prod/not-reporting'],
      { since: NOW },
    ],
    [
      'never reported since configured long ago: opened',
      undefined,
      undefined,
      ['open alert/prod/not-reporting'],
      { since: NOW },
    ],
    ['still stale, already open: not rewritten', '2026-12-02T09:00:00Z', open, [], open],
    [
      'snapshots resumed: closed with a comment saying when the latest was taken',
      '2026-12-02T11:58:00Z',
      open,
      ['close #7: Snapshots of `prod` resumed: the latest was taken 2026-12-02T11:58:00Z (2m ago). Closing.'],
      undefined,
    ],
  ])('%s', (_name, latest, before, expected, next) => {
    const decision = decide(latest, before);
    expect(decision.actions.map(line)).toEqual(expected);
    expect(decision.next).toEqual(next);
  });

  it('a cluster configured a minute ago that never reported is not stale yet', () => {
    expect(decide(undefined, undefined, '2026-12-02T11:59:00Z').actions).toEqual([]);
  });

  it('the opened alert says what it last saw: the capture time, else since when it is configured', () => {
    expect(decide('2026-12-02T11:00:00Z').actions[0]).toMatchObject({
      document: 'renderStaleAlert',
      view: { cluster: 'prod', now: NOW, staleAfter: '30m', lastCapturedAt: '2026-12-02T11:00:00Z' },
    });
    const never = decide(undefined).actions[0];
    expect(never).toMatchObject({ view: { configuredAt: '2026-12-01T00:00:00Z' } });
    expect(never).not.toHaveProperty('view.lastCapturedAt');
  });
});

const APPLIED = 'a'.repeat(40);
const HEAD = { sha: 'b'.repeat(40), at: '2026-12-02T10:00:00Z' };

/** A Flux Kustomization named `name`, applying `path`: failing since 10:00, applied APPLIED, or suspended. */
function kustomization(
  state: 'ready' | 'failing' | 'suspended',
  { name = 'prod', path = './clusters/prod' } = {},
): KubeObject {
  const ready =
    state === 'failing'
      ? {
          type: 'Ready',
          status: 'False',
          reason: 'BuildFailed',
          lastTransitionTime: '2026-12-02T10:00:00Z',
          message: 'kustomize build failed',
        }
      : {
          type: 'Ready',
          status: 'True',
          reason: 'ReconciliationSucceeded',
          lastTransitionTime: '2026-12-02T08:00:00Z',
        };
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'flux-system' },
    spec: {
      path,
      interval: '10m',
      sourceRef: { kind: 'GitRepository', name: 'platform' },
      ...(state === 'suspended' ? { suspend: true } : {}),
    },
    status: {
      lastAppliedRevision: `main@sha1:${APPLIED}`,
      lastAttemptedRevision: `main@sha1:${APPLIED}`,
      conditions: [ready],
    },
  };
}

/** kustomize-controller with `ready` ready replicas. */
function controller(ready: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'kustomize-controller', namespace: 'flux-system' },
    spec: { replicas: ready },
    status: ready > 0 ? { replicas: ready, readyReplicas: ready } : {},
  };
}

const ref = { kind: 'flux-kustomization' as const, namespace: 'flux-system', name: 'prod' };
const entry = (since: string, issue?: number): NotReconcilingEntry => ({
  reconciler: ref,
  since,
  reason: 'has been failing since 2026-12-02 10:00 UTC: kustomize build failed',
  ...(issue !== undefined ? { issue } : {}),
});

describe('decideNotReconciling', () => {
  const input = (items: KubeObject[], previous: NotReconcilingEntry[], head?: typeof HEAD) => ({
    cluster: { name: 'prod', path: 'clusters/prod', staleAfter: '30m' },
    items,
    ...(head ? { head } : {}),
    previous,
    now: NOW,
  });
  const decide = (
    items: KubeObject[],
    previous: NotReconcilingEntry[],
    head?: typeof HEAD,
    comparisons: Record<string, Comparison> = {},
  ) => decideNotReconciling(input(items, previous, head), comparisons);

  it.each<[string, KubeObject[], NotReconcilingEntry[], string[], NotReconcilingEntry[]]>([
    ['reconciling, nothing watched: nothing', [kustomization('ready'), controller(1)], [], [], []],
    [
      'failing, first seen: watched from now, no issue yet',
      [kustomization('failing'), controller(1)],
      [],
      [],
      [{ ...entry(NOW), reason: 'has been failing since 2026-12-02 10:00 UTC: kustomize build failed' }],
    ],
    [
      'failing for less than an hour: still waiting',
      [kustomization('failing'), controller(1)],
      [entry('2026-12-02T11:30:00Z')],
      [],
      [entry('2026-12-02T11:30:00Z')],
    ],
    [
      'failing for an hour: one issue opened',
      [kustomization('failing'), controller(1)],
      [entry('2026-12-02T11:00:00Z')],
      ['open alert/prod/not-reconciling/flux-system/prod'],
      [entry('2026-12-02T11:00:00Z')],
    ],
    [
      'still failing, issue open: not rewritten',
      [kustomization('failing'), controller(1)],
      [entry('2026-12-02T09:00:00Z', 5)],
      [],
      [entry('2026-12-02T09:00:00Z', 5)],
    ],
    [
      'reconciles again: closed, naming the commit it applied',
      [kustomization('ready'), controller(1)],
      [entry('2026-12-02T09:00:00Z', 5)],
      ['close #5: `flux-system/prod` in `prod` reconciles again (applied `aaaaaaa`). Closing.'],
      [],
    ],
    [
      'reconciles again before an issue was opened: forgotten without a write',
      [kustomization('ready'), controller(1)],
      [entry('2026-12-02T11:30:00Z')],
      [],
      [],
    ],
    [
      'gone from the snapshot: closed without a commit',
      [controller(1)],
      [entry('2026-12-02T09:00:00Z', 5)],
      ['close #5: `flux-system/prod` in `prod` reconciles again. Closing.'],
      [],
    ],
    [
      'a version 1 entry (no kind) closes like its reconciler',
      [kustomization('ready'), controller(1)],
      [
        {
          reconciler: { namespace: 'flux-system', name: 'prod' },
          since: '2026-12-02T09:00:00Z',
          reason: 'failing',
          issue: 3,
        },
      ],
      ['close #3: `flux-system/prod` in `prod` reconciles again (applied `aaaaaaa`). Closing.'],
      [],
    ],
    ['suspended: no failure (it has its own deadline)', [kustomization('suspended'), controller(1)], [], [], []],
    [
      'applying another path: not this cluster’s',
      [kustomization('failing', { path: './clusters/staging' }), controller(1)],
      [entry('2026-12-02T09:00:00Z')],
      [],
      [],
    ],
  ])('%s', (_name, items, previous, expected, next) => {
    const decision = decide(items, previous);
    expect(decision.actions.map(line)).toEqual(expected);
    expect(decision.next).toEqual(next);
  });

  it('behind HEAD past 3 intervals: compares what it applied with HEAD and quotes the commits waiting', () => {
    const items = [kustomization('ready'), controller(1)];
    expect(commitsToCompare(input(items, [], HEAD))).toEqual([APPLIED]);
    const pending = [{ sha: HEAD.sha, message: 'Scale web to 3' }];
    const decision = decide(items, [], HEAD, { [APPLIED]: pending });
    expect(decision.actions).toHaveLength(1);
    expect(decision.actions[0]).toMatchObject({
      kind: 'alert.open',
      document: 'renderNotReconcilingAlert',
      view: {
        cluster: 'prod',
        stopped: { since: HEAD.at, pending, stopped: { type: 'behind-head', applied: APPLIED } },
      },
    });
    expect(decision.next).toEqual([{ reconciler: ref, since: HEAD.at, reason: expect.stringContaining('HEAD') }]);
  });

  it('behind a HEAD that does not follow what it applied (another repository or branch): no alert, not watched', () => {
    const items = [kustomization('ready'), controller(1)];
    const decision = decide(items, [], HEAD, { [APPLIED]: 'unrelated' });
    expect(decision).toEqual({ actions: [], next: [] });
  });

  it('a controller with no ready replica: alerts after its threshold, naming the command; nothing to compare before', () => {
    const items = [kustomization('ready'), controller(0)];
    expect(commitsToCompare(input(items, [], HEAD))).toEqual([]);
    const first = decide(items, [], HEAD);
    expect(first.actions).toEqual([]);
    const later = decide(
      items,
      first.next.map((e) => ({ ...e, since: '2026-12-02T11:00:00Z' })),
      HEAD,
      {
        [APPLIED]: [],
      },
    );
    expect(later.actions.map(line)).toEqual(['open alert/prod/not-reconciling/flux-system/prod']);
    expect(later.actions[0]).toMatchObject({ view: { stopped: { stopped: { type: 'controller-stopped' } } } });
  });

  /** An Argo CD Application applying `path`, synced at APPLIED, automated sync on. */
  const application = (name: string, path: string): KubeObject => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd' },
    spec: {
      source: { repoURL: 'https://github.com/acme/platform.git', path, targetRevision: 'HEAD' },
      destination: { server: 'https://kubernetes.default.svc', namespace: name },
      syncPolicy: { automated: { selfHeal: true } },
    },
    status: { sync: { status: 'Synced', revision: APPLIED }, health: { status: 'Healthy' } },
  });
  /** argocd-application-controller as install.yaml declares it, with `ready` ready replicas. */
  const argoController = (ready: number): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'argocd-application-controller', namespace: 'argocd' },
    spec: { replicas: ready },
    status: ready > 0 ? { replicas: ready, readyReplicas: ready } : { replicas: 0, availableReplicas: 0 },
  });
  const held = (items: KubeObject[]) => {
    const first = decide(items, [], HEAD);
    const earlier = first.next.map((e) => ({ ...e, since: '2026-12-02T11:00:00Z' }));
    return decide(items, earlier, HEAD, { [APPLIED]: [] }).actions.map(line);
  };

  it.each<[string, KubeObject[], string[]]>([
    [
      'Argo CD: the cluster path holds the Applications, which apply other paths: one alert, for the first one',
      [application('shop', 'apps/shop'), application('web', 'apps/web'), argoController(0)],
      ['open alert/prod/not-reconciling/argocd/shop'],
    ],
    ['Argo CD, the controller running: nothing', [application('shop', 'apps/shop'), argoController(1)], []],
    [
      'Argo CD: an Application applying the cluster path is the one named',
      [application('shop', 'apps/shop'), application('root', 'clusters/prod'), argoController(0)],
      ['open alert/prod/not-reconciling/argocd/root'],
    ],
    [
      'Flux: the Kustomization applying the cluster path names the stopped controller; the others it runs add none',
      [kustomization('ready', { name: 'apps', path: './apps' }), kustomization('ready'), controller(0)],
      ['open alert/prod/not-reconciling/flux-system/prod'],
    ],
    [
      'Flux: none applies the cluster path: the first one the stopped controller runs',
      [kustomization('ready', { name: 'apps', path: './apps' }), controller(0)],
      ['open alert/prod/not-reconciling/flux-system/apps'],
    ],
    [
      'a failing reconciler of another path raises nothing while its controller runs',
      [kustomization('failing', { name: 'apps', path: './apps' }), controller(1)],
      [],
    ],
  ])('a stopped controller is one alert: %s', (_name, items, actions) => {
    expect(held(items)).toEqual(actions);
  });

  it('a Flux Kustomization of another path of this repository behind HEAD while its controller runs: its own alert', () => {
    const items = [kustomization('ready'), kustomization('ready', { name: 'apps', path: './apps' }), controller(1)];
    const pending = [{ sha: HEAD.sha, message: 'Scale web to 3' }];
    expect(decide(items, [], HEAD, { [APPLIED]: pending }).actions.map(line)).toEqual([
      'open alert/prod/not-reconciling/flux-system/prod',
      'open alert/prod/not-reconciling/flux-system/apps',
    ]);
    // Of another repository (HEAD does not follow what it applied): none.
    expect(decide(items, [], HEAD, { [APPLIED]: 'unrelated' }).actions).toEqual([]);
  });

  /** argocd-cm as install.yaml ships it, with `timeout.reconciliation` set when given. */
  const argoCm = (namespace: string, timeout?: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'argocd-cm', namespace },
    data: timeout === undefined ? {} : { 'timeout.reconciliation': timeout },
  });

  // HEAD moved at 10:00, it is 12:00: 2h behind. Argo CD's interval is argocd-cm's timeout.reconciliation.
  it.each<[string, KubeObject[], string[], string | undefined]>([
    ['no argocd-cm: 180s, threshold 15m', [], ['open alert/prod/not-reconciling/argocd/root'], '15m'],
    ['argocd-cm without the key: 180s', [argoCm('argocd')], ['open alert/prod/not-reconciling/argocd/root'], '15m'],
    [
      'timeout.reconciliation 30m: threshold 1h 30m',
      [argoCm('argocd', '30m')],
      ['open alert/prod/not-reconciling/argocd/root'],
      '1h 30m',
    ],
    ['timeout.reconciliation 1h: threshold 3h, not yet', [argoCm('argocd', '1h')], [], undefined],
    [
      'timeout.reconciliation 0 (refresh off): the 15m floor',
      [argoCm('argocd', '0')],
      ['open alert/prod/not-reconciling/argocd/root'],
      '15m',
    ],
    [
      "another instance's argocd-cm does not set this one's interval",
      [argoCm('argocd', '5m'), argoCm('team-a', '1h')],
      ['open alert/prod/not-reconciling/argocd/root'],
      '15m',
    ],
  ])('Argo CD behind HEAD: %s', (_name, maps, actions, threshold) => {
    const items = [application('root', 'clusters/prod'), argoController(1), ...maps];
    const decision = decide(items, [], HEAD, { [APPLIED]: [{ sha: HEAD.sha, message: 'Scale web to 3' }] });
    expect(decision.actions.map(line)).toEqual(actions);
    if (threshold) expect(decision.next[0]!.reason).toContain(`for longer than ${threshold} (3 of its intervals`);
  });

  /**
   * The Application `shop` (path apps/shop) OutOfSync at HEAD: last synced APPLIED (its history), its
   * last operation `operation` (Succeeded at APPLIED unless given), automated sync on unless `manual`.
   */
  const outOfSync = ({
    manual = false,
    sync = { status: 'OutOfSync', revision: HEAD.sha },
    synced = APPLIED,
    operation = { phase: 'Succeeded', syncResult: { revision: APPLIED } } as Record<string, unknown>,
    annotations = undefined as Record<string, string> | undefined,
  } = {}): KubeObject => {
    const app = application('shop', 'apps/shop');
    return {
      ...app,
      metadata: { ...app.metadata, ...(annotations ? { annotations } : {}) },
      spec: { ...(app.spec as Record<string, unknown>), syncPolicy: manual ? {} : { automated: { selfHeal: true } } },
      status: {
        sync,
        health: { status: 'Healthy' },
        history: [{ id: 1, revision: synced, deployedAt: '2026-12-02T08:00:00Z' }],
        operationState: { ...operation, finishedAt: '2026-12-02T08:00:00Z' },
      },
    };
  };
  const waiting = [{ sha: HEAD.sha, message: 'Bump shop to v2' }];
  const decideApp = (app: KubeObject, files: string[] | undefined, comparison: Comparison = waiting, head = HEAD) =>
    decideNotReconciling(
      input([app, argoController(1)], [], head),
      { [APPLIED]: comparison },
      files ? { [APPLIED]: files } : {},
    );
  const SHOP = ['apps/shop/deployment.yaml'];

  // HEAD moved at 10:00, it is 12:00; the threshold is 15m (argocd-cm's default 180s × 3, at least 15m).
  it.each<[string, KubeObject, string]>([
    ['automated sync off', outOfSync({ manual: true }), 'automated sync is off'],
    [
      'its sync failed',
      outOfSync({ operation: { phase: 'Failed', message: 'one or more objects failed to apply' } }),
      'sync failed: one or more objects failed to apply',
    ],
    [
      'its sync failed, the message ending with a full stop',
      outOfSync({ operation: { phase: 'Failed', message: 'one or more objects failed to apply (retried 5 times).' } }),
      'sync failed: one or more objects failed to apply (retried 5 times)',
    ],
    [
      'its sync errored',
      outOfSync({ operation: { phase: 'Error', message: 'rpc error: repository not accessible' } }),
      'sync failed: rpc error: repository not accessible',
    ],
    ['automated sync on, its last sync at another commit', outOfSync(), 'sync has not run at HEAD'],
  ])('an Application OutOfSync at HEAD while its controller runs: %s', (_name, app, why) => {
    const items = [app, argoController(1)];
    expect(commitsToCompare(input(items, [], HEAD))).toEqual([APPLIED]);
    const decision = decideApp(app, SHOP);
    expect(decision.actions.map(line)).toEqual(['open alert/prod/not-reconciling/argocd/shop']);
    expect(decision.actions[0]).toMatchObject({
      view: {
        reason: `is OutOfSync at the repository's HEAD for longer than 15m: ${why}`,
        stopped: {
          since: HEAD.at,
          pending: waiting,
          stopped: { type: 'out-of-sync', applied: APPLIED, commands: [['argocd', 'app', 'sync', 'argocd/shop']] },
        },
      },
    });
    expect(decision.next).toEqual([
      {
        reconciler: { kind: 'argocd-application', namespace: 'argocd', name: 'shop' },
        since: HEAD.at,
        reason: expect.stringContaining(why),
      },
    ]);
  });

  const recent = { sha: HEAD.sha, at: '2026-12-02T11:50:00Z' };
  it.each<[string, KubeObject, string[] | undefined, Comparison, typeof HEAD]>([
    ['Synced at HEAD', outOfSync({ sync: { status: 'Synced', revision: HEAD.sha } }), SHOP, waiting, HEAD],
    [
      'OutOfSync at another revision (its sync revision alone is no evidence)',
      outOfSync({ sync: { status: 'OutOfSync', revision: APPLIED } }),
      SHOP,
      waiting,
      HEAD,
    ],
    [
      'last synced at HEAD, OutOfSync: a hand change, drift',
      outOfSync({ synced: HEAD.sha, operation: { phase: 'Succeeded', syncResult: { revision: HEAD.sha } } }),
      SHOP,
      [],
      HEAD,
    ],
    [
      'automated sync on, synced HEAD, still OutOfSync: drift (self-heal pending), not behind',
      outOfSync({ operation: { phase: 'Succeeded', syncResult: { revision: HEAD.sha } } }),
      SHOP,
      waiting,
      HEAD,
    ],
    ['HEAD changed no file under its path', outOfSync({ manual: true }), ['apps/web/deployment.yaml'], waiting, HEAD],
    [
      'HEAD changed its path but not its manifest-generate-paths',
      outOfSync({ manual: true, annotations: { 'argocd.argoproj.io/manifest-generate-paths': '/apps/shop/prod' } }),
      ['apps/shop/staging/values.yaml'],
      waiting,
      HEAD,
    ],
    ['OutOfSync at HEAD for less than the threshold', outOfSync({ manual: true }), SHOP, waiting, recent],
    ['HEAD does not follow what it synced', outOfSync({ manual: true }), SHOP, 'unrelated', HEAD],
  ])('an Application is not behind: %s', (_name, app, files, comparison, head) => {
    expect(decideApp(app, files, comparison, head)).toEqual({ actions: [], next: [] });
  });

  it('an Application behind under its manifest-generate-paths alerts; unknown changed files count as changed', () => {
    const annotations = { 'argocd.argoproj.io/manifest-generate-paths': '.;/shared/base' };
    expect(
      decideApp(outOfSync({ manual: true, annotations }), ['shared/base/kustomization.yaml']).actions,
    ).toHaveLength(1);
    expect(decideApp(outOfSync({ manual: true }), undefined).actions.map(line)).toEqual([
      'open alert/prod/not-reconciling/argocd/shop',
    ]);
  });

  it('an Application behind with its controller stopped: the stopped controller is the alert', () => {
    const items = [outOfSync(), argoController(0)];
    const previous = [
      {
        reconciler: { kind: 'argocd-application' as const, namespace: 'argocd', name: 'shop' },
        since: '2026-12-02T11:00:00Z',
        reason: 'stopped',
      },
    ];
    const decision = decideNotReconciling(input(items, previous, HEAD), { [APPLIED]: waiting }, { [APPLIED]: SHOP });
    expect(decision.actions[0]).toMatchObject({ view: { stopped: { stopped: { type: 'controller-stopped' } } } });
  });

  it('an Application alert closes when it is Synced at HEAD', () => {
    const app = outOfSync({ sync: { status: 'Synced', revision: HEAD.sha }, synced: HEAD.sha });
    const previous = [
      {
        reconciler: { kind: 'argocd-application' as const, namespace: 'argocd', name: 'shop' },
        since: HEAD.at,
        reason: 'is OutOfSync at HEAD',
        issue: 8,
      },
    ];
    const decision = decideNotReconciling(input([app, argoController(1)], previous, HEAD), {});
    expect(decision.actions.map(line)).toEqual([
      'close #8: `argocd/shop` in `prod` reconciles again (applied `bbbbbbb`). Closing.',
    ]);
    expect(decision.next).toEqual([]);
  });

  it('the issue an open action opened goes into the entry kept', () => {
    const next = [entry('2026-12-02T11:00:00Z')];
    expect(withReconcilerIssues('prod', next, { 'alert/prod/not-reconciling/flux-system/prod': 9 })).toEqual([
      entry('2026-12-02T11:00:00Z', 9),
    ]);
  });
});

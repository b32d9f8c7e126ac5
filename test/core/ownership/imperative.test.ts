// Imperative actions and autoscaled replicas: reported with their reason, never a change to codify.
import { describe, expect, it } from 'vitest';
import { diffResources } from '../../../src/core/diff/index.js';
import { IMPERATIVE_ACTIONS, ephemeralReason } from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { selectIntents } from '../../../src/core/codify/select.js';
import { configWith, deployment, desiredOf, managed } from '../diff/support.js';

const config = configWith();
const T = '2026-12-01T12:17:03Z';

/** A live Deployment where `manager` set `value` at `path` (fieldsV1 spelled from the path). */
function handSet(base: KubeObject, path: string[], value: unknown, manager: string, subresource?: string): KubeObject {
  const live = structuredClone(base) as Record<string, unknown>;
  let node = live;
  for (const segment of path.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
  let fields: Record<string, unknown> = {};
  for (const segment of [...path].reverse()) fields = { [`f:${segment}`]: fields };
  const meta = live.metadata as Record<string, unknown>;
  const applied = managed('kustomize-controller', { 'f:spec': { 'f:replicas': {} } }, 'Apply', '2026-12-01T10:00:00Z');
  meta.managedFields = [applied, managed(manager, fields, 'Update', T, subresource)];
  return live as KubeObject;
}

const TEMPLATE_ANNOTATIONS = ['spec', 'template', 'metadata', 'annotations'];
const ANNOTATIONS = ['metadata', 'annotations'];
const rows: Array<[string, string[], unknown, string, string]> = [
  [
    'kubectl rollout restart',
    [...TEMPLATE_ANNOTATIONS, 'kubectl.kubernetes.io/restartedAt'],
    T,
    'kubectl-rollout',
    '`kubectl rollout restart`',
  ],
  ['flux reconcile', [...ANNOTATIONS, 'reconcile.fluxcd.io/requestedAt'], T, 'flux', '`flux reconcile`'],
  ['flux reconcile --force', [...ANNOTATIONS, 'reconcile.fluxcd.io/forceAt'], T, 'flux', '`flux reconcile --force`'],
  ['flux reconcile --reset', [...ANNOTATIONS, 'reconcile.fluxcd.io/resetAt'], T, 'flux', '`flux reconcile --reset`'],
  [
    'argocd app get --refresh',
    [...ANNOTATIONS, 'argocd.argoproj.io/refresh'],
    'hard',
    'argocd-server',
    'Argo CD refresh',
  ],
  [
    'deployment controller',
    [...ANNOTATIONS, 'deployment.kubernetes.io/revision'],
    '3',
    'kubectl-annotate',
    'rollout revision',
  ],
  [
    'kubectl --record',
    [...ANNOTATIONS, 'kubernetes.io/change-cause'],
    'kubectl set image',
    'kubectl-set',
    '`--record`',
  ],
];

describe('imperative actions are reported, never codified', () => {
  it('the table covers every action the rows test, and the last-applied annotation', () => {
    const commands = IMPERATIVE_ACTIONS.map((a) => a.command);
    for (const [command] of rows) expect(commands).toContain(command);
    const lastApplied = '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration';
    expect(IMPERATIVE_ACTIONS.map((a) => a.path)).toContain(lastApplied);
  });

  it.each(rows)('%s', (_command, path, value, manager, why) => {
    const live = handSet(deployment(), path, value, manager);
    const result = diffResources([desiredOf(deployment(), 'shop')], [live], { config });
    const [resource] = result.resources;
    expect(resource!.status).toBe('in-sync');
    expect(resource!.changes).toEqual([]);
    expect(resource!.reported).toHaveLength(1);
    expect(resource!.reported![0]).toMatchObject({ manager, reported: { code: 'imperative' } });
    const { intents, reported } = selectIntents(result.resources, config);
    expect(intents).toEqual([]);
    expect(reported.map((r) => r.reason)).toEqual([expect.stringContaining(why)]);
  });
});

describe('ephemeral kinds are never new files', () => {
  it.each([
    ['v1', 'Pod', true],
    ['apps/v1', 'ReplicaSet', true],
    ['batch/v1', 'Job', true],
    ['v1', 'ConfigMap', false],
    ['batch/v1', 'CronJob', false],
  ])('%s %s → %s', (apiVersion, kind, ephemeral) => {
    expect(ephemeralReason({ apiVersion, kind, metadata: { name: 'x' } }) !== undefined).toBe(ephemeral);
  });

  it('a Pod from kubectl run is reported under a person, not extra', () => {
    const managedFields = [managed('kubectl-run', { 'f:spec': {} })];
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'debug', namespace: 'shop', managedFields },
      spec: { nodeName: 'kind-control-plane' },
    };
    const result = diffResources([], [pod], { config });
    expect(result.resources).toEqual([]);
    expect(result.owned).toEqual([
      expect.objectContaining({
        owner: expect.objectContaining({ class: 'person', name: 'kubectl-run' }),
        reported: expect.objectContaining({ code: 'ephemeral' }),
      }),
    ]);
    const { reported } = selectIntents(result.resources, config, undefined, result.owned);
    expect(reported[0]!.reason).toMatch(/ephemeral kind/);
  });
});

describe('an autoscaler owns replicas', () => {
  const hpa = (target = 'api'): KubeObject => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'api-hpa', namespace: 'shop' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      minReplicas: 2,
      maxReplicas: 10,
    },
  });
  const scaledObject: KubeObject = {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: { name: 'api-keda', namespace: 'shop' },
    spec: { scaleTargetRef: { name: 'api' } },
  };
  const noReplicas = deployment({ spec: { replicas: undefined } });

  it.each([
    ['kubectl scale', 'kubectl', 'scale', 'HPA shop/api-hpa', 'HPA', hpa()],
    ['the HPA itself', 'kube-controller-manager', 'scale', 'HPA shop/api-hpa', 'HPA', hpa()],
    ['kubectl scale under KEDA', 'kubectl', 'scale', 'KEDA ScaledObject shop/api-keda', 'ScaledObject', scaledObject],
  ])(
    '%s: replicas are reported naming the autoscaler, and where to change them',
    (_n, manager, subresource, named, owner, autoscaler) => {
      const live = handSet(noReplicas, ['spec', 'replicas'], 6, manager, subresource);
      const desired = [desiredOf(noReplicas, 'shop'), desiredOf(autoscaler, 'shop')];
      const result = diffResources(desired, [live, autoscaler], { config });
      const resource = result.resources.find((r) => r.key.kind === 'Deployment')!;
      expect(resource.changes).toEqual([]);
      expect(resource.conflicts).toEqual([]);
      const reasons = resource.reported?.map((c) => c.reported?.reason);
      expect(reasons).toEqual([
        `an autoscaler owns replicas: ${named} targets this workload; to change replicas, set the ${owner}'s minimum`,
      ]);
    },
  );

  it('without an autoscaler, kubectl scale is a change to codify', () => {
    const live = handSet(noReplicas, ['spec', 'replicas'], 6, 'kubectl', 'scale');
    const [resource] = diffResources([desiredOf(noReplicas, 'shop')], [live], { config }).resources;
    expect(resource!.changes.map((c) => c.path)).toEqual(['/spec/replicas']);
  });

  it('when Git declares replicas too, the conflict is named with its fix', () => {
    const live = handSet(deployment(), ['spec', 'replicas'], 6, 'kube-controller-manager', 'scale');
    const result = diffResources([desiredOf(deployment(), 'shop')], [live, hpa()], { config });
    const resource = result.resources.find((r) => r.key.kind === 'Deployment')!;
    expect(resource.changes).toEqual([]);
    expect(resource.conflicts).toEqual([
      expect.objectContaining({
        path: '/spec/replicas',
        manager: 'HPA shop/api-hpa',
        fix: expect.stringContaining('remove `replicas` from the manifest'),
      }),
    ]);
  });
});

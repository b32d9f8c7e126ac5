// One-off triggers and emergency switches flipped by hand: reported with what they stop, never codified.
// Objects are upstream examples (kubernetes/website application/job/cronjob.yaml, kedacore/keda
// config/samples/keda_v1alpha1_scaledobject.yaml, provider-helm's Release example, external-secrets
// docs/snippets/basic-external-secret.yaml); each hand change is recorded as the command's own manager
// writes it (`kubectl patch` → kubectl-patch, `kubectl annotate` → kubectl-annotate, `kubectl rollout
// pause` → kubectl-rollout, `kubectl argo rollouts pause` → kubectl-argo-rollouts), an Update of exactly that field.
// argo-rollouts examples/rollout-canary.yaml is Argo Rollouts' own example.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { diffResources } from '../../../src/core/diff/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { selectIntents } from '../../../src/core/codify/select.js';
import { judgeExtra, ownershipContextOf } from '../../../src/core/ownership/index.js';
import { readFixture } from '../../support/fixtures.js';
import { configWith, deployment, desiredOf, managed } from '../diff/support.js';

const config = configWith();
const T = '2026-12-01T12:17:03Z';

function load(path: string): KubeObject {
  return parse(readFixture('manifests', path)) as KubeObject;
}

/** `object` live, after the applier applied it and `manager` set `value` at `path`. */
function handSet(object: KubeObject, path: string[], value: unknown, manager: string): KubeObject {
  const live = structuredClone(object) as Record<string, unknown>;
  (live.metadata as Record<string, unknown>).namespace ??= 'shop';
  let node = live;
  for (const segment of path.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
  let fields: Record<string, unknown> = {};
  for (const segment of [...path].reverse()) fields = { [`f:${segment}`]: fields };
  const applied = managed('kustomize-controller', { 'f:spec': {} }, 'Apply', '2026-12-01T10:00:00Z');
  (live.metadata as Record<string, unknown>).managedFields = [applied, managed(manager, fields, 'Update', T)];
  return live as KubeObject;
}

function judge(object: KubeObject, live: KubeObject) {
  const result = diffResources([desiredOf(object, 'shop')], [live], { config });
  const [resource] = result.resources;
  const { intents, reported } = selectIntents(result.resources, config);
  return { resource: resource!, intents, reported: reported.map((r) => r.reason) };
}

const CRONJOB = load('kubernetes-website/content/en/examples/application/job/cronjob.yaml');
const SCALED = load('keda/config/samples/keda_v1alpha1_scaledobject.yaml');
const RELEASE = load('provider-helm/examples/cluster/sample/release-oci-url-with-tag.yaml');
const ROLLOUT = load('argo-rollouts/examples/rollout-canary.yaml');
const EXTERNAL = load('external-secrets/docs/snippets/basic-external-secret.yaml');
const ANNOTATIONS = ['metadata', 'annotations'];
const KUSTOMIZE_CONTROLLER = { ...deployment(), metadata: { name: 'kustomize-controller', namespace: 'flux-system' } };
const ARGO_CONTROLLER = {
  ...deployment(),
  kind: 'StatefulSet',
  metadata: { name: 'argocd-application-controller', namespace: 'argocd' },
};

describe('emergency switches flipped by hand', () => {
  it.each([
    [
      'a CronJob suspended',
      CRONJOB,
      ['spec', 'suspend'],
      true,
      'kubectl-patch',
      /CronJob hello starts no Jobs \(schedule `\* \* \* \* \*`\): the hello job is not running/,
    ],
    [
      'rollouts paused',
      deployment(),
      ['spec', 'paused'],
      true,
      'kubectl-rollout',
      /`kubectl rollout pause`.*Deployment api rolls out no change/,
    ],
    [
      // `kubectl argo rollouts pause` merge-patches {"spec":{"paused":true}} (argo-rollouts cmd/pause/pause.go).
      'an Argo Rollout paused',
      ROLLOUT,
      ['spec', 'paused'],
      true,
      'kubectl-argo-rollouts',
      /`kubectl argo rollouts pause`.*Rollout rollout-canary advances no step/,
    ],
    [
      'KEDA paused at N replicas',
      SCALED,
      [...ANNOTATIONS, 'autoscaling.keda.sh/paused-replicas'],
      '0',
      'kubectl-annotate',
      /KEDA holds Deployment example-deployment at 0 replicas/,
    ],
    [
      'KEDA paused',
      SCALED,
      [...ANNOTATIONS, 'autoscaling.keda.sh/paused'],
      'true',
      'kubectl-annotate',
      /KEDA no longer autoscales Deployment example-deployment/,
    ],
    [
      'Crossplane paused',
      RELEASE,
      [...ANNOTATIONS, 'crossplane.io/paused'],
      'true',
      'kubectl-annotate',
      /Crossplane no longer reconciles Release example-oci-url-with-tag/,
    ],
    [
      // `kubectl -n flux-system scale deployment kustomize-controller --replicas=0` (Flux's install names it so).
      'kustomize-controller scaled to 0',
      KUSTOMIZE_CONTROLLER,
      ['spec', 'replicas'],
      0,
      'kubectl',
      /`kubectl scale … --replicas=0`.*kustomize-controller runs no pod: nothing it reconciles is applied/,
    ],
    [
      // Argo CD's install.yaml: a StatefulSet (manifests/base/application-controller).
      'argocd-application-controller scaled to 0',
      ARGO_CONTROLLER,
      ['spec', 'replicas'],
      0,
      'kubectl',
      /argocd-application-controller runs no pod/,
    ],
  ])('%s: reported with what it stops, never codified', (_name, object, path, value, manager, stops) => {
    const { resource, intents, reported } = judge(object, handSet(object, path, value, manager));
    expect(resource.status).toBe('in-sync');
    expect(resource.reported).toEqual([
      expect.objectContaining({ manager, reported: expect.objectContaining({ code: 'emergency-switch' }) }),
    ]);
    expect(resource.reported![0]!.reported!.reason).toMatch(stops);
    expect(resource.reported![0]!.reported!.reason).toMatch(/^emergency switch .*Never codified as desired state/);
    expect(intents).toEqual([]);
    expect(reported).toEqual([expect.stringMatching(stops)]);
  });

  it('a paused field of another kind is ordinary drift', () => {
    const other = {
      apiVersion: 'example.com/v1',
      kind: 'Pipeline',
      metadata: { name: 'p', namespace: 'shop' },
      spec: {},
    };
    const { resource } = judge(other, handSet(other, ['spec', 'paused'], true, 'kubectl-edit'));
    expect(resource.changes.map((c) => c.path)).toEqual(['/spec/paused']);
  });

  it('another workload scaled to 0 is ordinary drift (a person may mean it)', () => {
    const { resource, intents } = judge(deployment(), handSet(deployment(), ['spec', 'replicas'], 0, 'kubectl'));
    expect(resource.changes.map((c) => c.path)).toEqual(['/spec/replicas']);
    expect(intents).toHaveLength(1);
  });

  it('a GitOps controller scaled to 1 while Git says 2 is ordinary drift: only 0 stops it', () => {
    const { resource } = judge(KUSTOMIZE_CONTROLLER, handSet(KUSTOMIZE_CONTROLLER, ['spec', 'replicas'], 1, 'kubectl'));
    expect(resource.changes.map((c) => c.path)).toEqual(['/spec/replicas']);
  });

  it('a switch Git keeps on, turned off by hand, is reported, not codified either', () => {
    const suspended = structuredClone(CRONJOB);
    (suspended.spec as Record<string, unknown>).suspend = true;
    const { resource, intents } = judge(suspended, handSet(suspended, ['spec', 'suspend'], false, 'kubectl-patch'));
    expect(resource.reported![0]!.reported).toMatchObject({
      code: 'emergency-switch',
      reason: expect.stringMatching(/turned off by hand/),
    });
    expect(intents).toEqual([]);
  });
});

describe('one-off triggers', () => {
  it('External Secrets force-sync is an imperative action (its FAQ: kubectl annotate es my-es force-sync=$(date +%s))', () => {
    const { resource, intents } = judge(
      EXTERNAL,
      handSet(EXTERNAL, [...ANNOTATIONS, 'force-sync'], '1764590223', 'kubectl-annotate'),
    );
    expect(resource.reported![0]!.reported).toMatchObject({
      code: 'imperative',
      reason: expect.stringContaining('External Secrets `force-sync`'),
    });
    expect(intents).toEqual([]);
  });

  it('force-sync on another kind is an ordinary annotation', () => {
    const { resource } = judge(
      deployment(),
      handSet(deployment(), [...ANNOTATIONS, 'force-sync'], '1', 'kubectl-annotate'),
    );
    expect(resource.changes.map((c) => c.path)).toEqual(['/metadata/annotations/force-sync']);
  });

  describe('a GitOps controller no Git file declares (installed by hand, part of Argo CD)', () => {
    // Argo CD's install.yaml labels its workloads `app.kubernetes.io/part-of: argocd`; this repository
    // holds none of them, so the scale is listed under its operator, never proposed for Git.
    const installed = (replicas: number, manager: string): KubeObject => {
      const live = handSet(ARGO_CONTROLLER, ['spec', 'replicas'], replicas, manager);
      live.metadata.labels = { 'app.kubernetes.io/part-of': 'argocd' };
      return live;
    };
    const reasons = (live: KubeObject) => {
      const verdict = judgeExtra(live, ownershipContextOf([live], config));
      if (verdict.type !== 'owned') throw new Error('expected an owned object');
      return (verdict.owned.changes ?? []).map((change) => [change.path, change.reported?.reason]);
    };

    it.each<[string, number, RegExp]>([
      [
        'scaled to 0: says what the scale stops and how it ends, without /driftback allow',
        0,
        /^created by operator Argo CD, not declared in Git: emergency switch \(`kubectl scale … --replicas=0`\): argocd-application-controller runs no pod: Argo CD applies nothing in this cluster while it is at 0 replicas.*to end it, undo it in the cluster$/,
      ],
      ["scaled to 2: an ordinary change to an operator's object", 2, /takes its settings from$/],
    ])('%s', (_name, replicas, reason) => {
      const [[path, text], ...more] = reasons(installed(replicas, 'kubectl'));
      expect([path, more]).toEqual(['/spec/replicas', []]);
      expect(text).toMatch(reason);
      expect(text).not.toContain('/driftback allow');
    });
  });
});

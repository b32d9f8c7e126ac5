// The live/desired pairs in test/fixtures/upstream/k8s-diff with the outcomes their upstream test suites
// assert (fixtures README section 1), translated into our statuses, ops and ignore rules.
import { describe, expect, it } from 'vitest';
import { diffResources } from '../../../src/core/diff/index.js';
import type { FieldChange, KubeObject, ResourceDiff } from '../../../src/core/model/index.js';
import { clone, configWith, desiredOf, loadObject } from './support.js';

function diffPair(live: KubeObject, desired: KubeObject, drift: Record<string, unknown> = {}): ResourceDiff {
  const result = diffResources([desiredOf(desired, live.metadata.namespace)], [live], { config: configWith(drift) });
  const resource = result.resources.find((r) => r.status !== 'extra');
  expect(resource).toBeDefined();
  return resource!;
}

const paths = (changes: FieldChange[]): string[] => changes.map((c) => `${c.op} ${c.path}`).sort();

describe('gitops-engine pairs (S1–S12)', () => {
  const cases: Array<{
    name: string;
    live: string;
    config: string;
    status: 'modified' | 'in-sync';
    expect?: string[];
    absent?: RegExp;
  }> = [
    // S1: the substantive change is targetPort of port rtmp; defaults (internalTrafficPolicy, sessionAffinity, type) are noise.
    {
      name: 'S1 will apply default values',
      live: 'smd-service-live.yaml',
      config: 'smd-service-config.yaml',
      status: 'modified',
      expect: ['replace /spec/ports/1/targetPort'],
      absent: /internalTrafficPolicy|sessionAffinity|type|last-applied/,
    },
    // S2: the https port dropped from config is owned by argocd-controller: the next apply removes it.
    {
      name: 'S2 will remove entries in list',
      live: 'smd-service-live.yaml',
      config: 'smd-service-config-2-ports.yaml',
      status: 'modified',
      expect: ['remove /spec/ports/2'],
    },
    // S3: argocd-controller owns type: NodePort and the config dropped it.
    {
      name: 'S3 will remove previously added fields',
      live: 'smd-service-live-with-type.yaml',
      config: 'smd-service-config.yaml',
      status: 'modified',
      expect: ['remove /spec/type', 'replace /spec/ports/1/targetPort'],
      absent: /nodePort|externalTrafficPolicy/,
    },
    // S4: ports keyed by (port, protocol): 1935/UDP and 443/UDP are new entries, not changes to the TCP ones.
    {
      name: 'S4 service with multiple ports',
      live: 'smd-service-live.yaml',
      config: 'smd-service-config-ports.yaml',
      status: 'modified',
      expect: ['replace /spec/ports/2', 'replace /spec/ports/4'],
    },
    // S5: defaults (maxSurge 25%, dnsPolicy, zero resources) count as equal.
    {
      name: 'S5 deployment defaults',
      live: 'smd-deploy-live.yaml',
      config: 'smd-deploy-config.yaml',
      status: 'in-sync',
    },
    {
      name: 'S6 server-side config vs live',
      live: 'ssd-service-live.yaml',
      config: 'ssd-service-config.yaml',
      status: 'in-sync',
    },
    {
      name: 'S9 helm statefulset, three-way',
      live: 'elasticsearch-live.json',
      config: 'elasticsearch-config.json',
      status: 'in-sync',
    },
    {
      name: 'S11 real-world deployment',
      live: 'deployment-live.json',
      config: 'deployment-config.json',
      status: 'in-sync',
    },
    {
      name: 'S12 explicit namespace',
      live: 'spinnaker-sa-live.json',
      config: 'spinnaker-sa-config.json',
      status: 'in-sync',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const resource = diffPair(loadObject('gitops-engine', c.live), loadObject('gitops-engine', c.config));
      expect(resource.status).toBe(c.status);
      if (c.expect) expect(paths(resource.changes)).toEqual([...c.expect].sort());
      if (c.absent) for (const change of resource.changes) expect(change.path).not.toMatch(c.absent);
      if (c.status === 'in-sync') expect(resource.changes).toEqual([]);
    });
  }

  it('S1 names the port item by its merge keys for codify', () => {
    const resource = diffPair(
      loadObject('gitops-engine', 'smd-service-live.yaml'),
      loadObject('gitops-engine', 'smd-service-config.yaml'),
    );
    expect(resource.changes[0]).toMatchObject({
      desired: 1936,
      live: 1935,
      segments: ['spec', 'ports', { key: { port: 1935 } }, 'targetPort'],
      manager: 'argocd-controller',
    });
  });

  // S6–S8 compare against the server's dry-run answer; here predicted-live stands in for desired.
  describe('S6–S8 predicted-live as desired', () => {
    const live = (): KubeObject => loadObject('gitops-engine', 'ssd-service-live.yaml');
    const predicted = (): KubeObject => loadObject('gitops-engine', 'ssd-service-predicted-live.json');
    const webhookRule = { paths: ['/metadata/labels/event'], reason: 'set by a mutating webhook' };

    // The instance label argocd-controller applied, on an object with no tracking id, is label tracking's
    // stamp (Argo CD writes it at sync time, util/argo/resource_tracking.go): the controller's, never drift.
    it('S6 ignores the webhook label with a rule; the instance label argocd-controller stamped is no drift', () => {
      const resource = diffPair(live(), predicted(), { ignore: [webhookRule] });
      expect(resource.status).toBe('in-sync');
      expect(paths(resource.changes)).toEqual([]);
      expect(resource.ignored.map((c) => c.path)).toEqual(['/metadata/labels/event']);
      expect(JSON.stringify(resource.changes)).not.toContain('internalTrafficPolicy');
    });
    it('S7 includes the webhook label without the rule', () => {
      const resource = diffPair(live(), predicted());
      expect(paths(resource.changes)).toContain('replace /metadata/labels/event');
    });
    it('S8 an ignore rule on sessionAffinity leaves nothing about it, port and selector still compared', () => {
      const desired = predicted();
      (desired.spec as Record<string, unknown>).sessionAffinity = 'ClientIP';
      const resource = diffPair(live(), desired, {
        ignore: [{ paths: ['/spec/sessionAffinity'], reason: 'normalized away' }],
      });
      expect(resource.status).toBe('modified');
      expect(JSON.stringify(resource.changes)).not.toContain('sessionAffinity');
      expect(resource.ignored.map((c) => c.path)).toEqual(['/spec/sessionAffinity']);
    });
  });

  it('S10 label changes against a three-way (last-applied) object', () => {
    const config = loadObject('gitops-engine', 'elasticsearch-config.json');
    const labels = config.metadata.labels!;
    labels.foo = 'bar';
    labels.chart = 'elasticsearch-1.7.1';
    delete labels.release;
    const resource = diffPair(loadObject('gitops-engine', 'elasticsearch-live.json'), config);
    expect(resource.status).toBe('modified');
    expect(paths(resource.changes)).toEqual([
      'remove /metadata/labels/release',
      'replace /metadata/labels/chart',
      'replace /metadata/labels/foo',
    ]);
    const chart = resource.changes.find((c) => c.path === '/metadata/labels/chart')!;
    expect([chart.desired, chart.live]).toEqual(['elasticsearch-1.7.1', 'elasticsearch-1.7.0']);
  });
});

describe('argo-cd util/argo: managed replicas', () => {
  const live = (): KubeObject => loadObject('argo-cd-util-argo', 'live_deployment_with_managed_replica.yaml');
  const desired = (): KubeObject => loadObject('argo-cd-util-argo', 'desired_deployment.yaml');
  const counted = (r: ResourceDiff): string[] => r.changes.map((c) => c.path).sort();
  const ignoredPaths = (r: ResourceDiff): string[] => r.ignored.map((c) => c.path).sort();

  it('fields owned by trusted managers are not differences', () => {
    const r = diffPair(live(), desired(), {
      ignore: [{ managers: ['kube-controller-manager', 'revision-history-manager'], reason: 'trusted' }],
    });
    expect(counted(r)).toEqual([]);
    expect(ignoredPaths(r)).toEqual(['/spec/replicas', '/spec/revisionHistoryLimit']);
    expect(r.conflicts).toEqual([]);
    expect(r.status).toBe('in-sync');
  });
  it('a manager that owns nothing here removes nothing', () => {
    const r = diffPair(live(), desired(), { ignore: [{ managers: ['another-manager'], reason: 'trusted' }] });
    expect(counted(r)).toEqual(['/spec/replicas', '/spec/revisionHistoryLimit']);
    const byPath = Object.fromEntries(r.changes.map((c) => [c.path, [c.desired, c.live]]));
    expect(byPath).toEqual({ '/spec/replicas': [3, 2], '/spec/revisionHistoryLimit': [1, 3] });
  });
  it('ignore by manager revision-history-manager takes revisionHistoryLimit only', () => {
    const r = diffPair(live(), desired(), { ignore: [{ managers: ['revision-history-manager'], reason: 'x' }] });
    expect(ignoredPaths(r)).toEqual(['/spec/revisionHistoryLimit']);
    expect(counted(r)).toEqual(['/spec/replicas']);
  });
  it('manager plus a JSON pointer rule for Deployments take both', () => {
    const r = diffPair(live(), desired(), {
      ignore: [
        { managers: ['revision-history-manager'], reason: 'x' },
        { groups: ['apps'], kinds: ['Deployment'], paths: ['/spec/replicas'], reason: 'y' },
      ],
    });
    expect(ignoredPaths(r)).toEqual(['/spec/replicas', '/spec/revisionHistoryLimit']);
  });
  it('no ignore rules: both differences count, and replicas is a conflict with kube-controller-manager', () => {
    const r = diffPair(live(), desired());
    expect(r.status).toBe('modified');
    expect(counted(r)).toEqual(['/spec/replicas', '/spec/revisionHistoryLimit']);
    expect(r.conflicts.map((c) => [c.path, c.manager])).toEqual([['/spec/replicas', 'kube-controller-manager']]);
    expect(r.conflicts[0]!.fix).toContain('remove `spec.replicas` from Git');
  });
  for (const ignore of [
    [{ managers: ['kube-controller-manager'], reason: 'x' }],
    [{ paths: ['/spec/replicas'], reason: 'x' }],
  ]) {
    it(`still modified when replicas is ignored (${JSON.stringify(ignore[0])})`, () => {
      const r = diffPair(live(), desired(), { ignore });
      expect(r.status).toBe('modified');
      expect(counted(r)).toEqual(['/spec/revisionHistoryLimit']);
    });
  }
});

describe('argo-cd controller: janitor annotation', () => {
  const live = (): KubeObject => loadObject('argo-cd-controller', 'live-deployment.yaml');
  const target = (): KubeObject => loadObject('argo-cd-controller', 'target-deployment.yaml');

  it('ignoring manager janitor sets the annotation aside', () => {
    const r = diffPair(live(), target(), { ignore: [{ managers: ['janitor'], reason: 'janitor owns it' }] });
    expect(r.ignored.map((c) => [c.path, c.live, c.ignored?.reason])).toEqual([
      ['/metadata/annotations/iksm-version', '2.0', 'janitor owns it'],
    ]);
    expect(r.changes.map((c) => c.path)).not.toContain('/metadata/annotations/iksm-version');
  });
  it('no rule: the annotation counts with its manager', () => {
    const r = diffPair(live(), target());
    expect(r.changes.find((c) => c.path === '/metadata/annotations/iksm-version')).toMatchObject({
      desired: '1.0',
      live: '2.0',
      manager: 'janitor',
      operation: 'Apply',
    });
  });
  it('status on live is never a difference', () => {
    const withStatus = live();
    withStatus.status = { operationState: { phase: 'Running' } };
    const r = diffPair(withStatus, target());
    expect(JSON.stringify(r.changes)).not.toContain('status');
  });
  it('a pointer rule with the annotation removed from live leaves nothing about it', () => {
    const l = live();
    delete l.metadata.annotations!['iksm-version'];
    const r = diffPair(l, target(), {
      ignore: [{ groups: ['apps'], kinds: ['Deployment'], paths: ['/metadata/annotations/iksm-version'], reason: 'x' }],
    });
    expect(r.changes.map((c) => c.path)).not.toContain('/metadata/annotations/iksm-version');
    expect(r.ignored.map((c) => c.path)).toEqual(['/metadata/annotations/iksm-version']);
  });
  it('replicas by pointer and janitor by manager', () => {
    const r = diffPair(live(), target(), {
      ignore: [
        { paths: ['/spec/replicas'], reason: 'x' },
        { managers: ['janitor'], reason: 'y' },
      ],
    });
    expect(r.ignored.map((c) => [c.path, c.live]).sort()).toEqual([
      ['/metadata/annotations/iksm-version', '2.0'],
      ['/spec/replicas', 4],
    ]);
  });
  it('a new container in the target is kept as a difference, matched by name', () => {
    const r = diffPair(live(), loadObject('argo-cd-controller', 'target-deployment-new-entries.yaml'));
    const added = r.changes.find((c) => c.path === '/spec/template/spec/containers/1');
    expect(added).toMatchObject({
      op: 'replace',
      segments: ['spec', 'template', 'spec', 'containers', { key: { name: 'new-container' } }],
    });
    expect(added?.live).toBeUndefined();
  });
});

describe('kubectl client-side apply', () => {
  it('the CSA-managed live RC is in sync with rc.yaml (defaults owned by the Update are not removals)', () => {
    const r = diffPair(
      loadObject('kubectl-apply', 'rc-managedfields-lastapplied.yaml'),
      loadObject('kubectl-apply', 'rc.yaml'),
    );
    expect(r.changes).toEqual([]);
    expect(r.status).toBe('in-sync');
  });
  it('a field dropped from rc.yaml that kubectl last applied is a planned removal by the applier', () => {
    const desired = clone(loadObject('kubectl-apply', 'rc.yaml'));
    delete desired.metadata.labels;
    const r = diffPair(loadObject('kubectl-apply', 'rc-managedfields-lastapplied.yaml'), desired);
    expect(r.changes.map((c) => [c.op, c.path, c.manager, c.cause])).toEqual([
      ['remove', '/metadata/labels/name', 'kubectl-client-side-apply', 'applier'],
    ]);
  });
});

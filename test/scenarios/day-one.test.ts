// A real day-one cluster, end to end through the pipeline: every object a fresh kind cluster
// (Kubernetes 1.32, kind v0.26.0) holds — APIServices `v1.`, `v1.apps`, …, bootstrap RBAC with `:` names,
// kubeadm's CoreDNS and kube-proxy, kind's kindnet and local-path-provisioner, leases, the node, the
// agent's own objects — plus the user's app applied with `kubectl apply -k`. Every name is one the API
// server accepts, the snapshot parses whole, and day one proposes zero drift. Fixture:
// test/fixtures/controllers/kind-day-one (its README row says how it is built).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config/index.js';
import { screenObjects } from '../../src/core/k8s/object-names.js';
import { displayKey, keyOf, parseSnapshot } from '../../src/core/model/index.js';
import { planCluster, reconcileDrift } from '../../src/core/pipeline/index.js';
import { renderCluster } from '../../src/core/render/index.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

const files = scenarioRepository('kind-day-one');
const parsed = parseConfig(files.get('.github/driftback.yml')!);
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const config = parsed.config;
const cluster = config.clusters![0]!;

describe.each(['day-one', 'everything'])('kind 1.32 on day one (%s)', (name) => {
  const snapshot = scenarioSnapshot('kind-day-one', name);
  const names = (kind: string) => snapshot.items.filter((o) => o.kind === kind).map((o) => o.metadata?.name);

  it('holds what a fresh kind cluster holds, names the upload once refused among them', () => {
    expect(names('APIService')).toEqual(
      expect.arrayContaining(['v1.', 'v1.apps', 'v2.autoscaling', 'v1.storage.k8s.io']),
    );
    expect(names('ClusterRole')).toEqual(
      expect.arrayContaining([
        'system:controller:deployment-controller',
        'kubeadm:get-nodes',
        'kindnet',
        'local-path-provisioner-role',
      ]),
    );
    expect(names('Role')).toContain('system::leader-locking-kube-controller-manager');
    expect(names('DaemonSet')).toEqual(['kindnet', 'kube-proxy']);
    expect(names('Deployment')).toEqual(expect.arrayContaining(['coredns', 'local-path-provisioner', 'web']));
    expect(names('CronJob')).toEqual(['driftback-agent']);
    if (name === 'everything')
      expect(names('Lease')).toEqual(expect.arrayContaining(['kind-control-plane', 'kube-scheduler']));
  });

  it('parses whole: every name is one the API server accepts and a file name', () => {
    const result = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(result.ok).toBe(true);
    expect(screenObjects(snapshot.items).skipped).toEqual([]);
  });

  it.each([
    ['as configured (the namespaces the repository renders into)', false],
    ['over every namespace of the cluster', true],
  ])('proposes zero drift %s: no pull request, nothing extra, every object Git lacks under its owner', (_, whole) => {
    const namespaces = names('Namespace') as string[];
    const target = whole ? { ...cluster, namespaces } : cluster;
    const evaluation = reconcileDrift({
      snapshot,
      config,
      cluster: target,
      files,
      history: [],
      minSnapshots: 1,
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
    const drift = evaluation.diff.resources.filter((r) => r.status !== 'in-sync' || r.changes.length > 0);
    expect(drift.map((r) => `${displayKey(r.key)} ${r.status}`)).toEqual([]);
    expect(evaluation.groups).toEqual([]);
    expect(evaluation.skipped).toEqual([]);
    expect(evaluation.diff.resources.map((r) => displayKey(r.key)).sort()).toEqual([
      'Deployment/demo/web',
      'Namespace/demo',
      'Service/demo/web',
    ]);
    if (!whole) return;
    // Everything else is listed under its owner: the cluster (kube-apiserver, kubeadm, kind, …) or the agent.
    const owned = evaluation.diff.owned ?? [];
    expect([...new Set(owned.map((o) => o.owner.class))].sort()).toEqual(['agent', 'cluster']);
    const byCluster = owned.filter((o) => o.owner.class === 'cluster').map((o) => displayKey(o.key));
    expect(byCluster).toEqual(
      expect.arrayContaining([
        'DaemonSet/kube-system/kindnet',
        'DaemonSet/kube-system/kube-proxy',
        'Deployment/kube-system/coredns',
        'Deployment/local-path-storage/local-path-provisioner',
        'Role/kube-system/system::leader-locking-kube-controller-manager',
      ]),
    );
    expect(owned.filter((o) => o.owner.class === 'agent').map((o) => displayKey(o.key))).toContain(
      'CronJob/driftback/driftback-agent',
    );
  });

  it('plans nothing to create, update or prune for the repository as it is', () => {
    const head = renderCluster(files, cluster, { live: snapshot });
    expect(head.errors).toEqual([]);
    const plan = planCluster({
      config,
      cluster,
      head: head.objects,
      headFiles: files,
      snapshot,
      now: snapshot.capturedAt,
      sources: head,
    });
    expect([...plan.create, ...plan.update, ...plan.prune].map((entry) => displayKey(entry.id))).toEqual([]);
    expect(plan.unchanged).toBe(3);
    expect(snapshot.items.some((o) => displayKey(keyOf(o)) === 'APIService/v1.')).toBe(true);
  });
});

// Risk codes on more object shapes, each written by the fixture cluster model (test/fixtures/controllers/
// _build: server-side apply by Flux, Updates by kubectl and other clients, managedFields encoded as the
// API server encodes them): init and ephemeral containers, a custom resource's pod template, a
// ClusterRole changed, a binding to a role that only the snapshot or only Git holds, a controller's
// change, an applier's own write.
import { describe, expect, it } from 'vitest';
import { Cluster, keyOf as builderKey } from '../../fixtures/controllers/_build/cluster.js';
import type { JsonObject } from '../../fixtures/controllers/_build/json.js';
import { classifyRisk } from '../../../src/core/risk/index.js';
import { diffResources } from '../../../src/core/diff/index.js';
import { displayKey, type DiffResult, type KubeObject } from '../../../src/core/model/index.js';
import { configWith, desiredOf } from '../diff/support.js';

const T = '2026-12-01T10:00:00Z';
const LATER = '2026-12-01T11:00:00Z';

/** Git's objects applied by kustomize-controller, then `change` run on the cluster; both sides diffed and judged. */
function judge(
  git: JsonObject[],
  change: (cluster: Cluster) => void,
  drift: Record<string, unknown> = {},
): { result: DiffResult; risks: string[] } {
  const cluster = new Cluster('test');
  for (const object of git) cluster.apply('kustomize-controller', object, T);
  change(cluster);
  const live = cluster.keys().map((key) => cluster.read(key) as unknown as KubeObject);
  const desired = git.map((object) => {
    const namespace = ((object.metadata as JsonObject).namespace as string | undefined) ?? '';
    return desiredOf(object as unknown as KubeObject, namespace);
  });
  const config = configWith(drift);
  const diff = diffResources(desired, live, { config });
  const result = classifyRisk(diff, { config, desired, live });
  const risks: string[] = [];
  for (const resource of result.resources) {
    for (const risk of resource.risk ?? []) risks.push(`${displayKey(resource.key)}: ${risk.code}: ${risk.why}`);
    for (const c of resource.changes)
      for (const risk of c.risk ?? []) risks.push(`${displayKey(resource.key)} ${c.path}: ${risk.code}: ${risk.why}`);
  }
  return { result, risks };
}

const deployment = (spec: JsonObject): JsonObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'shop' },
  spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec } },
});
const apiKey = builderKey('apps/v1', 'Deployment', 'shop', 'api');
const pod = (o: JsonObject): JsonObject => ((o.spec as JsonObject).template as JsonObject).spec as JsonObject;

describe('containers of every list, in any pod template', () => {
  it('an init container switched to another registry', () => {
    const git = [
      deployment({
        initContainers: [{ name: 'migrate', image: 'ghcr.io/acme/api:1' }],
        containers: [{ name: 'api', image: 'ghcr.io/acme/api:1' }],
      }),
    ];
    const { risks } = judge(git, (cluster) =>
      cluster.update(
        'kubectl-set',
        apiKey,
        (o) => {
          (pod(o).initContainers as JsonObject[])[0]!.image = 'quay.io/someone/api:1';
        },
        LATER,
      ),
    );
    expect(risks).toEqual([
      "Deployment/shop/api /spec/template/spec/initContainers/0/image: image-registry: initContainers[migrate].image comes from quay.io, a registry the repository's manifests never use (it uses ghcr.io): the cluster runs code from a source nobody reviewed here",
    ]);
  });

  it('an ephemeral container added by kubectl debug to a Pod made by hand is judged for privileges', () => {
    const podObject: JsonObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'shell', namespace: 'shop' },
      spec: { containers: [{ name: 'shell', image: 'busybox:1.37' }] },
    };
    const { risks } = judge([podObject], (cluster) =>
      cluster.update(
        'kubectl-debug',
        builderKey('v1', 'Pod', 'shop', 'shell'),
        (o) => {
          (o.spec as JsonObject).ephemeralContainers = [
            { name: 'debugger', image: 'busybox:1.37', securityContext: { privileged: true } },
          ];
        },
        LATER,
      ),
    );
    expect(risks).toEqual([
      'Pod/shop/shell /spec/ephemeralContainers/0: privilege: ephemeralContainers[debugger].securityContext.privileged: true gives the container every device and capability of the node: root in it is root on the node',
    ]);
  });

  it("a custom resource's pod template (an Argo Rollout), whatever its list keys", () => {
    const rollout: JsonObject = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'api', namespace: 'shop' },
      spec: { template: { spec: { containers: [{ name: 'api', image: 'ghcr.io/acme/api:1' }] } } },
    };
    const { risks } = judge([rollout], (cluster) =>
      cluster.update(
        'rollout-hotfix',
        builderKey('argoproj.io/v1alpha1', 'Rollout', 'shop', 'api'),
        (o) => {
          pod(o).hostPID = true;
          (pod(o).containers as JsonObject[])[0]!.image = 'registry.example.net:5000/api:1';
        },
        LATER,
      ),
    );
    expect(risks).toEqual(
      expect.arrayContaining([
        "Rollout/shop/api /spec/template/spec/hostPID: privilege: hostPID: true puts the Pod in the node's process namespace: it sees every process on the node and can signal them",
        "Rollout/shop/api /spec/template/spec/hostPID: unknown-manager: changed by rollout-hotfix, a field manager that is neither a person's tool, a known controller, nor configured: a client nobody here knows (a script, an undeclared operator, someone else's credentials); once known, name it in drift.humanManagers or drift.appliers",
      ]),
    );
    expect(
      risks.some((line) => line.includes('image-registry: containers[api].image comes from registry.example.net:5000')),
    ).toBe(true);
  });
});

describe('RBAC', () => {
  const role = (rules: JsonObject[]): JsonObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'reader' },
    rules,
  });

  it('a ClusterRole given cluster-wide Secret reads by hand', () => {
    const { risks } = judge([role([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }])], (cluster) =>
      cluster.update(
        'kubectl-edit',
        builderKey('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'reader'),
        (o) => {
          (o.rules as JsonObject[]).push({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] });
        },
        LATER,
      ),
    );
    expect(risks).toEqual([
      'ClusterRole/reader /rules: rbac-escalation: ClusterRole reader allows get, list on every Secret in every namespace to every subject bound to it',
    ]);
  });

  it('a binding made by hand to a role only the snapshot holds (looked up there)', () => {
    const { risks } = judge([], (cluster) => {
      cluster.create(
        'kube-apiserver',
        role([{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]),
        T,
      );
      cluster.create(
        'kubectl-create',
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'anyone-impersonates' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
          subjects: [{ kind: 'Group', name: 'system:unauthenticated' }],
        },
        LATER,
      );
    });
    expect(risks).toContain(
      'ClusterRoleBinding/anyone-impersonates: rbac-escalation: grants ClusterRole reader (impersonate on serviceaccounts) in every namespace to Group system:unauthenticated (anonymous requests)',
    );
  });

  it('a subject added by hand to a binding of a role Git declares', () => {
    const git: JsonObject[] = [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'ops', namespace: 'shop' },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'ops', namespace: 'shop' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'ops' },
        subjects: [{ kind: 'Group', name: 'sre', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ];
    const { risks } = judge(git, (cluster) =>
      cluster.update(
        'kubectl-edit',
        builderKey('rbac.authorization.k8s.io/v1', 'RoleBinding', 'shop', 'ops'),
        (o) => {
          (o.subjects as JsonObject[]).push({ kind: 'ServiceAccount', name: 'default', namespace: 'shop' });
        },
        LATER,
      ),
    );
    // The Group Git grants is no drift; the ServiceAccount added by hand is.
    expect(risks).toEqual([
      'RoleBinding/shop/ops /subjects: rbac-escalation: grants Role ops (every verb on every resource) in namespace shop to ServiceAccount shop/default',
    ]);
  });
});

describe('who made it', () => {
  it("a known controller's change is judged by what it does, an applier's write is not judged", () => {
    const git = [deployment({ containers: [{ name: 'api', image: 'ghcr.io/acme/api:1' }] })];
    const byController = judge(git, (cluster) =>
      cluster.update(
        'vpa-updater',
        apiKey,
        (o) => {
          (pod(o).containers as JsonObject[])[0]!.image = 'evil.example/api:1';
        },
        LATER,
      ),
    );
    expect(byController.risks).toEqual([
      "Deployment/shop/api /spec/template/spec/containers/0/image: image-registry: containers[api].image comes from evil.example, a registry the repository's manifests never use (it uses ghcr.io): the cluster runs code from a source nobody reviewed here",
    ]);
    // The applier applies a privileged container (Git changed after the snapshot's render): Git's, not drift of this kind.
    const byApplier = judge(git, (cluster) =>
      cluster.apply(
        'kustomize-controller',
        deployment({
          containers: [{ name: 'api', image: 'ghcr.io/acme/api:1', securityContext: { privileged: true } }],
        }),
        LATER,
      ),
    );
    expect(byApplier.risks).toEqual([]);
  });

  it('a manager listed in drift.humanManagers is no unknown manager', () => {
    const git = [
      deployment({ containers: [{ name: 'api', image: 'ghcr.io/acme/api:1', env: [{ name: 'A', value: '1' }] }] }),
    ];
    const change = (cluster: Cluster): void =>
      cluster.update(
        'ops-console',
        apiKey,
        (o) => {
          ((pod(o).containers as JsonObject[])[0]!.env as JsonObject[])[0]!.value = '2';
        },
        LATER,
      );
    expect(judge(git, change).risks).toEqual([
      "Deployment/shop/api /spec/template/spec/containers/0/env/0/value: unknown-manager: changed by ops-console, a field manager that is neither a person's tool, a known controller, nor configured: a client nobody here knows (a script, an undeclared operator, someone else's credentials); once known, name it in drift.humanManagers or drift.appliers",
    ]);
    expect(judge(git, change, { humanManagers: ['ops-console'] }).risks).toEqual([]);
  });
});

// The merge-fact table of built-in kinds: generated from the Kubernetes OpenAPI v3 documents of every
// API group, committed, and kept in step with the script. Rows check facts a reviewer can confirm in
// the documents (test/fixtures/upstream/kubernetes-openapi-v3) and in how kubectl and kustomize merge.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KINDS,
  OBJECT_META,
  SCHEMAS,
  type FieldMerge,
  type SchemaMerge,
} from '../../../src/core/k8s/list-keys.generated.js';
import { FIXTURES, REPO_ROOT } from '../../support/fixtures.js';

const OPENAPI = join(FIXTURES, 'kubernetes-openapi-v3');

/** The facts at a pointer: the table's own row, else the row of the shared schema mounted above it. */
function factsIn(table: SchemaMerge, pointer: string): FieldMerge | undefined {
  const own = table.fields?.[pointer];
  if (own) return own;
  for (const [at, name] of Object.entries(table.mounts ?? {})) {
    const shared = SCHEMAS[name];
    if (!shared) throw new Error(`mount of unknown schema ${name}`);
    if (pointer.startsWith(at + '/')) return factsIn(shared, pointer.slice(at.length));
  }
  return undefined;
}

/** Facts of `group/Kind` at `pointer` in `version`, without the version qualifier. */
function factsOf(kind: string, version: string, pointer: string): Omit<FieldMerge, 'versions'> | undefined {
  const table = KINDS[kind];
  if (!table) throw new Error(`${kind} is not a built-in kind`);
  const facts = factsIn(table, pointer);
  if (!facts || (facts.versions && !facts.versions.includes(version))) return undefined;
  const { versions: _versions, ...rest } = facts;
  return rest;
}

type Row = [kind: string, version: string, pointer: string, facts: Omit<FieldMerge, 'versions'> | undefined];

describe('merge facts of built-in kinds', () => {
  const byName = { ssa: ['name'], smp: 'merge', smpKey: 'name' };
  const atomic = { ssa: 'atomic' } as const;
  const containerPorts = { ssa: ['containerPort', 'protocol'], smp: 'merge', smpKey: 'containerPort' };
  const rows: Row[] = [
    // admissionregistration: webhooks are matched by name, by SSA and by kustomize's strategic merge.
    ['admissionregistration.k8s.io/ValidatingWebhookConfiguration', 'v1', '/webhooks', byName],
    ['admissionregistration.k8s.io/MutatingWebhookConfiguration', 'v1', '/webhooks', byName],
    ['admissionregistration.k8s.io/MutatingWebhookConfiguration', 'v1', '/webhooks/*/matchConditions', byName],
    ['admissionregistration.k8s.io/ValidatingWebhookConfiguration', 'v1', '/webhooks/*/rules', undefined],
    ['admissionregistration.k8s.io/ValidatingWebhookConfiguration', 'v1', '/webhooks/*/namespaceSelector', atomic],
    ['admissionregistration.k8s.io/ValidatingAdmissionPolicy', 'v1', '/spec/validations', undefined],
    ['admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding', 'v1', '/spec/validationActions', { ssa: 'set' }],
    // core: the two keys differ between SSA and strategic merge patch.
    ['/Service', 'v1', '/spec/ports', { ssa: ['port', 'protocol'], smp: 'merge', smpKey: 'port' }],
    ['/Service', 'v1', '/spec/selector', atomic],
    ['/Pod', 'v1', '/spec/containers', byName],
    ['/Pod', 'v1', '/spec/containers/*/ports', containerPorts],
    ['/Pod', 'v1', '/spec/containers/*/env', byName],
    ['/Pod', 'v1', '/spec/initContainers/*/volumeMounts', { ssa: ['mountPath'], smp: 'merge', smpKey: 'mountPath' }],
    ['/Pod', 'v1', '/spec/ephemeralContainers/*/env', byName],
    ['/Pod', 'v1', '/spec/volumes', { ssa: ['name'], smp: 'merge,retainKeys', smpKey: 'name' }],
    ['/Pod', 'v1', '/spec/tolerations', undefined],
    ['/Pod', 'v1', '/spec/containers/*/args', undefined],
    ['/Pod', 'v1', '/spec/containers/*/resources/claims', { ssa: ['name'] }],
    [
      '/Pod',
      'v1',
      '/spec/topologySpreadConstraints',
      {
        ssa: ['topologyKey', 'whenUnsatisfiable'],
        smp: 'merge',
        smpKey: 'topologyKey',
      },
    ],
    [
      '/Pod',
      'v1',
      '/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/*/labelSelector',
      atomic,
    ],
    ['/Pod', 'v1', '/spec/containers/*/env/*/valueFrom/secretKeyRef', atomic],
    ['/Node', 'v1', '/spec/podCIDRs', { ssa: 'set', smp: 'merge' }],
    ['/Node', 'v1', '/spec/taints', undefined],
    ['/ServiceAccount', 'v1', '/secrets', byName],
    // apps and batch carry the pod spec through their templates.
    ['apps/Deployment', 'v1', '/spec/template/spec/containers/*/ports', containerPorts],
    ['apps/Deployment', 'v1', '/spec/strategy', { smp: 'retainKeys' }],
    ['apps/Deployment', 'v1', '/spec/selector', atomic],
    ['apps/StatefulSet', 'v1', '/spec/volumeClaimTemplates', undefined],
    ['apps/StatefulSet', 'v1', '/spec/volumeClaimTemplates/*/spec/selector', atomic],
    ['apps/StatefulSet', 'v1', '/spec/volumeClaimTemplates/*/status/conditions', undefined],
    ['apps/DaemonSet', 'v1', '/spec/template/spec/initContainers/*/env', byName],
    [
      'batch/CronJob',
      'v1',
      '/spec/jobTemplate/spec/template/spec/containers/*/volumeMounts',
      {
        ssa: ['mountPath'],
        smp: 'merge',
        smpKey: 'mountPath',
      },
    ],
    ['batch/Job', 'v1', '/spec/podFailurePolicy/rules', undefined],
    ['batch/Job', 'v1', '/spec/podFailurePolicy/rules/*/onExitCodes/values', { ssa: 'set' }],
    // networking, policy, autoscaling.
    ['networking.k8s.io/Ingress', 'v1', '/spec/rules', undefined],
    ['networking.k8s.io/Ingress', 'v1', '/spec/tls', undefined],
    ['networking.k8s.io/NetworkPolicy', 'v1', '/spec/ingress/*/from/*/podSelector', atomic],
    ['policy/PodDisruptionBudget', 'v1', '/spec/selector', { ssa: 'atomic', smp: 'replace' }],
    ['autoscaling/HorizontalPodAutoscaler', 'v1', '/spec/scaleTargetRef', atomic],
    ['autoscaling/HorizontalPodAutoscaler', 'v2', '/spec/scaleTargetRef', undefined],
    ['autoscaling/HorizontalPodAutoscaler', 'v2', '/spec/metrics', undefined],
    // API priority and fairness, RBAC.
    ['flowcontrol.apiserver.k8s.io/FlowSchema', 'v1', '/spec/rules', undefined],
    ['flowcontrol.apiserver.k8s.io/FlowSchema', 'v1', '/spec/rules/*/resourceRules/*/verbs', { ssa: 'set' }],
    ['flowcontrol.apiserver.k8s.io/FlowSchema', 'v1', '/spec/rules/*/subjects', undefined],
    ['flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration', 'v1', '/spec/limited', undefined],
    ['rbac.authorization.k8s.io/ClusterRole', 'v1', '/rules', undefined],
    ['rbac.authorization.k8s.io/ClusterRole', 'v1', '/aggregationRule/clusterRoleSelectors/*', atomic],
    ['rbac.authorization.k8s.io/RoleBinding', 'v1', '/subjects', undefined],
    ['rbac.authorization.k8s.io/RoleBinding', 'v1', '/subjects/*', atomic],
    ['rbac.authorization.k8s.io/ClusterRoleBinding', 'v1', '/roleRef', atomic],
    // storage, discovery, CRDs (whose schemas nest without end).
    ['storage.k8s.io/CSINode', 'v1', '/spec/drivers', byName],
    ['storage.k8s.io/CSIDriver', 'v1', '/spec/volumeLifecycleModes', { ssa: 'set' }],
    ['discovery.k8s.io/EndpointSlice', 'v1', '/endpoints/*/addresses', { ssa: 'set' }],
    ['apiextensions.k8s.io/CustomResourceDefinition', 'v1', '/spec/versions', undefined],
    [
      'apiextensions.k8s.io/CustomResourceDefinition',
      'v1',
      '/spec/versions/*/schema/openAPIV3Schema/properties/*/properties/*/x-kubernetes-validations',
      { ssa: ['rule'], smp: 'merge', smpKey: 'rule' },
    ],
  ];
  for (const [kind, version, pointer, facts] of rows) {
    const shown = facts ? JSON.stringify(facts) : 'atomic, replaced whole';
    it(`${kind} ${version} ${pointer} → ${shown}`, () => expect(factsOf(kind, version, pointer)).toEqual(facts));
  }

  it('ObjectMeta: finalizers are a set, ownerReferences are keyed by uid', () => {
    expect(factsIn(OBJECT_META, '/finalizers')).toEqual({ ssa: 'set', smp: 'merge' });
    expect(factsIn(OBJECT_META, '/ownerReferences')).toEqual({ ssa: ['uid'], smp: 'merge', smpKey: 'uid' });
  });

  it('lists every kind of every API group, and no custom resource', () => {
    const groups = new Set(Object.keys(KINDS).map((kind) => kind.slice(0, kind.lastIndexOf('/'))));
    const documented = readdirSync(OPENAPI)
      .filter((name) => name.endsWith('_openapi.json'))
      .map((name) => (name.startsWith('api__') ? '' : name.split('__')[1]!));
    expect([...groups].sort()).toEqual([...new Set(documented)].sort());
    expect(KINDS['apps/Deployment']?.versions).toEqual(['v1']);
    expect(KINDS['resource.k8s.io/ResourceClaim']?.versions).toEqual(['v1', 'v1beta2', 'v1beta1']);
    expect(KINDS['example.com/Widget']).toBeUndefined();
    expect(KINDS['/PodList']).toBeUndefined();
  });

  it('every mount names a shared schema', () => {
    const tables = [OBJECT_META, ...Object.values(SCHEMAS), ...Object.values(KINDS)];
    const missing = tables.flatMap((table) => Object.values(table.mounts ?? {}).filter((name) => !(name in SCHEMAS)));
    expect(missing).toEqual([]);
  });

  it('the committed table is what the script generates from the OpenAPI documents', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'list-keys-')), 'list-keys.generated.ts');
    const script = join(REPO_ROOT, 'scripts/gen-list-keys.ts');
    execFileSync(process.execPath, ['--import', 'tsx', script, '--openapi', OPENAPI, '--out', out], { cwd: REPO_ROOT });
    const committed = readFileSync(join(REPO_ROOT, 'src/core/k8s/list-keys.generated.ts'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  }, 60_000);
});

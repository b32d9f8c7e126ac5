// argocd-cm `resource.compareoptions` as Argo CD reads it (util/settings/settings.go GetResourceCompareOptions,
// GetResourceOverrides: `ignoreResourceStatusField` unset or `crd` ignores the status of
// CustomResourceDefinitions, `all` every status, `off`/`false` none; `ignoreAggregatedRoles` false by default;
// `ignoreDifferencesOnResourceUpdates` only decides which updates refresh an Application). The aggregated
// ClusterRole is the shape of the Kubernetes RBAC docs' `monitoring` example; the CRD's `status` stanza is
// what controller-gen writes into every generated CRD.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { configSchema } from '../../../src/core/config/index.js';
import type { KubeObject, PlanWarning } from '../../../src/core/model/index.js';
import { planCluster } from '../../../src/core/pipeline/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { readArgoInstances } from '../../../src/core/sources/index.js';
import { argoApplication } from '../../support/argo-application.js';

const application = argoApplication('monitoring');

const clusterRole = (rules: unknown[]): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'monitoring' },
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] },
  rules,
});

const crd = (status: Record<string, unknown>): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'probes.monitoring.example.com' },
  spec: {
    group: 'monitoring.example.com',
    names: { kind: 'Probe', listKind: 'ProbeList', plural: 'probes', singular: 'probe' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
  status,
});

const GIT_STATUS = { acceptedNames: { kind: '', plural: '' }, conditions: [], storedVersions: [] };
const LIVE_STATUS = {
  acceptedNames: { kind: 'Probe', listKind: 'ProbeList', plural: 'probes', singular: 'probe' },
  conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted' }],
  storedVersions: ['v1'],
};

function argocdCm(data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', namespace: 'argocd' }, data };
}

function warningsWith(cm: KubeObject): PlanWarning[] {
  const files = new Map([
    ['apps/monitoring.yaml', stringify(application)],
    ['monitoring/clusterrole.yaml', stringify(clusterRole([]))],
    ['monitoring/crd.yaml', stringify(crd(GIT_STATUS))],
  ]);
  const aggregated = [
    { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
  ];
  const items = [cm, application, clusterRole(aggregated), crd(LIVE_STATUS)];
  const snapshot = { repository: 'acme/gitops', cluster: 'prod', capturedAt: '2026-12-07T05:00:00Z', items };
  const cluster = { name: 'prod', path: 'apps', controller: 'argocd' as const, defaultNamespace: 'default' };
  const head = renderCluster(files, cluster, { live: snapshot });
  const config = configSchema.parse({});
  const plan = planCluster({
    config,
    head: head.objects,
    headFiles: files,
    snapshot,
    now: snapshot.capturedAt,
    sources: head,
  });
  return plan.warnings.filter((warning) => warning.code === 'argocd-compare-option');
}

describe('argocd-cm resource.compareoptions', () => {
  it('reads the options, with Argo CD’s defaults and its reading of unknown values', () => {
    const [unset] = readArgoInstances([argocdCm({})]);
    expect(unset?.compareOptions).toEqual({
      ignoreAggregatedRoles: false,
      ignoreResourceStatusField: 'crd',
      ignoreDifferencesOnResourceUpdates: false,
    });
    expect(unset?.ignoreDifferences).toContainEqual(
      expect.objectContaining({
        kind: 'CustomResourceDefinition',
        jsonPointers: ['/status', '/spec/preserveUnknownFields'],
      }),
    );
    const text =
      'ignoreAggregatedRoles: true\nignoreResourceStatusField: all\nignoreDifferencesOnResourceUpdates: true\n';
    const [all] = readArgoInstances([argocdCm({ 'resource.compareoptions': text })]);
    expect(all?.compareOptions).toEqual({
      ignoreAggregatedRoles: true,
      ignoreResourceStatusField: 'all',
      ignoreDifferencesOnResourceUpdates: true,
    });
    expect(all?.ignoreDifferences).toContainEqual(
      expect.objectContaining({ group: '*', kind: '*', jsonPointers: ['/status'] }),
    );
    const [off] = readArgoInstances([argocdCm({ 'resource.compareoptions': 'ignoreResourceStatusField: "false"\n' })]);
    expect(off?.compareOptions?.ignoreResourceStatusField).toBe('off');
    expect(off?.ignoreDifferences ?? []).toEqual([]);
    const [none] = readArgoInstances([argocdCm({ 'resource.compareoptions': 'ignoreResourceStatusField: none\n' })]);
    expect(none?.compareOptions?.ignoreResourceStatusField).toBe('crd');
    expect(none?.problems?.[0]).toContain('ignoreResourceStatusField: none is not crd, all or off');
  });

  it('by default the plan says Argo CD compares the aggregated rules Git declares, not the CRD’s status', () => {
    const warnings = warningsWith(argocdCm({}));
    expect(warnings.map((w) => `${w.id?.kind} ${w.path}`)).toEqual(['ClusterRole /rules']);
    expect(warnings[0]?.message).toContain('ignoreAggregatedRoles is false');
    expect(warnings[0]?.message).toContain('Application argocd/monitoring shows OutOfSync');
  });

  it('ignoreResourceStatusField: off makes the CRD’s declared status a lasting OutOfSync; ignoreAggregatedRoles silences the role', () => {
    const cm = argocdCm({ 'resource.compareoptions': 'ignoreAggregatedRoles: true\nignoreResourceStatusField: off\n' });
    const warnings = warningsWith(cm);
    expect(warnings.map((w) => `${w.id?.kind} ${w.path}`)).toEqual(['CustomResourceDefinition /status']);
    expect(warnings[0]?.message).toContain(
      'argocd-cm in argocd: resource.compareoptions ignoreResourceStatusField: off',
    );
    const all = argocdCm({
      'resource.compareoptions': 'ignoreAggregatedRoles: true\nignoreResourceStatusField: all\n',
    });
    expect(warningsWith(all)).toEqual([]);
  });
});

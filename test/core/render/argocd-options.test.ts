// Argo CD Application options as Argo CD applies them: ignoreDifferences (JSON pointers, jq path
// expressions, managers; group and kind globs, name and namespace exact) from the Application and
// from its instance's argocd-cm `resource.customizations`; several instances in one cluster, each
// reading its own Applications with its own settings; IgnoreExtraneous; Prune=false and automated
// sync without prune in the plan. Upstream: util/argo/normalizers/diff_normalizer.go,
// util/settings/settings.go (appendResourceOverridesFromSplitKeys), docs/user-guide/compare-options.md,
// docs/user-guide/sync-options.md, docs/operator-manual/app-any-namespace.md.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { configWithSourceRules, renderCluster } from '../../../src/core/render/index.js';
import { diffResources } from '../../../src/core/diff/index.js';
import { planPrune } from '../../../src/core/plan/plan-prune.js';
import { keyId, keyOf, type KubeObject } from '../../../src/core/model/index.js';
import { pruneInventories } from '../../../src/core/render/index.js';
import {
  argoInstanceFor,
  liveStampKeys,
  readArgoInstances,
  readArgoSettings,
  stampedSource,
  sourceRefText,
} from '../../../src/core/sources/index.js';
import { configWith, deployment, managed } from '../diff/support.js';
import { argoApplication } from '../../support/argo-application.js';

function configMap(name: string, namespace: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

/** The team's own Argo CD in `argocd-team`, reading Applications of `team-*` namespaces. */
const teamInstance = [
  configMap('argocd-cm', 'argocd-team', {
    'application.resourceTrackingMethod': 'label',
    'application.instanceLabelKey': 'team.example.com/app',
    'resource.customizations.ignoreDifferences.apps_Deployment':
      'jqPathExpressions:\n- .spec.template.spec.containers[] | select(.name == "linkerd-proxy")\n',
    'resource.customizations.ignoreDifferences.all': 'managedFieldsManagers:\n- vpa-recommender\n',
  }),
  configMap('argocd-cmd-params-cm', 'argocd-team', { 'application.namespaces': 'team-*' }),
];
const platformInstance = [configMap('argocd-cm', 'argocd', { 'application.resourceTrackingMethod': 'annotation' })];

function application(namespace: string, extra: Record<string, unknown> = {}): KubeObject {
  return argoApplication('api', { namespace, destination: 'shop', spec: extra });
}

function repository(app: KubeObject): Map<string, string> {
  return new Map([
    ['apps/api.yaml', stringify(app)],
    ['api/deployment.yaml', stringify(deployment())],
  ]);
}

function render(app: KubeObject, live: KubeObject[]) {
  return renderCluster(
    repository(app),
    { name: 'prod', path: 'apps', controller: 'argocd', defaultNamespace: 'default' },
    { live: { items: live, repository: 'acme/gitops' } },
  );
}

describe('Argo CD instances', () => {
  it('reads every argocd-cm with its Applications’ namespaces, and picks the instance of an Application', () => {
    const instances = readArgoInstances([...platformInstance, ...teamInstance]);
    expect(instances.map((i) => [i.controlPlaneNamespace, i.instanceLabelKey, i.applicationNamespaces])).toEqual([
      ['argocd', 'app.kubernetes.io/instance', undefined],
      ['argocd-team', 'team.example.com/app', ['team-*']],
    ]);
    expect(argoInstanceFor(instances, 'team-payments')?.controlPlaneNamespace).toBe('argocd-team');
    expect(argoInstanceFor(instances, 'argocd')?.controlPlaneNamespace).toBe('argocd');
    expect(argoInstanceFor(instances, 'elsewhere')).toBeUndefined();
  });

  it("stamps an Application's objects with its own instance's tracking: the team's label, the platform's annotation", () => {
    const live = [...platformInstance, ...teamInstance];
    const team = render(application('team-payments'), live).objects.find((d) => d.key.kind === 'Deployment')!;
    expect(team.object.metadata.labels?.['team.example.com/app']).toBe('team-payments_api');
    expect(team.object.metadata.annotations?.['argocd.argoproj.io/tracking-id']).toBeUndefined();
    const platform = render(application('argocd'), live).objects.find((d) => d.key.kind === 'Deployment')!;
    expect(platform.object.metadata.annotations?.['argocd.argoproj.io/tracking-id']).toBe(
      'api:apps/Deployment:shop/api',
    );
    expect(platform.object.metadata.labels?.['team.example.com/app']).toBeUndefined();
  });
});

describe('the tracking method argocd-cm leaves unset', () => {
  // util/argo/resource_tracking.go GetTrackingMethod: empty is `label` in Argo CD 2.x, `annotation` since 3.0.
  const controller = (image: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'argocd-application-controller', namespace: 'argocd' },
    spec: { template: { spec: { containers: [{ name: 'argocd-application-controller', image }] } } },
  });
  const method = (live: KubeObject[]) => readArgoInstances(live)[0]?.trackingMethod;
  const cm = configMap('argocd-cm', 'argocd', {});

  it('is label when the controller runs Argo CD 2.x, annotation on 3.x or when no version shows', () => {
    expect(method([cm, controller('quay.io/argoproj/argocd:v2.14.2')])).toBe('label');
    expect(method([cm, controller('quay.io/argoproj/argocd:v3.0.6')])).toBe('annotation');
    expect(method([cm])).toBe('annotation');
    const helm = { ...cm, metadata: { ...cm.metadata, labels: { 'app.kubernetes.io/version': 'v2.9.3' } } };
    expect(method([helm])).toBe('label');
    const set = configMap('argocd-cm', 'argocd', { 'application.resourceTrackingMethod': 'annotation+label' });
    expect(method([set, controller('quay.io/argoproj/argocd:v2.14.2')])).toBe('annotation+label');
  });
});

describe('live stamps read with each instance’s settings', () => {
  const live = [...platformInstance, ...teamInstance];
  const stamped = (metadata: Partial<KubeObject['metadata']>): KubeObject => {
    const object = deployment();
    object.metadata = { ...object.metadata, ...metadata };
    return object;
  };
  const owner = (object: KubeObject): string | undefined => {
    const ref = stampedSource(object, readArgoSettings(live));
    return ref && sourceRefText(ref);
  };

  it("names the team's Application by the team's label, the platform's by its tracking annotation", () => {
    // controller/cache: each instance's controller reads every object with its own GetAppName settings.
    expect(owner(stamped({ labels: { 'team.example.com/app': 'team-payments_api' } }))).toBe(
      'Application/team-payments/api',
    );
    const annotation = { 'argocd.argoproj.io/tracking-id': 'api:apps/Deployment:shop/api' };
    expect(owner(stamped({ annotations: annotation }))).toBe('Application/argocd/api');
    // The platform instance tracks by annotation: its default label is a chart's label, no stamp.
    expect(owner(stamped({ labels: { 'app.kubernetes.io/instance': 'api' } }))).toBeUndefined();
    // A label naming an Application in a namespace no instance reads names nothing.
    expect(owner(stamped({ labels: { 'team.example.com/app': 'elsewhere_api' } }))).toBeUndefined();
  });

  it("takes the team's label as the controller's stamp, never drift, while the platform's label stays the chart's", () => {
    const object = stamped({
      labels: { 'team.example.com/app': 'team-payments_api', 'app.kubernetes.io/instance': 'api' },
    });
    const keys = liveStampKeys(object, readArgoSettings(live), true);
    expect([...keys]).toEqual(['labels/team.example.com/app']);
  });
});

describe('ignoreDifferences', () => {
  const live = (patch: Record<string, unknown>): KubeObject => {
    const object = deployment(patch);
    object.metadata.labels = { 'team.example.com/app': 'team-payments_api' };
    return object;
  };

  function driftOf(app: KubeObject, liveDeployment: KubeObject, instance = teamInstance) {
    const rendered = render(app, [...platformInstance, ...instance, liveDeployment]);
    const desired = rendered.objects.filter((d) => d.key.kind === 'Deployment');
    const config = configWithSourceRules(configWith(), rendered);
    const diff = diffResources(desired, [liveDeployment], { config });
    return { resource: diff.resources.find((r) => r.key.kind === 'Deployment')!, notes: rendered.notes };
  }

  it("applies the instance's resource.customizations (split keys, `all`) to its Applications' objects", () => {
    const sidecar = { name: 'linkerd-proxy', image: 'cr.l5d.io/linkerd/proxy:stable-2.14' };
    const containers = { 'k:{"name":"linkerd-proxy"}': { '.': {}, 'f:image': {}, 'f:name': {} } };
    const object = live({
      spec: { template: { spec: { containers: [{ name: 'app', image: 'api:1' }, sidecar] } } },
    });
    object.metadata.managedFields = [
      managed('kubectl-edit', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': containers } } } }),
    ];
    const { resource } = driftOf(application('team-payments'), object);
    expect(resource.changes.map((c) => c.path)).not.toContain('/spec/template/spec/containers/1');
    expect(resource.ignored.map((c) => [c.path, c.ignored?.reason])).toContainEqual([
      '/spec/template/spec/containers/1',
      'Argo CD resource.customizations (argocd-cm in argocd-team)',
    ]);
    // The platform instance has no such customization: the same sidecar is a hand change there.
    const platformApp = application('argocd');
    const { resource: platform } = driftOf(platformApp, object, []);
    expect(platform.ignored).toEqual([]);
  });

  it('matches group and kind as globs, name and namespace exactly, and a jq expression on either side', () => {
    const rules = [
      { group: 'apps', kind: '*', name: 'other', jsonPointers: ['/spec/replicas'] },
      { group: '*', kind: 'Deploy*', namespace: 'shop', jqPathExpressions: ['.spec.replicas'] },
    ];
    const { resource } = driftOf(
      application('team-payments', { ignoreDifferences: rules }),
      live({
        spec: { replicas: 5 },
        metadata: { managedFields: [managed('kubectl-scale', { 'f:spec': { 'f:replicas': {} } })] },
      }),
    );
    expect(resource.changes).toEqual([]);
    expect(resource.ignored.map((c) => [c.path, c.ignored?.reason])).toEqual([
      ['/spec/replicas', 'Argo CD Application team-payments/api ignoreDifferences'],
    ]);
    const elsewhere = [
      { group: 'apps', kind: 'Deployment', namespace: 'other', jqPathExpressions: ['.spec.replicas'] },
    ];
    const { resource: unmatched } = driftOf(
      application('team-payments', { ignoreDifferences: elsewhere }),
      live({
        spec: { replicas: 5 },
        metadata: { managedFields: [managed('kubectl-scale', { 'f:spec': { 'f:replicas': {} } })] },
      }),
    );
    expect(unmatched.changes.map((c) => c.path)).toEqual(['/spec/replicas']);
  });

  it('a jq expression that does not parse is named, and the field is compared', () => {
    const rules = [{ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.replicas['] }];
    const { resource, notes } = driftOf(
      application('team-payments', { ignoreDifferences: rules }),
      live({
        spec: { replicas: 5 },
        metadata: { managedFields: [managed('kubectl-scale', { 'f:spec': { 'f:replicas': {} } })] },
      }),
    );
    expect(resource.changes.map((c) => c.path)).toEqual(['/spec/replicas']);
    expect(notes.map((n) => n.message)).toContainEqual(expect.stringContaining('".spec.replicas[" does not parse'));
  });
});

describe('compare and sync options', () => {
  it('an object annotated IgnoreExtraneous is not extra', () => {
    const generated = configMap('api-generated', 'shop', { a: '1' });
    generated.metadata.annotations = { 'argocd.argoproj.io/compare-options': 'IgnoreExtraneous' };
    generated.metadata.managedFields = [managed('kubectl-create', { 'f:data': { 'f:a': {} } })];
    const plain = { ...generated, metadata: { ...generated.metadata, name: 'hand-made', annotations: {} } };
    const diff = diffResources([], [generated, plain], { config: configWith() });
    expect(diff.resources.filter((r) => r.status === 'extra').map((r) => r.key.name)).toEqual(['hand-made']);
    expect(diff.owned?.map((o) => [o.key.name, o.owner.evidence])).toEqual([
      ['api-generated', expect.stringContaining('IgnoreExtraneous')],
    ]);
  });

  function pruneOf(app: KubeObject, objects: KubeObject[]) {
    const status = { resources: objects.map((o) => ({ version: 'v1', ...keyOf(o) })) };
    const rendered = render({ ...app, status } as KubeObject, [...platformInstance, { ...app, status } as KubeObject]);
    const liveMap = new Map(objects.map((o) => [keyId(keyOf(o)), o]));
    return planPrune({
      head: new Map(),
      base: new Map(),
      live: liveMap,
      prune: true,
      protect: [],
      proves: () => true,
      inventories: pruneInventories(rendered.sources),
    });
  }

  it('Prune=false on the Application keeps what Git no longer declares, unless the object says Prune=true', () => {
    const gone = deployment({ metadata: { name: 'old' } });
    const forced = deployment({
      metadata: { name: 'forced', annotations: { 'argocd.argoproj.io/sync-options': 'Prune=true' } },
    });
    const app = application('argocd', { syncPolicy: { automated: { prune: true }, syncOptions: ['Prune=false'] } });
    const result = pruneOf(app, [gone, forced]);
    expect(result.kept).toEqual([
      {
        id: keyOf(gone),
        reason: 'Application argocd/api syncs with `Prune=false` (syncPolicy.syncOptions): never pruned',
      },
    ]);
    expect(result.prune.map((entry) => entry.id.name)).toEqual(['forced']);
  });

  it('automated sync without prune: the plan says the prune waits for a person', () => {
    const gone = deployment({ metadata: { name: 'old' } });
    const result = pruneOf(application('argocd', { syncPolicy: { automated: {} } }), [gone]);
    expect(result.prune).toEqual([]);
    expect(result.kept[0]?.reason).toBe(
      'Application argocd/api syncs automatically without `prune`: the object stays until a person syncs with prune (`argocd app sync argocd/api --prune`)',
    );
  });
});

describe('argocd-cm kustomize.buildOptions with --enable-managedby-label', () => {
  // Argo CD runs `kustomize build <path> <buildOptions>` (util/kustomize/kustomize.go), so the flag
  // labels every object of a kustomize source as `buildMetadata: [managedByLabel]` would.
  const files = new Map([
    ['apps/api.yaml', stringify(application('argocd'))],
    ['api/kustomization.yaml', 'resources: [deployment.yaml]\n'],
    ['api/deployment.yaml', stringify(deployment())],
  ]);
  const labelsWith = (buildOptions: string) => {
    const items = [configMap('argocd-cm', 'argocd', { 'kustomize.buildOptions': buildOptions })];
    const target = { name: 'prod', path: 'apps', controller: 'argocd' as const, defaultNamespace: 'default' };
    const rendered = renderCluster(files, target, { live: { items, repository: 'acme/gitops' } });
    expect(rendered.errors).toEqual([]);
    return rendered.objects.find((d) => d.key.kind === 'Deployment')!.object.metadata.labels ?? {};
  };

  it('labels the objects it builds with the managed-by label of kustomize 5.7.1', () => {
    const labels = labelsWith('--load-restrictor LoadRestrictionsNone --enable-managedby-label');
    expect(labels['app.kubernetes.io/managed-by']).toBe('kustomize-v5.7.1');
  });

  it('adds no label without the flag', () => {
    expect(labelsWith('--load-restrictor LoadRestrictionsNone')).not.toHaveProperty(['app.kubernetes.io/managed-by']);
  });
});

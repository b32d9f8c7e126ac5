// Each controller scenario of test/fixtures/controllers, through the one pipeline (evaluateDrift,
// planCluster): an unchanged cluster shows zero drift, a plan of unchanged HEAD changes nothing, and the
// results read per source. What each asserts is the scenario's expected.md; the controller behaviour it
// relies on is named per case (docs/upstream/controllers.md has the upstream files).
import { describe, expect, it } from 'vitest';
import { parseConfig, type ClusterConfig, type Config } from '../../../src/core/config/index.js';
import { renderDashboard, renderPlanComment } from '../../../src/core/report/index.js';
import { routeChange } from '../../../src/core/codify/route.js';
import { sourceReportLine, type Plan } from '../../../src/core/model/index.js';
import {
  codifyEvaluated,
  evaluateDrift,
  planCluster,
  type DriftInput,
  type EvaluatedDrift,
} from '../../../src/core/pipeline/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { driftTally } from '../../../src/core/classify/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

function configOf(files: ReadonlyMap<string, string>): Config {
  // `emergency:` belongs to the suspension procedure, read elsewhere; the rest is the config as written.
  const text = files.get('.github/driftback.yml')!.replace(/^emergency:\n(?: .*\n)*/m, '');
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
  return parsed.config;
}

interface Run {
  input: DriftInput;
  evaluated: EvaluatedDrift;
  plan: Plan;
}

function run(
  scenario: string,
  snapshotName: string,
  clusterName?: string,
  edit?: (snapshot: ReturnType<typeof scenarioSnapshot>) => void,
): Run {
  const files = scenarioRepository(scenario);
  const config = configOf(files);
  const cluster: ClusterConfig = config.clusters!.find((c) => clusterName === undefined || c.name === clusterName)!;
  const snapshot = scenarioSnapshot(scenario, snapshotName);
  edit?.(snapshot);
  const input: DriftInput = { snapshot, config, cluster, files, history: [], minSnapshots: 1, declined: new Set() };
  const evaluation = evaluateDrift(input);
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  const head = renderCluster(files, cluster, { live: snapshot });
  const plan = planCluster({
    config,
    cluster,
    head: head.objects,
    base: head.objects,
    headFiles: files,
    snapshot,
    now: snapshot.capturedAt,
    sources: head,
  });
  return { input, evaluated: evaluation, plan };
}

/** Every drifted field and missing object, as `Kind/ns/name path (op)`: what "zero drift" is about. */
function driftOf(evaluated: EvaluatedDrift): string[] {
  return evaluated.drift.resources.flatMap((resource) => {
    const id = `${resource.key.kind}/${resource.key.namespace}/${resource.key.name}`;
    if (resource.status === 'missing') return [`${id} missing`];
    return resource.changes.map((change) => `${id} ${change.path} (${change.op})`);
  });
}

/** Codify of every drifted field: file → the lines that differ from the repository's (line number: new text). */
function codifyLines(ran: Run): { codified: string[]; edits: Record<string, string[]> } {
  const result = codifyEvaluated(ran.input, ran.evaluated);
  expect(result.check).toEqual({ ok: true });
  const edits: Record<string, string[]> = {};
  for (const [file, text] of result.edits) {
    const before = (ran.input.files.get(file) ?? '').split('\n');
    edits[file] = text
      .split('\n')
      .flatMap((line, i) => (line !== before[i] && line !== '' ? [`${i + 1}: ${line.trim()}`] : []));
  }
  const codified = result.codified.map(
    (c) => `${c.key.kind}/${c.key.name} ${c.change?.path ?? '(new file)'} → ${c.file}`,
  );
  return { codified, edits };
}

function expectUnchangedPlan(plan: Plan): void {
  expect(plan.create.map((e) => e.id.name)).toEqual([]);
  expect(plan.update.map((e) => e.id.name)).toEqual([]);
  expect(plan.prune.map((e) => e.id.name)).toEqual([]);
}

describe('flux-podinfo: Flux kustomize-controller with every Kustomization transform', () => {
  // fluxcd/pkg ssa/manager.go SetOwnerLabels (stamps); kustomize-controller internal/generator (targetNamespace,
  // patches, images); fluxcd/pkg kustomize/kustomize_varsub.go (postBuild); ssa/normalize/normalize.go.
  const { evaluated, plan } = run('flux-podinfo', 'unchanged');

  it('an unchanged cluster shows zero drift, per source', () => {
    expect(driftOf(evaluated)).toEqual([]);
    expect(evaluated.sources.map(sourceReportLine).sort()).toEqual([
      'flux-system/apps: in sync',
      'flux-system/flux-system: in sync',
    ]);
    expect(evaluated.sources.find((s) => s.name === 'flux-system/apps')).toMatchObject({
      path: 'apps/kind-dev',
      appliedRevision: 'main@sha1:7c1f4e2a9b3d5c8e0f6a1b2c3d4e5f60718293a4',
      suspended: false,
    });
  });

  it('a value substituted from a Secret is reported as not checkable, never as drift', () => {
    expect(
      evaluated.notes.filter((note) => note.code === 'not-checkable').map((note) => [note.key?.name, note.pointer]),
    ).toEqual([['podinfo', '/spec/template/spec/containers/0/env/2/value']]);
  });

  it('the plan of unchanged HEAD changes nothing', () => {
    expectUnchangedPlan(plan);
    expect(plan.sources?.map(sourceReportLine).sort()).toEqual([
      'flux-system/apps: no changes',
      'flux-system/flux-system: no changes',
    ]);
  });
});

describe('flux-podinfo hand changes: each reported once, attributed, codified where its value comes from', () => {
  // kustomize-controller: spec.patches and spec.images are the Kustomization's (docs/spec/v1/kustomizations.md);
  // kubectl scale is manager `kubectl` with subresource scale (kube-apiserver handlers/create.go).
  const ran = run('flux-podinfo', 'hand-changes');

  it('four human changes on Deployment podinfo/podinfo, with their managers', () => {
    const deployment = ran.evaluated.drift.resources.find(
      (r) => r.key.kind === 'Deployment' && r.key.namespace === 'podinfo',
    )!;
    expect(deployment.changes.map((c) => [c.path, c.manager, c.cause]).sort()).toEqual([
      ['/spec/replicas', 'kubectl', 'human'],
      ['/spec/template/spec/containers/0/env/3', 'kubectl-edit', 'human'],
      ['/spec/template/spec/containers/0/image', 'kubectl-set', 'human'],
      ['/spec/template/spec/containers/0/resources/limits/memory', 'kubectl-edit', 'human'],
    ]);
  });

  it('the Flux patch and image override are edited in the Kustomization, the env var patched in the overlay, the base untouched', () => {
    const { edits } = codifyLines(ran);
    expect(Object.keys(edits).sort()).toEqual([
      'apps/kind-dev/driftback-deployment-podinfo.yaml',
      'apps/kind-dev/kustomization.yaml',
      'clusters/kind-dev/apps.yaml',
    ]);
    expect(edits['clusters/kind-dev/apps.yaml']).toEqual(['40: memory: 384Mi', '46: newTag: 6.14.1']);
    expect(edits['apps/kind-dev/kustomization.yaml']).toEqual([
      '7: count: 4',
      '8: patches:',
      '9: - path: driftback-deployment-podinfo.yaml',
    ]);
    expect(edits['apps/kind-dev/driftback-deployment-podinfo.yaml']).toContain('12: value: debug');
  });

  it('values set at apply time are reported with their transform, never written into the base', () => {
    // kustomize-controller: postBuild and commonMetadata are applied after the build (docs/spec/v1/kustomizations.md).
    const deployment = ran.evaluated.diff.resources.find(
      (r) => r.key.kind === 'Deployment' && r.key.namespace === 'podinfo',
    )!.desired!;
    const env = (
      deployment.object as unknown as {
        spec: { template: { spec: { containers: Array<{ env: Array<{ name: string }> }> } } };
      }
    ).spec.template.spec.containers[0]!.env.findIndex((item) => item.name === 'PODINFO_UI_MESSAGE');
    expect(routeChange(deployment, `/spec/template/spec/containers/0/env/${env}/value`)).toMatchObject({
      type: 'unsupported',
      reason: expect.stringContaining(
        'Git writes `Greetings from ${cluster_name} (${cluster_env})`, substituted by Kustomization flux-system/apps ' +
          '(clusters/kind-dev/apps.yaml): ${cluster_name} from ConfigMap flux-system/cluster-vars, ${cluster_env} from ' +
          'postBuild.substitute; change the variable where it is set for this cluster, not the manifest',
      ),
    });
    expect(routeChange(deployment, '/metadata/labels/team')).toMatchObject({
      reason: expect.stringContaining('commonMetadata of Kustomization'),
    });
    expect(routeChange(deployment, '/metadata/labels/kustomize.toolkit.fluxcd.io~1name')).toMatchObject({
      reason: expect.stringContaining('stamp of Kustomization'),
    });
  });

  it('the plan of HEAD against it updates the Deployment back; the comment shows it per source', () => {
    expect(ran.plan.update.map((entry) => entry.id.name)).toEqual(['podinfo']);
    expect(ran.plan.sources?.map(sourceReportLine).sort()).toEqual([
      'flux-system/apps: 1 to update',
      'flux-system/flux-system: no changes',
    ]);
    const comment = renderPlanComment([{ cluster: 'kind-dev', plan: ran.plan }]);
    expect(comment).toContain('- flux-system/apps: 1 to update\n');
  });

  it("the dashboard lists each source's drift", () => {
    const body = renderDashboard({
      now: '2026-12-01T12:10:00Z',
      configErrors: [],
      clusters: [
        {
          name: 'kind-dev',
          lastSnapshotAt: '2026-12-01T12:09:30Z',
          staleAfter: '30m',
          resourcesInScope: 25,
          driftByCause: { human: 1 },
          drift: driftTally(ran.evaluated.drift.resources),
          sources: ran.evaluated.sources.map(sourceReportLine),
          conflicts: [],
          ignored: [],
          degraded: [],
          reconcilers: [],
          openPullRequests: [],
          notChecked: ran.evaluated.notes.map((note) => `${note.source}: ${note.message}`),
        },
      ],
    });
    expect(body).toContain('<summary>Not checked (1)</summary>');
    expect(body).toContain(
      '- flux-system/apps: spec.template.spec.containers\\[podinfod\\].env\\[PODINFO\\_BACKEND\\_TOKEN\\].value uses ${backend\\_token} from Secret flux-system/cluster-secret-vars, whose value the snapshot does not hold',
    );
    // One unit, the drift pull request's: its headline reads `1 object, 4 live changes by …`.
    expect(body).toContain(
      '- Drift: 1 object, 4 live changes (4 human)\n  - flux-system/apps: 1 object, 4 live changes\n',
    );
    expect(body).toContain('  - flux-system/flux-system: in sync\n');
  });
});

describe("prune follows the inventory and the source's prune setting", () => {
  // kustomize-controller: objects in the old inventory and not in the new one are deleted when spec.prune
  // is true (docs/spec/v1/kustomizations.md "Garbage collection"; api/v1 inventory_types.go).
  function planWithout(service: boolean, apps: (text: string) => string): Plan {
    const files = new Map(scenarioRepository('flux-podinfo'));
    if (!service)
      files.set(
        'apps/base/podinfo/kustomization.yaml',
        files.get('apps/base/podinfo/kustomization.yaml')!.replace('  - service.yaml\n', ''),
      );
    files.set('clusters/kind-dev/apps.yaml', apps(files.get('clusters/kind-dev/apps.yaml')!));
    const config = configOf(files);
    const cluster = config.clusters![0]!;
    const snapshot = scenarioSnapshot('flux-podinfo', 'unchanged');
    const head = renderCluster(files, cluster, { live: snapshot });
    const base = renderCluster(scenarioRepository('flux-podinfo'), cluster, { live: snapshot });
    return planCluster({
      config,
      cluster,
      head: head.objects,
      base: base.objects,
      headFiles: files,
      snapshot,
      now: snapshot.capturedAt,
      sources: head,
    });
  }

  it('a Service the render no longer gives is pruned by a source that prunes', () => {
    const plan = planWithout(false, (text) => text);
    expect(plan.prune.map((entry) => `${entry.id.kind}/${entry.id.namespace}/${entry.id.name}`)).toEqual([
      'Service/podinfo/podinfo',
    ]);
    expect(plan.sources?.map(sourceReportLine)).toContain('flux-system/apps: 1 to prune');
  });

  it('with spec.prune: false it is kept, and the plan says why', () => {
    // The live Kustomization's inventory still names it; the repository's spec (what Flux applies next) says prune: false.
    const plan = planWithout(false, (text) => text.replace('  prune: true\n', '  prune: false\n'));
    expect(plan.prune).toEqual([]);
    expect(plan.kept).toEqual([
      {
        id: { group: '', kind: 'Service', namespace: 'podinfo', name: 'podinfo' },
        reason: 'flux-system/apps does not prune (no `spec.prune: true`): the object stays in the cluster',
      },
    ]);
  });
});

describe("a cluster configured without a path: the snapshot's sources name the paths", () => {
  it('renders flux-podinfo from its live Kustomizations, parents first, with the same results', () => {
    const files = scenarioRepository('flux-podinfo');
    const config = configOf(files);
    const cluster: ClusterConfig = { name: 'kind-dev', defaultNamespace: 'default', prune: true, staleAfter: '30m' };
    const snapshot = scenarioSnapshot('flux-podinfo', 'hand-changes');
    const input: DriftInput = { snapshot, config, cluster, files, history: [], minSnapshots: 1, declined: new Set() };
    const evaluated = evaluateDrift(input);
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    expect(evaluated.sources.map(sourceReportLine).sort()).toEqual([
      'flux-system/apps: 1 object, 4 live changes',
      'flux-system/flux-system: in sync',
    ]);
    // The patch is traced to clusters/kind-dev/apps.yaml, which flux-system's render declares.
    const { edits } = codifyLines({ input, evaluated, plan: undefined as unknown as Plan });
    expect(edits['clusters/kind-dev/apps.yaml']).toEqual(['40: memory: 384Mi', '46: newTag: 6.14.1']);
  });
});

describe("Flux spec.images merged by name into the kustomization's (kustomize-controller internal/generator)", () => {
  it("keeps the kustomization's newName and takes the Kustomization's tag", () => {
    const files = new Map(scenarioRepository('flux-podinfo'));
    files.set(
      'apps/kind-dev/kustomization.yaml',
      `${files.get('apps/kind-dev/kustomization.yaml')}images:\n  - name: ghcr.io/stefanprodan/podinfo\n    newName: registry.example/podinfo\n    newTag: 1.0.0\n`,
    );
    const config = configOf(files);
    const rendered = renderCluster(files, config.clusters![0]!, {
      live: scenarioSnapshot('flux-podinfo', 'unchanged'),
    });
    const deployment = rendered.objects.find((d) => d.key.kind === 'Deployment' && d.key.namespace === 'podinfo')!;
    expect(deployment.object.spec).toMatchObject({
      template: { spec: { containers: [{ image: 'registry.example/podinfo:6.14.0' }] } },
    });
  });
});

describe('a Flux Kustomization that reads another GitRepository', () => {
  it("is listed out of scope, not rendered (its path is another repository's)", () => {
    // kustomize-controller reads spec.sourceRef's artifact (api/v1 kustomization_types.go).
    const files = new Map(scenarioRepository('flux-podinfo'));
    files.set(
      'clusters/kind-dev/platform.yaml',
      [
        'apiVersion: kustomize.toolkit.fluxcd.io/v1',
        'kind: Kustomization',
        'metadata:',
        '  name: platform',
        '  namespace: flux-system',
        'spec:',
        '  interval: 10m',
        '  path: ./deploy',
        '  prune: true',
        '  sourceRef:',
        '    kind: GitRepository',
        '    name: platform-repo',
        '',
      ].join('\n'),
    );
    const config = configOf(files);
    const rendered = renderCluster(files, config.clusters![0]!, {
      live: scenarioSnapshot('flux-podinfo', 'unchanged'),
    });
    expect(rendered.sources.map((result) => [result.source.id.name, result.scope])).toContainEqual([
      'platform',
      'out-of-scope',
    ]);
    expect(rendered.notes.find((note) => note.code === 'out-of-scope')?.message).toBe(
      'flux-system/platform applies GitRepository flux-system/platform-repo, another repository: its objects are not checked here',
    );
  });
});

describe('flux-helm: Flux with helm-controller (flux2-kustomize-helm-example)', () => {
  // fluxcd/helm-controller: the chart's objects are the HelmRelease's, not rendered from Git.
  const { evaluated, plan } = run('flux-helm', 'unchanged');

  it("zero drift on the Kustomizations' objects, HelmRelease included; its chart not rendered without Helm; no plan changes", () => {
    expect(driftOf(evaluated)).toEqual([]);
    expect(evaluated.sources.map(sourceReportLine).sort()).toEqual([
      'flux-system/apps: in sync',
      'flux-system/flux-system: in sync',
      // Without Helm the release's objects are unknown: listed as not rendered, never as in sync.
      'podinfo/podinfo: not rendered: helm not found',
    ]);
    expectUnchangedPlan(plan);
  });
});

describe('argocd-csa-label: Argo CD, client-side apply, label tracking', () => {
  // argo-cd util/argo/resource_tracking.go (label method from argocd-cm), reposerver/repository/repository.go
  // (a directory source without recurse reads its top level only).
  const { evaluated, plan } = run('argocd-csa-label', 'unchanged');

  it('zero drift, and the sub-directories of a non-recursive directory source are not desired', () => {
    expect(driftOf(evaluated)).toEqual([]);
    expect(evaluated.sources.map(sourceReportLine)).toEqual(['argocd/guestbook: in sync']);
    const kinds = new Set(evaluated.diff.resources.filter((r) => r.desired).map((r) => r.key.kind));
    expect(kinds.has('ReplicationController')).toBe(false);
    expectUnchangedPlan(plan);
  });
});

describe('argocd-ssa-annotation: Argo CD, server-side apply, annotation tracking, app of apps', () => {
  // argo-cd docs/operator-manual/upgrading/2.14-3.0.md (annotation by default), util/kustomize/kustomize.go
  // (kustomize overrides), docs/user-guide/diffing.md (ignoreDifferences).
  const { evaluated, plan } = run('argocd-ssa-annotation', 'unchanged');

  it("zero drift; the app of apps is followed; the other repository's Application is listed out of scope", () => {
    expect(driftOf(evaluated)).toEqual([]);
    expect(evaluated.sources.map(sourceReportLine).sort()).toEqual([
      'argocd/online-boutique: in sync',
      'argocd/platform-redis: another repository, not checked',
      'argocd/root: in sync',
    ]);
    expect(evaluated.notes.find((note) => note.code === 'out-of-scope')?.message).toContain(
      'https://github.com/acme/platform-manifests.git',
    );
    expectUnchangedPlan(plan);
  });

  it('jq and JSON pointer ignore rules are honoured, each named with its Application', () => {
    // argo-cd util/argo/normalizers/diff_normalizer.go: `del(<jq expression>)` on live and desired.
    expect(evaluated.notes.filter((note) => note.code === 'unsupported')).toEqual([]);
    const hand = run('argocd-ssa-annotation', 'hand-changes', undefined, (snapshot) => {
      const cart = snapshot.items.find((o) => o.kind === 'Deployment' && o.metadata.name === 'cartservice')!;
      const pod = (cart.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template.spec;
      pod.containers.push({ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.24.0' });
      const injected = { 'k:{"name":"istio-proxy"}': { '.': {}, 'f:image': {}, 'f:name': {} } };
      cart.metadata.managedFields = [
        ...(cart.metadata.managedFields ?? []),
        {
          manager: 'kubectl-edit',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time: '2026-12-01T14:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': injected } } } },
        },
      ];
    }).evaluated;
    const deployment = (name: string) =>
      hand.diff.resources.find((r) => r.key.kind === 'Deployment' && r.key.name === name)!;
    const reason = 'Argo CD Application argocd/online-boutique ignoreDifferences';
    expect(deployment('frontend').changes).toEqual([]);
    expect(deployment('frontend').ignored.map((change) => [change.path, change.ignored?.reason])).toEqual([
      ['/spec/replicas', reason],
    ]);
    const cart = deployment('cartservice');
    expect(cart.ignored.map((change) => [change.path, change.ignored?.reason])).toEqual([
      ['/spec/template/spec/containers/1', reason],
    ]);
    expect(cart.changes.map((change) => change.path)).not.toContain('/spec/template/spec/containers/1');
  });

  it('RespectIgnoreDifferences=true keeps ignored fields out of the plan; without it the plan warns of the revert', () => {
    // argo-cd docs/user-guide/sync-options.md "Respect ignore differences configs".
    const planWith = (edit: (text: string) => string): Plan => {
      const files = new Map(scenarioRepository('argocd-ssa-annotation'));
      files.set('argocd/apps/online-boutique.yaml', edit(files.get('argocd/apps/online-boutique.yaml')!));
      const config = configOf(files);
      const cluster = config.clusters![0]!;
      const snapshot = scenarioSnapshot('argocd-ssa-annotation', 'hand-changes');
      const head = renderCluster(files, cluster, { live: snapshot });
      return planCluster({
        ...{ config, cluster, head: head.objects, base: head.objects, headFiles: files, snapshot },
        ...{ now: snapshot.capturedAt, sources: head },
      });
    };
    // The image of cartservice was set by hand (kubectl set image): Git declares it, so a sync writes it.
    const ignoreImage = (text: string) =>
      text.replace(
        'name: frontend\n      jsonPointers:\n        - /spec/replicas',
        'name: cartservice\n      jsonPointers:\n        - /spec/template/spec/containers/0/image',
      );
    const cart = (plan: Plan) => plan.update.find((entry) => entry.id.name === 'cartservice');
    const image = '/spec/template/spec/containers/0/image';
    const respected = planWith(ignoreImage);
    expect(cart(respected)?.changes.map((change) => change.path) ?? []).not.toContain(image);
    expect(respected.warnings.filter((w) => w.id?.name === 'cartservice' && w.path === image)).toEqual([]);
    const reverted = planWith((text) => ignoreImage(text).replace(/^\s*- RespectIgnoreDifferences=true\n/m, ''));
    expect(cart(reverted)?.changes.map((change) => change.path)).toContain(image);
    const warnings = reverted.warnings.filter((w) => w.id?.name === 'cartservice' && w.path === image);
    const warning = warnings.find((w) => w.message.includes('ignoreDifferences'));
    expect(warning?.code).toBe('reverts-live-change');
    expect(warning?.message).toContain('ignoreDifferences of Application argocd/online-boutique');
    expect(warning?.message).toContain('RespectIgnoreDifferences=true');
  });

  it('automated sync without selfHeal: merging any pull request re-syncs the Application and reverts its hand changes', () => {
    // argo-cd controller/appcontroller.go autoSync (once per commit while OutOfSync); util/app/path/path.go
    // GetAppRefreshPaths and AppFilesHaveChanged (manifest-generate-paths).
    const planFor = (changed: string[], annotate: boolean): Plan => {
      const files = new Map(scenarioRepository('argocd-ssa-annotation'));
      const app = files.get('argocd/apps/online-boutique.yaml')!;
      const annotated = app.replace(
        'metadata:\n',
        "metadata:\n  annotations:\n    argocd.argoproj.io/manifest-generate-paths: '.'\n",
      );
      files.set('argocd/apps/online-boutique.yaml', annotate ? annotated : app);
      const config = configOf(files);
      const cluster = config.clusters![0]!;
      const snapshot = scenarioSnapshot('argocd-ssa-annotation', 'hand-changes');
      const head = renderCluster(files, cluster, { live: snapshot });
      return planCluster({
        ...{ config, cluster, head: head.objects, base: head.objects, headFiles: files, snapshot },
        ...{ now: snapshot.capturedAt, sources: head, changed },
      });
    };
    const resync = (plan: Plan) => plan.warnings.filter((w) => w.message.includes('re-syncs Argo CD Application'));
    const [warning] = resync(planFor(['docs/runbook.md'], false));
    expect(warning?.code).toBe('reverts-live-change');
    expect(warning?.message).toContain('Merging this pull request re-syncs Argo CD Application argocd/online-boutique');
    expect(warning?.message).toContain(
      "Deployment boutique/cartservice `spec.template.spec.containers[server].image`: kubectl-set's `us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.4`, 2026-12-01T12:07:00Z → `us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.3`",
    );
    expect(warning?.message).toContain('`argocd app set argocd/online-boutique --sync-policy none`');
    // Its manifest-generate-paths leave a commit elsewhere out: no refresh, no sync.
    expect(resync(planFor(['docs/runbook.md'], true))).toEqual([]);
    expect(resync(planFor(['apps/online-boutique/kustomization.yaml'], true))).toHaveLength(1);
  });

  it('an image Argo CD Image Updater writes is reported with its Application, never codified, and noted in the plan', () => {
    // argocd-image-updater docs: image-list annotation, write-back-method git → .argocd-source-<app>.yaml.
    const files = new Map(scenarioRepository('argocd-ssa-annotation'));
    const app = files.get('argocd/apps/online-boutique.yaml')!;
    const annotations =
      'metadata:\n  annotations:\n' +
      '    argocd-image-updater.argoproj.io/image-list: cart=us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:~0.10\n' +
      '    argocd-image-updater.argoproj.io/write-back-method: git\n';
    files.set('argocd/apps/online-boutique.yaml', app.replace('metadata:\n', annotations));
    const config = configOf(files);
    const cluster = config.clusters![0]!;
    const snapshot = scenarioSnapshot('argocd-ssa-annotation', 'hand-changes');
    const input: DriftInput = { snapshot, config, cluster, files, history: [], minSnapshots: 1, declined: new Set() };
    const evaluated = evaluateDrift(input);
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    const cart = evaluated.diff.resources.find((r) => r.key.kind === 'Deployment' && r.key.name === 'cartservice')!;
    expect(cart.changes.map((c) => c.path)).not.toContain('/spec/template/spec/containers/0/image');
    const reported = cart.reported?.find((c) => c.path === '/spec/template/spec/containers/0/image');
    expect(reported?.reported?.code).toBe('image-automation');
    expect(reported?.reported?.reason).toContain('Argo CD Image Updater (Application argocd/online-boutique');
    expect(reported?.reported?.reason).toContain('`apps/online-boutique/.argocd-source-online-boutique.yaml` in Git');
    expect(codifyLines({ input, evaluated, plan: undefined as unknown as Plan }).edits).toEqual({});
    const head = renderCluster(files, cluster, { live: snapshot });
    const plan = planCluster({
      ...{ config, cluster, head: head.objects, base: head.objects, headFiles: files, snapshot },
      ...{ now: snapshot.capturedAt, sources: head },
    });
    const note = plan.warnings.find((w) => w.id?.name === 'cartservice' && w.code === 'conflict');
    expect(note?.message).toContain('written by Argo CD Image Updater');
  });

  it('an Image Updater alias with kustomize.image-name owns the image its override sets; its strategy is named', () => {
    // argocd-image-updater pkg/common/constants.go (`<alias>.kustomize.image-name`, `<alias>.update-strategy`,
    // `<alias>.allow-tags`) and pkg/argocd/update.go SetKustomizeImage: the override `cartservice=<image>:<tag>`.
    const evaluate = (aliasAnnotations: string) => {
      const files = new Map(scenarioRepository('argocd-ssa-annotation'));
      const app = files.get('argocd/apps/online-boutique.yaml')!;
      const annotations =
        'metadata:\n  annotations:\n' +
        '    argocd-image-updater.argoproj.io/image-list: cart=ghcr.io/acme/mirror/cartservice\n' +
        aliasAnnotations;
      files.set('argocd/apps/online-boutique.yaml', app.replace('metadata:\n', annotations));
      const config = configOf(files);
      const cluster = config.clusters![0]!;
      const snapshot = scenarioSnapshot('argocd-ssa-annotation', 'hand-changes');
      const input: DriftInput = { snapshot, config, cluster, files, history: [], minSnapshots: 1, declined: new Set() };
      const evaluated = evaluateDrift(input);
      if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
      const cart = evaluated.diff.resources.find((r) => r.key.kind === 'Deployment' && r.key.name === 'cartservice')!;
      const image = '/spec/template/spec/containers/0/image';
      return {
        codified: cart.changes.some((c) => c.path === image),
        reported: cart.reported?.find((c) => c.path === image),
        edits: codifyLines({ input, evaluated, plan: undefined as unknown as Plan }).edits,
      };
    };
    const owned = evaluate(
      '    argocd-image-updater.argoproj.io/cart.kustomize.image-name: cartservice\n' +
        '    argocd-image-updater.argoproj.io/cart.update-strategy: newest-build\n' +
        "    argocd-image-updater.argoproj.io/cart.allow-tags: 'regexp:^v0\\.10\\.'\n",
    );
    expect(owned.codified).toBe(false);
    expect(owned.reported?.reported?.code).toBe('image-automation');
    expect(owned.reported?.reported?.reason).toContain(
      'image alias `cart` = ghcr.io/acme/mirror/cartservice, update-strategy newest-build, allow-tags regexp:^v0\\.10\\.',
    );
    expect(owned.reported?.reported?.reason).toContain('the parameters of Application argocd/online-boutique');
    expect(owned.reported?.reported?.reason).toContain('newest version its newest-build strategy allows');
    expect(owned.edits).toEqual({});
    // Without the alias's kustomize.image-name the mirror's image is not the one the manifests use: a hand
    // change to cartservice is not the updater's, and is codified into the Application's override.
    const notOwned = evaluate('');
    expect(notOwned.codified).toBe(true);
    expect(Object.keys(notOwned.edits)).toEqual(['argocd/apps/online-boutique.yaml']);
  });

  it("an image set by the Application's kustomize.images is codified into that override", () => {
    // argo-cd util/kustomize/kustomize.go: kustomize.images are `kustomize edit set image` arguments.
    const { edits } = codifyLines(run('argocd-ssa-annotation', 'hand-changes'));
    expect(edits).toEqual({
      'argocd/apps/online-boutique.yaml': [
        '19: - cartservice=us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.4',
      ],
    });
  });

  it("a value an override sets is traced to it: replicas to kustomize.replicas, labels reported as the override's", () => {
    const files = new Map(scenarioRepository('argocd-ssa-annotation'));
    const app = files.get('argocd/apps/online-boutique.yaml')!;
    files.set(
      'argocd/apps/online-boutique.yaml',
      app.replace(
        '    kustomize:\n',
        '    kustomize:\n      replicas:\n        - name: cartservice\n          count: 2\n',
      ),
    );
    const config = configOf(files);
    const rendered = renderCluster(files, config.clusters![0]!, {
      live: scenarioSnapshot('argocd-ssa-annotation', 'unchanged'),
    });
    const cartservice = rendered.objects.find((d) => d.key.kind === 'Deployment' && d.key.name === 'cartservice')!;
    expect(cartservice.object.spec).toMatchObject({ replicas: 2 });
    expect(routeChange(cartservice, '/spec/replicas')).toEqual({
      type: 'replicas',
      kustomization: 'argocd/apps/online-boutique.yaml',
      index: 0,
      document: 0,
      list: ['spec', 'source', 'kustomize', 'replicas'],
    });
    expect(routeChange(cartservice, '/metadata/labels/app.kubernetes.io~1part-of')).toEqual({
      type: 'unsupported',
      reason:
        'set by kustomize.commonLabels of Application argocd/online-boutique (argocd/apps/online-boutique.yaml); change it there by hand',
    });
  });

  it('tracking switched to annotation+label in argocd-cm: stamps follow it, zero drift', () => {
    expect(driftOf(run('argocd-ssa-annotation', 'annotation-label').evaluated)).toEqual([]);
  });
});

describe('argocd-csa-label hand changes', () => {
  it("scale and set env are codified in place in the directory source's files", () => {
    const { codified, edits } = codifyLines(run('argocd-csa-label', 'hand-changes'));
    expect(codified).toContain('Deployment/frontend /spec/replicas → web/guestbook/frontend-deployment.yaml');
    expect(edits['web/guestbook/frontend-deployment.yaml']).toEqual(['10: replicas: 5']);
    expect(edits['web/guestbook/redis-replica-deployment.yaml']).toEqual(['28: value: env']);
  });

  it('a hand-made ConfigMap goes to the top level of the directory source, which does not recurse', () => {
    // argo-cd reposerver/repository/repository.go: without recurse only the top level of the path is read.
    const { codified } = codifyLines(run('argocd-csa-label', 'hand-changes'));
    expect(codified).toContain('ConfigMap/frontend-config (new file) → web/guestbook/configmap-frontend-config.yaml');
  });
});

describe("hand-made: a person's object in a Flux source's namespace", () => {
  it('is written into the directory the source renders and registered in its kustomization', () => {
    const { codified, edits } = codifyLines(run('hand-made', 'hand-made'));
    expect(codified).toContain('ConfigMap/feature-flags (new file) → apps/shop/configmap-feature-flags.yaml');
    expect(edits['apps/shop/kustomization.yaml']).toContain('9: - configmap-feature-flags.yaml');
  });

  it('the sources render with zero drift outside the hand changes', () => {
    const { evaluated } = run('hand-made', 'hand-made');
    expect(evaluated.sources.map((source) => source.name).sort()).toEqual([
      'flux-system/apps',
      'flux-system/flux-system',
      'flux-system/infrastructure',
    ]);
    expect(
      driftOf(evaluated).filter((line) => !/^(Deployment\/shop\/(web|api)|Gateway\/shop\/shop) /.test(line)),
    ).toEqual([]);
  });
});

describe('kind-fresh: Flux bootstrap, controller detected', () => {
  // fluxcd/flux2 pkg/manifestgen (flux bootstrap), internal/utils/apply.go (manager flux, Apply).
  const { evaluated, plan } = run('kind-fresh', 'fresh');

  it('zero drift on the Flux install; the plan changes nothing', () => {
    expect(driftOf(evaluated)).toEqual([]);
    expect(evaluated.sources.map(sourceReportLine)).toEqual(['flux-system/flux-system: in sync']);
    expectUnchangedPlan(plan);
  });

  it('with no namespaces configured, the scope is where the sources apply: kube-system objects are not compared', () => {
    // DESIGN "Controllers, sources and owners": scope by default.
    expect(evaluated.namespaces).toEqual(['flux-system']);
    expect(evaluated.diff.resources.filter((r) => r.key.namespace === 'kube-system')).toEqual([]);
  });
});

describe('emergency: before anything happened', () => {
  it('Flux (kind-dev) and Argo CD (kind-argo) show zero drift', () => {
    expect(driftOf(run('emergency', 'flux-1-before', 'kind-dev').evaluated)).toEqual([]);
    expect(driftOf(run('emergency', 'argo-1-before', 'kind-argo').evaluated)).toEqual([]);
  });
});

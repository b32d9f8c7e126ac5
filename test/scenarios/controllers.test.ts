// The controller scenarios end to end through the drift pipeline, configured as a user configures them
// (`.github/driftback.yml` as written: the cluster path holds the controller objects, which name the
// paths each source renders): an unchanged cluster opens no pull request, each hand change gives exactly
// the expected edit or is reported with its reason, and every object Git lacks is either a person's
// (extra) or listed under its owner. What each case asserts is the scenario's expected.md.
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseConfig, type Config } from '../../src/core/config/index.js';
import { reconcileDrift, type Evaluation } from '../../src/core/pipeline/index.js';
import { renderCluster } from '../../src/core/render/index.js';
import { displayKey, keyOf, type OwnerClass } from '../../src/core/model/index.js';
import { describeOwner, ownerOf, ownershipContextOf } from '../../src/core/ownership/index.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';
import { diffToJson, renderDiffText } from '../../src/core/report/index.js';

/** The scenario's config as written (`emergency:` belongs to the suspension procedure, read elsewhere). */
function configOf(files: Map<string, string>): Config {
  const text = files.get('.github/driftback.yml')!.replace(/^emergency:\n(?: .*\n)*/m, '');
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

type Evaluated = Extract<Evaluation, { groups: unknown }> & { files: Map<string, string>; config: Config };

function run(scenario: string, snapshot: string, clusterName?: string): Evaluated {
  const files = scenarioRepository(scenario);
  const config = configOf(files);
  const cluster = config.clusters!.find((c) => clusterName === undefined || c.name === clusterName)!;
  const live = scenarioSnapshot(scenario, snapshot);
  const evaluation = reconcileDrift({
    snapshot: live,
    config,
    cluster,
    files,
    history: [],
    minSnapshots: 1,
    declined: new Set(),
  });
  if (evaluation.type !== 'evaluated') throw new Error(`${scenario}/${snapshot}: ${JSON.stringify(evaluation)}`);
  return { ...evaluation, files, config };
}

const edits = (evaluation: Evaluated): Map<string, string> =>
  new Map(evaluation.groups.flatMap((group) => [...group.codify.edits]));
const extras = (evaluation: Evaluated): string[] =>
  evaluation.diff.resources.filter((r) => r.status === 'extra').map((r) => displayKey(r.key));
/** Every drifted field, missing and extra object of the whole diff (before the gate). */
const driftOf = (evaluation: Evaluated): string[] =>
  evaluation.diff.resources.flatMap((r) => {
    if (r.status !== 'modified' && r.status !== 'in-sync') return [`${displayKey(r.key)} ${r.status}`];
    return r.changes.map((change) => `${displayKey(r.key)} ${change.path} (${change.op})`);
  });
const reported = (evaluation: Evaluated): string[] =>
  evaluation.groups
    .flatMap((group) => group.codify.reported)
    .map((entry) => `${displayKey(entry.key)} ${entry.change?.path ?? ''} — ${entry.reason}`);
const ownedBy = (evaluation: Evaluated, owner: OwnerClass): string[] =>
  (evaluation.diff.owned ?? []).filter((o) => o.owner.class === owner).map((o) => displayKey(o.key));
const ownerLines = (evaluation: Evaluated): string[] =>
  (evaluation.diff.owned ?? []).map((o) => `${displayKey(o.key)}: ${o.owner.class} ${o.owner.name}`);

/** The lines of each edited file that differ from the repository's, trimmed: what a reviewer reads. */
function changedLines(evaluation: Evaluated): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [file, text] of edits(evaluation)) {
    const before = evaluation.files.get(file)?.split('\n') ?? [];
    out[file] = text.split('\n').flatMap((line, i) => (line !== before[i] && line.trim() !== '' ? [line.trim()] : []));
  }
  return out;
}

describe('an unchanged cluster: zero drift, no pull request', () => {
  it.each([
    ['flux-podinfo', 'unchanged', undefined],
    ['flux-helm', 'unchanged', undefined],
    ['argocd-csa-label', 'unchanged', undefined],
    ['argocd-ssa-annotation', 'unchanged', undefined],
    ['argocd-ssa-annotation', 'annotation-label', undefined],
    ['emergency', 'flux-1-before', 'kind-dev'],
    ['emergency', 'argo-1-before', 'kind-argo'],
    ['kind-fresh', 'fresh', undefined],
  ])('%s %s', (scenario, snapshot, cluster) => {
    const evaluation = run(scenario, snapshot, cluster);
    expect(driftOf(evaluation)).toEqual([]);
    expect(evaluation.groups).toEqual([]);
    expect(ownedBy(evaluation, 'person').filter((id) => !id.startsWith('Secret/'))).toEqual([]);
  });

  it('flux-podinfo: the Secret a person made is listed under that person, never written', () => {
    const evaluation = run('flux-podinfo', 'unchanged');
    const secret = (evaluation.diff.owned ?? []).find(
      (o) => displayKey(o.key) === 'Secret/flux-system/cluster-secret-vars',
    );
    expect(secret).toMatchObject({ owner: { class: 'person', name: 'kubectl-create' }, reported: { code: 'secret' } });
    expect(ownerLines(evaluation)).toEqual(
      expect.arrayContaining([
        'ConfigMap/podinfo/kube-root-ca.crt: cluster kube-controller-manager',
        'Secret/flux-system/flux-system: operator Flux (bootstrap)',
      ]),
    );
  });
});

describe('flux-podinfo hand changes: each edit where the value is set', () => {
  const evaluation = run('flux-podinfo', 'hand-changes');

  it('replicas into the replicas entry, memory and image into the Flux Kustomization, env as an overlay patch', () => {
    const lines = changedLines(evaluation);
    expect(Object.keys(lines).sort()).toEqual([
      'apps/kind-dev/driftback-deployment-podinfo.yaml',
      'apps/kind-dev/kustomization.yaml',
      'clusters/kind-dev/apps.yaml',
    ]);
    expect(lines['clusters/kind-dev/apps.yaml']).toEqual(['memory: 384Mi', 'newTag: 6.14.1']);
    const kustomization = parse(edits(evaluation).get('apps/kind-dev/kustomization.yaml')!);
    expect(kustomization.replicas).toEqual([{ name: 'podinfo', count: 4 }]);
    expect(kustomization.patches).toEqual([{ path: 'driftback-deployment-podinfo.yaml' }]);
    const patch = parse(edits(evaluation).get('apps/kind-dev/driftback-deployment-podinfo.yaml')!);
    expect(patch.spec.template.spec.containers).toEqual([
      { name: 'podinfod', env: [{ name: 'PODINFO_LEVEL', value: 'debug' }] },
    ]);
    expect(evaluation.groups.every((group) => group.codify.check.ok)).toBe(true);
  });

  it('re-rendering the edited repository gives the live values; the shared base is untouched', () => {
    expect([...edits(evaluation).keys()].some((file) => file.startsWith('apps/base/'))).toBe(false);
    const files = new Map([...evaluation.files, ...edits(evaluation)]);
    const snapshot = scenarioSnapshot('flux-podinfo', 'hand-changes');
    const cluster = evaluation.config.clusters![0]!;
    const rendered = renderCluster(files, cluster, { live: snapshot });
    const found = rendered.objects.find((o) => displayKey(o.key) === 'Deployment/podinfo/podinfo')!;
    const deployment = found.object as unknown as {
      spec: { replicas: number; template: { spec: { containers: Array<Record<string, any>> } } };
    };
    const container = deployment.spec.template.spec.containers[0]!;
    expect(deployment.spec.replicas).toBe(4);
    expect(container.image).toBe('ghcr.io/stefanprodan/podinfo:6.14.1');
    expect(container.resources.limits.memory).toBe('384Mi');
    expect(container.env).toContainEqual({ name: 'PODINFO_LEVEL', value: 'debug' });
  });
});

describe('kind-fresh: Flux bootstrap and the agent on a fresh kind cluster', () => {
  const evaluation = run('kind-fresh', 'fresh');

  it('opens no pull request and proposes no object as a file', () => {
    expect(edits(evaluation).size).toBe(0);
    expect(extras(evaluation)).toEqual([]);
  });

  it('is scoped to what the sources render and their inventories name: not kube-system, not the agent', () => {
    expect(evaluation.namespaces).toEqual(['flux-system']);
    expect(ownedBy(evaluation, 'person')).toEqual([]);
  });
});

describe("hand-made: a person's objects and imperative actions on the kind cluster", () => {
  const evaluation = run('hand-made', 'hand-made');

  it('codifies exactly the ConfigMap a person made and the listener added by hand', () => {
    const written = edits(evaluation);
    expect([...written.keys()].sort()).toEqual([
      'apps/shop/configmap-feature-flags.yaml',
      'apps/shop/gateway.yaml',
      'apps/shop/kustomization.yaml',
    ]);
    expect(parse(written.get('apps/shop/configmap-feature-flags.yaml')!)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'feature-flags', namespace: 'shop' },
      data: { CHECKOUT_V2: 'true' },
    });
    const kustomization = parse(written.get('apps/shop/kustomization.yaml')!) as { resources: string[] };
    expect(kustomization.resources).toContain('configmap-feature-flags.yaml');
    const gateway = written.get('apps/shop/gateway.yaml')!;
    const original = evaluation.files.get('apps/shop/gateway.yaml')!;
    // Only the new item is added: every other byte stays.
    expect(gateway.startsWith(original.slice(0, original.indexOf('---')).trimEnd().replace(/\n$/, ''))).toBe(true);
    const doc = parse(gateway.split('\n---\n')[0]!) as { spec: { listeners: Array<{ name: string }> } };
    expect(doc.spec.listeners.map((l) => l.name)).toEqual(['http', 'https']);
    expect(evaluation.groups.every((group) => group.codify.check.ok)).toBe(true);
  });

  it("never writes the kubectl-run Pod, the agent's Namespace or kind's own objects as files", () => {
    const written = [...edits(evaluation).values()]
      .flatMap((text) => parseAllDocuments(text).map((doc) => doc.toJS()))
      .map((doc: { kind?: string; metadata?: { name?: string } }) => `${doc.kind}/${doc.metadata?.name}`);
    expect(written.filter((name) => /^(Pod\/|Namespace\/driftback|.*\/kindnet)/.test(name))).toEqual([]);
    expect(ownerLines(evaluation)).toContain('Pod/shop/debug: person kubectl-run');
  });

  it('re-rendering the edited path produces the new ConfigMap', () => {
    const files = new Map([...evaluation.files, ...edits(evaluation)]);
    const rendered = renderCluster(files, evaluation.config.clusters![0]!, {
      live: scenarioSnapshot('hand-made', 'hand-made'),
    });
    expect(rendered.objects.map((o) => displayKey(o.key))).toContain('ConfigMap/shop/feature-flags');
  });

  it('reports the rollout restart, the pause, the autoscaled replicas and the debug Pod, never codified', () => {
    const lines = reported(evaluation);
    const restart = 'Deployment/shop/web /spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt — ';
    expect(lines.find((line) => line.startsWith(restart))).toMatch(/kubectl rollout restart/);
    const paused = lines.find((line) => line.startsWith('Deployment/shop/api /spec/paused — '));
    expect(paused).toMatch(/kubectl rollout pause/);
    const replicas = 'Deployment/shop/web /spec/replicas — ';
    expect(lines).toContainEqual(
      `${replicas}an autoscaler owns replicas: HPA shop/web targets this workload; to change replicas, set the HPA's minimum`,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^Pod\/shop\/debug {2}— ephemeral kind/));
  });

  it("outside the sources' namespaces nothing is compared; each object there has its owner, none a person", () => {
    expect(evaluation.namespaces).toEqual(['flux-system', 'shop']);
    expect(extras(evaluation)).toEqual(['ConfigMap/shop/feature-flags']);
    const snapshot = scenarioSnapshot('hand-made', 'hand-made');
    const context = ownershipContextOf(snapshot.items, evaluation.config);
    const owner = (id: string): string => {
      const object = snapshot.items.find((item) => displayKey(keyOf(item)) === id)!;
      return describeOwner(ownerOf(object, context));
    };
    const release = 'managed by Helm release envoy-gateway-system/eg';
    expect(owner('Deployment/envoy-gateway-system/envoy-gateway')).toBe(release);
    expect(owner('Namespace/envoy-gateway-system')).toBe(release);
    expect(owner('Deployment/envoy-gateway-system/envoy-shop-shop-6b1c7a2e')).toBe('created by operator envoy-gateway');
    expect(owner('Namespace/driftback')).toBe('the driftback agent');
    expect(owner('DaemonSet/kube-system/kindnet')).toMatch(/^made by the cluster/);
  });
});

describe('flux-helm: chart output belongs to the Helm release', () => {
  it("unchanged: the chart's objects, HelmChart and release Secrets are the release's", () => {
    const evaluation = run('flux-helm', 'unchanged');
    expect(ownedBy(evaluation, 'helm')).toEqual(
      expect.arrayContaining([
        'Deployment/podinfo/podinfo',
        'Deployment/podinfo/podinfo-redis',
        'Service/podinfo/podinfo',
        'HelmChart/podinfo/podinfo-podinfo',
        'Secret/podinfo/sh.helm.release.v1.podinfo.v1',
      ]),
    );
    expect((evaluation.diff.owned ?? []).filter((o) => o.changes?.length)).toEqual([]);
  });

  it('hand changes: the HelmRelease value is codified; a hand-set image on chart output is reported', () => {
    const evaluation = run('flux-helm', 'hand-changes');
    const written = edits(evaluation);
    // Into the staging overlay's own patch for the release; the shared base stays as it is.
    expect([...written.keys()]).toEqual(['apps/staging/podinfo-values.yaml']);
    const before = evaluation.files.get('apps/staging/podinfo-values.yaml')!;
    expect(written.get('apps/staging/podinfo-values.yaml')).toBe(`${before.trimEnd()}\n    replicaCount: 2\n`);
    const deployment = (evaluation.diff.owned ?? []).find((o) => displayKey(o.key) === 'Deployment/podinfo/podinfo')!;
    expect(deployment.owner).toMatchObject({ class: 'helm', name: 'podinfo/podinfo' });
    expect(deployment.changes).toEqual([
      expect.objectContaining({
        path: '/spec/template/spec/containers/0/image',
        live: 'ghcr.io/stefanprodan/podinfo:6.13.0',
        manager: 'kubectl-set',
        time: '2026-12-01T10:40:00Z',
        cause: 'human',
      }),
    ]);
    const helm = /^Deployment\/podinfo\/podinfo \/spec\/template\/spec\/containers\/0\/image — managed by Helm release/;
    expect(reported(evaluation).filter((line) => helm.test(line))).toEqual([
      expect.stringMatching(/podinfo\/podinfo; .*`image\.tag`/),
    ]);
  });
});

describe('Argo CD hand changes', () => {
  it("argocd-csa-label: two fields into the files that declare them; the person's ConfigMap at the top level", () => {
    const evaluation = run('argocd-csa-label', 'hand-changes');
    expect(extras(evaluation)).toEqual(['ConfigMap/guestbook/frontend-config']);
    expect(changedLines(evaluation)).toEqual({
      'web/guestbook/frontend-deployment.yaml': ['replicas: 5'],
      'web/guestbook/redis-replica-deployment.yaml': ['value: env'],
      'web/guestbook/configmap-frontend-config.yaml': [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        'name: frontend-config',
        'namespace: guestbook',
        'data:',
        'THEME: dark',
      ],
    });
    const frontend = edits(evaluation).get('web/guestbook/frontend-deployment.yaml')!;
    const original = evaluation.files.get('web/guestbook/frontend-deployment.yaml')!;
    expect(frontend.split('\n').filter((line) => line.trim().startsWith('#'))).toEqual(
      original.split('\n').filter((line) => line.trim().startsWith('#')),
    );
  });

  it("argocd-ssa-annotation: the image into the Application's override; ignored replicas shown as ignored", () => {
    const evaluation = run('argocd-ssa-annotation', 'hand-changes');
    expect(changedLines(evaluation)).toEqual({
      'argocd/apps/online-boutique.yaml': [
        '- cartservice=us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.4',
      ],
    });
    expect(reported(evaluation)).toContainEqual(
      'Deployment/boutique/frontend /spec/replicas — ignored: ' +
        'Argo CD Application argocd/online-boutique ignoreDifferences',
    );
    expect(extras(evaluation)).toEqual([]);
  });
});

describe('emergency: the suspension is set aside with its resume step, the change under it codified', () => {
  it('flux-2-suspended: memory into the Deployment; the suspension is not written to Git', () => {
    const evaluation = run('emergency', 'flux-2-suspended', 'kind-dev');
    expect(changedLines(evaluation)).toEqual({ 'apps/podinfo/deployment.yaml': ['memory: 1Gi'] });
    expect(reported(evaluation)).toEqual([
      expect.stringMatching(
        /^Kustomization\/flux-system\/apps \/spec\/suspend — ignored: the suspension.*flux resume kustomization apps/,
      ),
    ]);
  });

  it('argo-2-autosync-off: replicas into the Deployment; automated sync turned off is set aside', () => {
    const evaluation = run('emergency', 'argo-2-autosync-off', 'kind-argo');
    expect(changedLines(evaluation)).toEqual({ 'web/guestbook/frontend-deployment.yaml': ['replicas: 5'] });
    expect(reported(evaluation)).toEqual([
      expect.stringMatching(
        /^Application\/argocd\/guestbook \/spec\/syncPolicy\/automated — ignored: the suspension itself/,
      ),
    ]);
  });
});

describe('driftback diff shows what is reported and who owns what Git lacks', () => {
  const evaluation = run('hand-made', 'hand-made');

  it('as text', () => {
    const text = renderDiffText(evaluation.diff);
    const paused =
      '  reported, not codified: spec.paused (kubectl-rollout at 2026-12-01 12:18 UTC, human): emergency switch';
    expect(text).toContain(paused);
    expect(text).toContain(
      '  reported, not codified: Pod/shop/debug (kubectl-run at 2026-12-01 12:19 UTC, human): ephemeral kind',
    );
    expect(text).toMatch(/Not in Git, not extra:\n( {2}\d+ .*\n)* {2}1 made by a person \(kubectl-run\)/);
  });

  it('as JSON', () => {
    const document = diffToJson(evaluation.diff);
    expect(document.reported).toContainEqual({
      id: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
      path: '/spec/replicas',
      manager: 'kubectl',
      time: '2026-12-01T12:16:00Z',
      cause: 'human',
      reason:
        "an autoscaler owns replicas: HPA shop/web targets this workload; to change replicas, set the HPA's minimum",
      // kubectl scale writes through /scale: kustomize-controller does not take that entry over.
      next: {
        by: 'Flux Kustomization flux-system/apps',
        what: 'keep',
        why: 'written by kubectl through the /scale subresource, which Flux does not take over: it stays until Git declares it',
      },
    });
    expect(document.owners).toContainEqual({
      owner: 'made by a person (kubectl-run)',
      class: 'person',
      objects: [{ group: '', kind: 'Pod', namespace: 'shop', name: 'debug' }],
    });
  });
});

// The controller scenarios end to end through the drift pipeline: an unchanged cluster opens no pull
// request, each hand change gives exactly the expected edit or is reported with its reason, and every
// object Git lacks is either a person's (extra) or listed under its owner. Where a scenario's source
// renders a path of the repository, that path is the cluster path here (`sourcePath`).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig, type Config } from '../../src/core/config/index.js';
import { reconcileDrift, type Evaluation } from '../../src/core/pipeline/index.js';
import { displayKey, type OwnerClass } from '../../src/core/model/index.js';
import { renderManifests } from '../../src/core/manifests/index.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';
import { formatText } from '../../src/cli/format/text.js';
import { toJsonDocument } from '../../src/cli/format/json.js';

/** The scenario's config, with the cluster path set to the path its source renders when given. */
function configOf(files: Map<string, string>, sourcePath?: string): Config {
  let text = files.get('.github/driftback.yml')!;
  // Keys for the controller model and emergencies are read by other steps; the drift pipeline needs none.
  text = text.replace(/\n\s+controller: \w+/g, '').replace(/\nemergency:[\s\S]*$/, '\n');
  if (sourcePath) text = text.replace(/path: .*/, `path: ${sourcePath}`);
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

type Evaluated = Extract<Evaluation, { groups: unknown }> & { files: Map<string, string> };

function run(scenario: string, snapshot: string, sourcePath?: string): Evaluated {
  const files = scenarioRepository(scenario);
  const config = configOf(files, sourcePath);
  const live = scenarioSnapshot(scenario, snapshot);
  const evaluation = reconcileDrift({
    snapshot: live, config, cluster: config.clusters![0]!, files, history: [], minSnapshots: 1, declined: new Set(),
  });
  if (evaluation.type !== 'evaluated') throw new Error(`${scenario}/${snapshot}: ${evaluation.type}`);
  return { ...evaluation, files };
}

const edits = (evaluation: ReturnType<typeof run>): Map<string, string> =>
  new Map(evaluation.groups.flatMap((group) => [...group.codify.edits]));
const extras = (evaluation: ReturnType<typeof run>): string[] =>
  evaluation.diff.resources.filter((r) => r.status === 'extra').map((r) => displayKey(r.key));
const reported = (evaluation: ReturnType<typeof run>): string[] =>
  evaluation.groups.flatMap((group) => group.codify.reported)
    .map((entry) => `${displayKey(entry.key)} ${entry.change?.path ?? ''} — ${entry.reason}`);
const ownedBy = (evaluation: ReturnType<typeof run>, owner: OwnerClass): string[] =>
  (evaluation.diff.owned ?? []).filter((o) => o.owner.class === owner).map((o) => displayKey(o.key));

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

describe('hand-made: a person\'s objects and imperative actions on the kind cluster', () => {
  const evaluation = run('hand-made', 'hand-made', 'apps/shop');

  it('codifies exactly the ConfigMap a person made and the listener added by hand', () => {
    const written = edits(evaluation);
    expect([...written.keys()].sort()).toEqual([
      'apps/shop/configmap-feature-flags.yaml', 'apps/shop/gateway.yaml', 'apps/shop/kustomization.yaml',
    ]);
    expect(parse(written.get('apps/shop/configmap-feature-flags.yaml')!)).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'feature-flags', namespace: 'shop' },
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

  it('re-rendering the edited path produces the new ConfigMap', () => {
    const files = new Map([...evaluation.files, ...edits(evaluation)]);
    const rendered = renderManifests(files, 'apps/shop', {});
    expect(rendered.objects.map((o) => displayKey(o.key))).toContain('ConfigMap/shop/feature-flags');
  });

  it('reports the rollout restart, the pause, the autoscaled replicas and the debug Pod, never codified', () => {
    const lines = reported(evaluation);
    const restart = 'Deployment/shop/web /spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt — ';
    expect(lines.find((line) => line.startsWith(restart))).toMatch(/kubectl rollout restart/);
    const paused = lines.find((line) => line.startsWith('Deployment/shop/api /spec/paused — '));
    expect(paused).toMatch(/kubectl rollout pause/);
    const replicas = 'Deployment/shop/web /spec/replicas — ';
    expect(lines).toContainEqual(`${replicas}an autoscaler owns replicas: HPA shop/web targets this workload`);
    expect(lines).toContainEqual(expect.stringMatching(/^Pod\/shop\/debug {2}— ephemeral kind/));
  });

  it('lists the debug Pod under the person who made it; the ConfigMap is the one extra object', () => {
    const owners = (evaluation.diff.owned ?? []).map((o) => `${displayKey(o.key)}: ${o.owner.class} ${o.owner.name}`);
    expect(owners).toContain('Pod/shop/debug: person kubectl-run');
    expect(extras(evaluation)).toEqual(['ConfigMap/shop/feature-flags']);
  });
});

describe('flux-helm: chart output belongs to the Helm release', () => {
  it('unchanged: no pull request; the chart\'s objects, HelmChart and release Secrets are the release\'s', () => {
    const evaluation = run('flux-helm', 'unchanged', 'apps/staging');
    expect(edits(evaluation).size).toBe(0);
    expect(extras(evaluation)).toEqual([]);
    expect(ownedBy(evaluation, 'helm')).toEqual(expect.arrayContaining([
      'Deployment/podinfo/podinfo', 'Deployment/podinfo/podinfo-redis', 'Service/podinfo/podinfo',
      'HelmChart/podinfo/podinfo-podinfo', 'Secret/podinfo/sh.helm.release.v1.podinfo.v1',
    ]));
    expect((evaluation.diff.owned ?? []).filter((o) => o.changes?.length)).toEqual([]);
  });

  it('hand changes: the HelmRelease value is codified; a hand-set image on chart output is reported', () => {
    const evaluation = run('flux-helm', 'hand-changes', 'apps/staging');
    const written = edits(evaluation);
    // Into the staging overlay's own patch for the release; the shared base stays as it is.
    expect([...written.keys()]).toEqual(['apps/staging/podinfo-values.yaml']);
    const before = evaluation.files.get('apps/staging/podinfo-values.yaml')!;
    expect(written.get('apps/staging/podinfo-values.yaml')).toBe(`${before.trimEnd()}\n    replicaCount: 2\n`);
    const deployment = (evaluation.diff.owned ?? []).find((o) => displayKey(o.key) === 'Deployment/podinfo/podinfo')!;
    expect(deployment.owner).toMatchObject({ class: 'helm', name: 'podinfo/podinfo' });
    expect(deployment.changes).toEqual([expect.objectContaining({
      path: '/spec/template/spec/containers/0/image', live: 'ghcr.io/stefanprodan/podinfo:6.13.0',
      manager: 'kubectl-set', time: '2026-12-01T10:40:00Z', cause: 'human',
    })]);
    const helm = /^Deployment\/podinfo\/podinfo \/spec\/template\/spec\/containers\/0\/image — managed by Helm release/;
    expect(reported(evaluation)).toContainEqual(expect.stringMatching(helm));
    expect(reported(evaluation).find((line) => helm.test(line))).toMatch(/podinfo\/podinfo; .*`image\.tag`/);
  });
});

describe('Argo CD: an unchanged cluster opens no pull request', () => {
  it.each([
    ['argocd-csa-label', 'unchanged', 'web/guestbook'],
    ['argocd-ssa-annotation', 'unchanged', 'apps/online-boutique'],
    ['argocd-ssa-annotation', 'annotation-label', 'apps/online-boutique'],
  ])('%s %s', (scenario, snapshot, path) => {
    const evaluation = run(scenario, snapshot, path);
    expect(edits(evaluation).size).toBe(0);
    expect(ownedBy(evaluation, 'person')).toEqual([]);
  });

  it('argocd-csa-label: the ConfigMap a person made in the app\'s namespace is the one extra object', () => {
    const evaluation = run('argocd-csa-label', 'hand-changes', 'web/guestbook');
    expect(extras(evaluation)).toEqual(['ConfigMap/guestbook/frontend-config']);
    const file = [...edits(evaluation)].find(([path]) => path.endsWith('configmap-frontend-config.yaml'))!;
    expect(parse(file[1])).toEqual({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frontend-config', namespace: 'guestbook' },
      data: { THEME: 'dark' },
    });
  });
});

describe('Flux: an unchanged cluster opens no pull request', () => {
  it.each([
    ['flux-podinfo', 'unchanged', 'apps/kind-dev'],
    ['emergency', 'flux-1-before', 'apps/podinfo'],
  ])('%s %s', (scenario, snapshot, path) => {
    const evaluation = run(scenario, snapshot, path);
    expect(edits(evaluation).size).toBe(0);
    expect(ownedBy(evaluation, 'person').filter((id) => !id.startsWith('Secret/'))).toEqual([]);
  });
});

describe('driftback diff shows what is reported and who owns what Git lacks', () => {
  const evaluation = run('hand-made', 'hand-made', 'apps/shop');

  it('as text', () => {
    const text = formatText(evaluation.diff);
    const paused = '  reported, not codified: /spec/paused (kubectl-rollout at 2026-12-01T12:18:00Z): imperative';
    expect(text).toContain(paused);
    expect(text).toContain('  reported, not codified: Pod/shop/debug: ephemeral kind');
    expect(text).toMatch(/not in Git, not extra:\n( {2}\d+ .*\n)* {2}1 made by a person \(kubectl-run\)/);
  });

  it('as JSON', () => {
    const document = toJsonDocument(evaluation.diff);
    expect(document.reported).toContainEqual({
      id: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' }, path: '/spec/replicas',
      manager: 'kubectl', time: '2026-12-01T12:16:00Z',
      reason: 'an autoscaler owns replicas: HPA shop/web targets this workload',
    });
    expect(document.owners).toContainEqual({
      owner: 'made by a person (kubectl-run)', class: 'person',
      objects: [{ group: '', kind: 'Pod', namespace: 'shop', name: 'debug' }],
    });
  });
});

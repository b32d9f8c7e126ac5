// A multi-source Argo CD Application (`spec.sources`), rendered as the controller and repo-server render
// it: every entry rendered and joined (controller/state.go GetRepoObjs), a `ref`-only entry giving
// nothing, and `$<ref>/…` value files read from the ref'd entry's repository root
// (reposerver/repository/repository.go resolveReferencedSources, getResolvedRefValueFile). The chart
// entry is compared object for object with `helm template` run with the same values file.
import { describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { argoPodinfoTemplate, expectSame, packagedChart, withoutStamps } from '../support/charts.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);
const charts = createChartRenderer({ helm: found.helm, chartsDir: packagedChart('upstream/charts/podinfo') });

// The shape of Argo CD's docs/user-guide/multiple_sources.md example: a chart of a Helm repository with
// its values file in a Git repository named by `ref: values`.
const APP = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: podinfo
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/gitops.git
    path: ignored
  sources:
    - repoURL: https://stefanprodan.github.io/podinfo
      chart: podinfo
      targetRevision: 6.14.1
      helm:
        valueFiles:
          - $values/envs/prod/podinfo-values.yaml
    - repoURL: https://github.com/acme/gitops.git
      targetRevision: main
      ref: values
    - repoURL: https://github.com/acme/gitops.git
      targetRevision: main
      path: envs/prod/extras
  destination:
    server: https://kubernetes.default.svc
    namespace: podinfo
`;

const VALUES = 'replicaCount: 3\nui:\n  message: from the values repository\n';
const EXTRA = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: podinfo-extra\ndata:\n  tier: gold\n';
const IGNORED = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-spec-source\n';
const SNAPSHOT = { items: [], repository: 'acme/gitops', server: { gitVersion: 'v1.31.4', resources: [] } };
const TARGET = { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' as const };

function repository(app: string): Map<string, string> {
  return new Map([
    ['apps/podinfo.yaml', app],
    ['envs/prod/podinfo-values.yaml', VALUES],
    ['envs/prod/extras/configmap.yaml', EXTRA],
    ['ignored/configmap.yaml', IGNORED],
  ]);
}

function render(app: string) {
  return renderCluster(repository(app), TARGET, { live: SNAPSHOT, charts });
}

describe('a multi-source Argo CD Application', () => {
  it('renders the chart with the values file of the ref source, as helm template does, and every other source', () => {
    const rendered = render(APP);
    expect(rendered.errors).toEqual([]);
    expect(rendered.notes).toEqual([]);
    const theirs = argoPodinfoTemplate(packagedChart('upstream/charts/podinfo'), VALUES, 'podinfo-values.yaml');
    const ours = rendered.objects.map((d) => d.object).filter((obj) => obj.kind !== 'Application');
    const chartObjects = ours.filter((obj) => obj.metadata?.name !== 'podinfo-extra');
    expectSame(chartObjects, theirs, 'podinfo');
    const deployment = chartObjects.find((obj) => obj.kind === 'Deployment') as any;
    expect(deployment.spec.replicas).toBe(3);
    const env = deployment.spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'PODINFO_UI_MESSAGE', value: 'from the values repository' });
    // The path source: its directory, in the destination namespace; `spec.source` is not read.
    const extra = ours.find((obj) => obj.metadata?.name === 'podinfo-extra');
    expect(withoutStamps(extra!)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'podinfo-extra', namespace: 'podinfo' },
      data: { tier: 'gold' },
    });
    expect(ours.some((obj) => obj.metadata?.name === 'from-spec-source')).toBe(false);
    expect(rendered.sources.find((s) => s.source.id.name === 'podinfo')?.scope).toBe('rendered');
  });

  it('changes with the values file: a values edit in the ref repository changes the chart output', () => {
    const files = repository(APP);
    files.set('envs/prod/podinfo-values.yaml', VALUES.replace('replicaCount: 3', 'replicaCount: 5'));
    const rendered = renderCluster(files, TARGET, { live: SNAPSHOT, charts });
    const deployment = rendered.objects.find((d) => d.object.kind === 'Deployment')!.object as any;
    expect(deployment.spec.replicas).toBe(5);
  });

  it('reports values of another repository as not rendered, and keeps the other sources', () => {
    const rendered = render(
      APP.replace(
        'https://github.com/acme/gitops.git\n      targetRevision: main\n      ref: values',
        'https://github.com/acme/values.git\n      targetRevision: main\n      ref: values',
      ),
    );
    expect(rendered.notes.map((note) => note.message)).toEqual([
      'Application argocd/podinfo: reported, not rendered: values from another repository https://github.com/acme/values.git',
    ]);
    expect(rendered.notRendered).toContainEqual(
      expect.objectContaining({ field: 'spec.sources[0].helm', namespace: 'podinfo' }),
    );
    expect(rendered.objects.map((d) => d.object.metadata?.name)).toContain('podinfo-extra');
    expect(rendered.objects.some((d) => d.object.kind === 'Deployment')).toBe(false);
  });

  it('names a ref no source declares, as the repo-server does', () => {
    const rendered = render(APP.replace('$values/envs', '$config/envs'));
    expect(rendered.notes.map((note) => note.message)).toEqual([
      'Application argocd/podinfo: reported, not rendered: $config/envs/prod/podinfo-values.yaml: source referenced ' +
        '"$config", which is not one of the available sources ($values)',
    ]);
  });

  it('keeps a $ref path inside the ref repository', () => {
    const rendered = render(APP.replace('$values/envs', '$values/../envs'));
    expect(rendered.notes.map((note) => note.message)).toEqual([
      'Application argocd/podinfo: reported, not rendered: $values/../envs/prod/podinfo-values.yaml: the path ' +
        'leaves the repository of $values',
    ]);
  });

  it('lists a source of another repository as not rendered, with the namespace its objects land in', () => {
    const rendered = render(
      APP.replace(
        'https://github.com/acme/gitops.git\n      targetRevision: main\n      path: envs/prod/extras',
        'https://github.com/acme/platform.git\n      targetRevision: main\n      path: envs/prod/extras',
      ),
    );
    expect(rendered.notRendered).toContainEqual(
      expect.objectContaining({
        field: 'spec.sources[2]',
        namespace: 'podinfo',
        reason:
          'Application argocd/podinfo: spec.sources[2] applies https://github.com/acme/platform.git, another ' +
          'repository: its objects are not checked here',
      }),
    );
    expect(rendered.objects.some((d) => d.object.kind === 'Deployment')).toBe(true);
    expect(rendered.objects.some((d) => d.object.metadata?.name === 'podinfo-extra')).toBe(false);
  });
});

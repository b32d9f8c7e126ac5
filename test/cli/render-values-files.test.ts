// `driftback render` of Flux HelmReleases whose `chart.spec.valuesFiles` replace the chart's values.yaml,
// compared object for object with `helm template` given the same defaults: a chart of this repository
// (files relative to the source's root; the chart's values.yaml left out when not listed) and a chart of
// a HelmRepository from --charts (files of its archive).
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { maskSecretValues } from '../../src/core/k8s/index.js';
import { chartFiles, expectSame, helmTemplateObjects, packagedChart } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { pinnedHelm } from '../support/tools.js';
import { snapshotText, writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const WEBAPP = join(REPO_ROOT, 'test/fixtures/charts/webapp');

/** The chart's values.yaml with its PodDisruptionBudget off: the base the local release lists first. */
const BASE = chartFiles('charts/webapp', 'c')
  .get('c/values.yaml')!
  .replace('podDisruptionBudget:\n  enabled: true', 'podDisruptionBudget:\n  enabled: false');

const LOCAL = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: webapp, namespace: shop}
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/webapp
      valuesFiles:
        - clusters/prod/webapp-base.yaml
        - ./charts/webapp/values-prod.yaml
      sourceRef:
        kind: GitRepository
        name: flux-system
        namespace: flux-system
  values:
    replicaCount: 5
`;

const REMOTE = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: acme
  namespace: edge
spec:
  interval: 1h
  url: https://charts.acme.example
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: webapp
  namespace: edge
spec:
  interval: 10m
  install:
    crds: Skip
  chart:
    spec:
      chart: webapp
      version: 1.4.0
      valuesFiles: [values.yaml, values-prod.yaml]
      sourceRef:
        kind: HelmRepository
        name: acme
  values:
    featureFlag: "no"
`;

const ARGS = ['--no-hooks', '--kube-version', 'v1.33.1'];

function repository(): string {
  const files = chartFiles('charts/webapp', 'charts/webapp');
  files.set('clusters/prod/webapp.yaml', LOCAL);
  files.set('clusters/prod/webapp-base.yaml', BASE);
  files.set('clusters/prod/remote.yaml', REMOTE);
  files.set('.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n');
  const repo = writeRepository('values-files-repo', files);
  writeFileSync(join(repo, 'snapshot.json'), snapshotText());
  return repo;
}

/** The chart's objects `driftback render` printed, without helm-controller's labels. */
function chartObjects(printed: KubeObject[], namespace: string): KubeObject[] {
  return printed.filter(
    (obj) =>
      obj.kind !== 'HelmRelease' &&
      obj.kind !== 'HelmRepository' &&
      (obj.metadata?.namespace === namespace || (namespace === 'shop' && !obj.metadata?.namespace)),
  );
}

describe('driftback render with Flux chart.spec.valuesFiles', () => {
  const repo = repository();
  const charts = packagedChart('charts/webapp');
  const env = { HELM_BINARY: pinnedHelm(), PATH: '/usr/bin:/bin' };
  const args = ['render', repo, '--cluster', 'prod', '--snapshot', join(repo, 'snapshot.json'), '--charts', charts];

  /** Helm's objects as render prints them: a Secret's values masked, named in the release namespace. */
  const masked = (objects: KubeObject[], namespace: string) =>
    objects.map((obj) =>
      obj.kind === 'Secret' ? maskSecretValues({ ...obj, metadata: { namespace, ...obj.metadata } }) : obj,
    );

  it('renders both charts as helm template does with the merged files as the chart defaults', async () => {
    const { code, stdout, stderr } = await runCli(args, { env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const printed = parseAllDocuments(stdout).map((doc) => doc.toJS() as KubeObject);
    // The local chart's values.yaml is replaced by the listed files: the oracle's chart has the base as its own.
    const replaced = mkdtempSync(join(tmpdir(), 'values-files-chart-'));
    cpSync(WEBAPP, replaced, { recursive: true });
    writeFileSync(join(replaced, 'values.yaml'), BASE);
    const local = helmTemplateObjects('webapp', replaced, [
      ...['--namespace', 'shop', '--include-crds', ...ARGS],
      ...['--values', join(WEBAPP, 'values-prod.yaml'), '--set', 'replicaCount=5'],
    ]);
    expectSame(chartObjects(printed, 'shop'), masked(local, 'shop'), 'shop');
    expect(local.some((obj) => obj.kind === 'PodDisruptionBudget')).toBe(false);
    const remote = helmTemplateObjects('webapp', join(charts, 'webapp-1.4.0.tgz'), [
      ...['--namespace', 'edge', ...ARGS],
      ...['--values', join(WEBAPP, 'values-prod.yaml'), '--set-string', 'featureFlag=no'],
    ]);
    expectSame(chartObjects(printed, 'edge'), masked(remote, 'edge'), 'edge');
    const deployment = remote.find((obj) => obj.kind === 'Deployment') as { spec?: { replicas?: number } };
    expect(deployment.spec?.replicas).toBe(3);
  });

  it("says a missing local values file is not rendered, with source-controller's message", async () => {
    const broken = repository();
    writeFileSync(join(broken, 'clusters/prod/webapp.yaml'), LOCAL.replace('webapp-base.yaml', 'webapp-gone.yaml'));
    const run = await runCli(
      ['render', broken, '--cluster', 'prod', '--snapshot', join(broken, 'snapshot.json'), '--charts', charts],
      { env },
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "not rendered: HelmRelease/shop/webapp: clusters/prod/webapp.yaml:1 (spec.chart): values files merge error: no values file found at path '/clusters/prod/webapp-gone.yaml' (reference 'clusters/prod/webapp-gone.yaml')\n",
    );
  });
});

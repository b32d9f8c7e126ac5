// Helm's stamps are never drift: `driftback diff` of the Bitnami WordPress chart (with its MariaDB
// subchart) against the objects Helm rendered for another chart version, carrying the stamps the
// controller leaves. helm-controller installs a GitRepository chart with `reconcileStrategy: Revision`
// as version `<version>+<revision>` (the chart writes `helm.sh/chart: wordpress-27.0.0_<revision>` on
// its objects and on their Pod templates) and annotates every object with `meta.helm.sh/release-name`
// and `-namespace`; Argo CD renders with `helm template` (no meta.helm.sh annotations) and adds its
// tracking id, and a chart version bump in Git not yet synced changes only `helm.sh/chart`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import type { JsonDiffDocument } from '../../src/core/report/index.js';
import { chartFiles, helmTemplateObjects } from '../support/charts.js';
import { pinnedHelm } from '../support/tools.js';
import { snapshotText, writeRepository } from './repository.js';
import { runCli } from './run-cli.js';

const CHART = 'charts/wordpress';
const VALUES = ['existingSecret: wordpress-credentials', 'mariadb:', '  auth: {existingSecret: mariadb-credentials}'];
const CLUSTER_SCOPED = new Set(['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding']);

/** The chart as `helm dependency build` leaves it: MariaDB and Memcached with the `common` library they need. */
function wordpressFiles(version = '27.0.0'): Map<string, string> {
  const files = chartFiles('upstream/charts/wordpress', CHART);
  for (const [path, text] of [...files]) {
    if (!path.startsWith(`${CHART}/charts/common/`)) continue;
    for (const sub of ['mariadb', 'memcached'])
      files.set(path.replace('/charts/common/', `/charts/${sub}/charts/common/`), text);
  }
  const chartYaml = `${CHART}/Chart.yaml`;
  files.set(chartYaml, files.get(chartYaml)!.replace(/^version: 27\.0\.0$/m, `version: ${version}`));
  return files;
}

/** `helm template` of the chart at `version`, as the controller rendered it for the live objects. */
function helmRendered(version: string, release: string, namespace: string): KubeObject[] {
  const dir = writeRepository('wordpress-live', wordpressFiles(version));
  const values = join(dir, 'values.yaml');
  writeFileSync(values, VALUES.join('\n'));
  const args = ['--namespace', namespace, '--include-crds', '--kube-version', 'v1.33.1', '--values', values];
  return helmTemplateObjects(release, join(dir, CHART), args);
}

/** What the API server returns for `object` after `manager` applied it with `stamps` added. */
function applied(object: KubeObject, index: number, manager: string, stamps: (o: KubeObject) => void): KubeObject {
  const live = structuredClone(object);
  if (!live.metadata!.namespace && !CLUSTER_SCOPED.has(live.kind!)) live.metadata!.namespace = 'blog';
  stamps(live);
  live.metadata = {
    ...live.metadata,
    uid: `00000000-0000-0000-0000-${String(index).padStart(12, '0')}`,
    resourceVersion: String(500 + index),
    generation: 1,
    creationTimestamp: '2026-12-01T09:00:00Z',
    managedFields: [
      {
        manager,
        operation: 'Apply',
        apiVersion: live.apiVersion,
        time: '2026-12-01T09:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {},
      },
    ],
  };
  return live;
}

async function diffJson(files: Map<string, string>, live: KubeObject[]) {
  const repo = writeRepository('helm-stamps', files);
  writeFileSync(join(repo, 'live.json'), snapshotText(live));
  const args = ['diff', '--desired', repo, '--live', join(repo, 'live.json'), '--cluster', 'prod', '--format', 'json'];
  const result = await runCli(args, { env: { HELM_BINARY: pinnedHelm(), PATH: '/usr/bin:/bin' } });
  return { ...result, doc: result.code === 2 ? undefined : (JSON.parse(result.stdout) as JsonDiffDocument) };
}

const label = (o: KubeObject, key: string, value: string) =>
  (o.metadata!.labels = { ...o.metadata!.labels, [key]: value });
const annotate = (o: KubeObject, key: string, value: string) =>
  (o.metadata!.annotations = { ...o.metadata!.annotations, [key]: value });

describe('Helm stamps on live objects are never drift', () => {
  it('Flux helm-controller: a Revision chart version and the meta.helm.sh release annotations', async () => {
    const release = [
      'apiVersion: helm.toolkit.fluxcd.io/v2',
      'kind: HelmRelease',
      'metadata: {name: wordpress, namespace: blog}',
      'spec:',
      '  interval: 10m',
      '  chart:',
      '    spec:',
      `      chart: ./${CHART}`,
      '      reconcileStrategy: Revision',
      '      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
      '  values:',
      ...VALUES.map((line) => `    ${line}`),
      '',
    ].join('\n');
    const files = wordpressFiles();
    files.set('clusters/prod/wordpress.yaml', release);
    files.set('.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n');
    const rendered = helmRendered('27.0.0+4e3c5d6a1b2c', 'wordpress', 'blog');
    expect(JSON.stringify(rendered)).toContain('"helm.sh/chart":"wordpress-27.0.0_4e3c5d6a1b2c"');
    const live = rendered.map((object, i) =>
      applied(object, i, 'helm-controller', (o) => {
        label(o, 'helm.toolkit.fluxcd.io/name', 'wordpress');
        label(o, 'helm.toolkit.fluxcd.io/namespace', 'blog');
        annotate(o, 'meta.helm.sh/release-name', 'wordpress');
        annotate(o, 'meta.helm.sh/release-namespace', 'blog');
      }),
    );
    const helmRelease = applied(parseDocument(release).toJS() as KubeObject, 99, 'kustomize-controller', () => {});
    const { code, stderr, doc } = await diffJson(files, [...live, helmRelease]);
    expect(stderr).toBe('');
    expect(doc!.resources.filter((r) => r.status !== 'in-sync')).toEqual([]);
    expect(doc!.summary).toMatchObject({ modified: 0, missing: 0, extra: 0, inSync: live.length + 1 });
    expect(code).toBe(0);
  });

  it('Argo CD: a chart version bump in Git not yet synced, tracking ids and no meta.helm.sh annotations', async () => {
    const application = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata: {name: wordpress, namespace: argocd}',
      'spec:',
      '  project: default',
      `  source: {repoURL: https://github.com/acme/gitops.git, targetRevision: main, path: ${CHART}}`,
      '  destination: {server: https://kubernetes.default.svc, namespace: blog}',
      '',
    ].join('\n');
    const files = wordpressFiles('27.0.1');
    files.set(`${CHART}/values-blog.yaml`, VALUES.join('\n'));
    files.set(
      'clusters/prod/wordpress.yaml',
      application.replace(`path: ${CHART}}`, `path: ${CHART}, helm: {valueFiles: [values-blog.yaml]}}`),
    );
    files.set('.github/driftback.yml', 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: argocd\n');
    const rendered = helmRendered('27.0.0', 'wordpress', 'blog');
    const live = rendered.map((object, i) =>
      applied(object, i, 'argocd-controller', (o) => {
        const group = o.apiVersion!.includes('/') ? o.apiVersion!.split('/')[0] : '';
        annotate(o, 'argocd.argoproj.io/tracking-id', `wordpress:${group}/${o.kind}:blog/${o.metadata!.name}`);
      }),
    );
    const app = parseDocument(files.get('clusters/prod/wordpress.yaml')!).toJS() as KubeObject;
    const { code, stderr, doc } = await diffJson(files, [
      ...live,
      applied(app, 99, 'kubectl-client-side-apply', () => {}),
    ]);
    expect(stderr).toBe('');
    expect(doc!.resources.filter((r) => r.status !== 'in-sync')).toEqual([]);
    expect(doc!.summary).toMatchObject({ modified: 0, missing: 0, extra: 0, inSync: live.length + 1 });
    expect(code).toBe(0);
  });
});

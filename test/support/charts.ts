// Chart fixtures as a repository holds them, and `helm template` run directly on them: the oracle
// driftback's chart renders are compared with, object for object.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { REPO_ROOT } from './fixtures.js';
import { pinnedHelm } from './tools.js';

/** An Argo CD Application of podinfo 6.14.1 from its Helm repository, two replicas, into namespace podinfo. */
export const PODINFO_APPLICATION = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: podinfo
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://stefanprodan.github.io/podinfo
    chart: podinfo
    targetRevision: 6.14.1
    helm:
      valuesObject:
        replicaCount: 2
  destination:
    server: https://kubernetes.default.svc
    namespace: podinfo
`;

/** A Flux HelmRelease of podinfo 6.14.1 from its HelmRepository (declared with it), two replicas. */
export const PODINFO_RELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
  namespace: podinfo
spec:
  interval: 10m
  chart:
    spec:
      chart: podinfo
      version: 6.14.1
      sourceRef:
        kind: HelmRepository
        name: podinfo
  values:
    replicaCount: 2
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: podinfo
  namespace: podinfo
spec:
  interval: 1h
  url: https://stefanprodan.github.io/podinfo
`;

/** A chart fixture's files (under test/fixtures), keyed as the repository holds them at `at`. */
export function chartFiles(fixture: string, at: string): Map<string, string> {
  const root = join(REPO_ROOT, 'test/fixtures', fixture);
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(`${at}/${relative(root, path)}`, readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** The pinned Helm's output, run with a home of its own that is removed afterwards. */
function pinnedHelmRun(args: string[]): string {
  const home = mkdtempSync(join(tmpdir(), 'helm-home-'));
  try {
    return execFileSync(pinnedHelm(), args, { encoding: 'utf8', env: { HOME: home, PATH: '/usr/bin:/bin' } });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** `helm template <release> <chart> <args…>` with the pinned Helm; hooks dropped as Flux and Argo CD drop them. */
export function helmTemplateObjects(release: string, chart: string, args: string[]): KubeObject[] {
  const out = pinnedHelmRun(['template', release, chart, ...args]);
  return parseAllDocuments(out)
    .map((doc) => doc.toJS() as KubeObject)
    .filter((obj) => obj && !obj.metadata?.annotations?.['helm.sh/hook']);
}

/** `helm package` of a chart fixture into a fresh directory, as `helm pull` names it (`<name>-<version>.tgz`). */
export function packagedChart(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'charts-'));
  pinnedHelmRun(['package', join(REPO_ROOT, 'test/fixtures', fixture), '--destination', dir]);
  return dir;
}

/**
 * `helm template` of the packaged podinfo 6.14.1 chart in `chartsDir`, with the arguments Argo CD's
 * repo-server builds for a release in namespace podinfo: `values` written as the values file `valuesName`.
 */
export function argoPodinfoTemplate(chartsDir: string, values: string, valuesName = 'values.yaml'): KubeObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'argo-values-'));
  writeFileSync(join(dir, valuesName), values);
  return helmTemplateObjects('podinfo', join(chartsDir, 'podinfo-6.14.1.tgz'), [
    '--namespace',
    'podinfo',
    '--no-hooks',
    '--include-crds',
    '--kube-version',
    'v1.31.4',
    '--values',
    join(dir, valuesName),
  ]);
}

export function objectKey(obj: KubeObject): string {
  return `${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`;
}

/** The controllers' own stamps (Argo CD's tracking id, helm-controller's labels), dropped before comparing with `helm template`. */
export function withoutStamps(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  delete copy.metadata?.annotations?.['argocd.argoproj.io/tracking-id'];
  for (const label of ['helm.toolkit.fluxcd.io/name', 'helm.toolkit.fluxcd.io/namespace'])
    delete copy.metadata?.labels?.[label];
  for (const field of ['annotations', 'labels'] as const)
    if (copy.metadata?.[field] && Object.keys(copy.metadata[field]).length === 0) delete copy.metadata[field];
  return copy;
}

/** Ours equal theirs object for object; Helm's namespace-less objects land in the release namespace. */
export function expectSame(ours: KubeObject[], theirs: KubeObject[], namespace: string): void {
  const expected = new Map(
    theirs.map((obj) => {
      const copy = structuredClone(obj);
      const clusterScoped = ['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding'].includes(copy.kind!);
      if (!copy.metadata!.namespace && !clusterScoped) copy.metadata!.namespace = namespace;
      return [objectKey(copy), copy];
    }),
  );
  expect(ours.map(objectKey).sort()).toEqual([...expected.keys()].sort());
  for (const obj of ours) expect(withoutStamps(obj), objectKey(obj)).toEqual(expected.get(objectKey(obj)));
}

/** A Flux HelmRelease apps/action of the chart test/fixtures/charts/release-action at that path of this repository. */
export const RELEASE_ACTION = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: action
  namespace: apps
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/release-action
      sourceRef:
        kind: GitRepository
        name: flux-system
        namespace: flux-system
`;

/** RELEASE_ACTION as the cluster holds it, with `history` (newest first) in its status. */
export function liveReleaseAction(history: Array<{ status: string; version: number }>): KubeObject {
  const entries = history.map((entry) => ({ name: 'action', namespace: 'apps', chartVersion: '1.0.0', ...entry }));
  return { ...(parse(RELEASE_ACTION) as KubeObject), status: { history: entries } };
}

// A Flux HelmRelease in an emergency, as the App sees it: the repository (the local chart `charts/web`
// and the release at clusters/prod), the objects the pinned Helm renders from it, and the snapshots
// the controllers leave — the Kustomization that applies clusters/prod at a commit, the HelmRelease as
// kustomize-controller applies it with helm-controller's v2 status (generation released, history) and
// a `flux suspend` when suspended, the chart's Deployment applied by helm-controller and changed by a
// person when `edit` says so. The emergency tests of test/app read these.
import { expect } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { liveAfterHandEdit } from '../core/codify/support.js';
import type { AppHarness } from './app.js';
import { chartFiles } from './charts.js';
import { uploadAtCapture } from './emergency-app.js';
import { pinnedChartRenderer } from './tools.js';

export const RELEASE = [
  'apiVersion: helm.toolkit.fluxcd.io/v2',
  'kind: HelmRelease',
  'metadata:',
  '  name: podinfo',
  '  namespace: podinfo',
  'spec:',
  '  interval: 10m',
  '  chart:',
  '    spec:',
  '      chart: ./charts/web',
  '      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}',
  '  values:',
  '    replicaCount: 2',
  '',
].join('\n');
export const RELEASE_PATH = 'clusters/prod/podinfo.yaml';
// No drift.minSnapshots: an emergency PR does not wait for the change to persist.
const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n    namespaces: [podinfo]\n';
const CHART_VERSION = '1.2.3';

/** The repository with `release` as the HelmRelease's manifest. */
export function releaseRepository(release = RELEASE): Map<string, string> {
  const files = chartFiles('kustomize-helm-oracle/local-chart/input/charts/web', 'charts/web');
  files.set('.github/driftback.yml', CONFIG);
  files.set(RELEASE_PATH, release);
  return files;
}

/** What the chart renders from `files`, as helm-controller applies it (the pinned Helm). */
export function renderedRelease(files: Map<string, string>): KubeObject[] {
  const charts = pinnedChartRenderer();
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const out = renderCluster(files, target, {
    live: { items: [], server: { gitVersion: 'v1.31.2', resources: [] } },
    charts,
  });
  expect(out.errors).toEqual([]);
  return out.objects.map((desired) => structuredClone(desired.object));
}

export const isDeployment = (o: KubeObject): boolean => o.kind === 'Deployment';

/** The Kustomization that applies clusters/prod, at the commit kustomize-controller last applied. */
function rootKustomization(sha: string): KubeObject {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'flux-system', namespace: 'flux-system', generation: 1 },
    spec: {
      interval: '10m',
      path: './clusters/prod',
      prune: true,
      sourceRef: { kind: 'GitRepository', name: 'flux-system' },
    },
    status: { lastAppliedRevision: `main@sha1:${sha}`, lastAttemptedRevision: `main@sha1:${sha}` },
  };
}

export interface ReleaseState {
  generation: number;
  /** The generation helm-controller last released, and the Helm release versions so far (newest first). */
  released: number;
  releases: number;
  /** When `flux suspend helmrelease` ran, while it is suspended. */
  suspendedAt?: string;
}

function releaseManagers(object: KubeObject, state: ReleaseState): unknown[] {
  const managedFields: unknown[] = [
    {
      manager: 'kustomize-controller',
      operation: 'Apply',
      apiVersion: object.apiVersion,
      time: '2026-12-02T02:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:values': {} } },
    },
  ];
  if (!state.suspendedAt) return managedFields;
  managedFields.push({
    manager: 'flux',
    operation: 'Update',
    apiVersion: object.apiVersion,
    time: state.suspendedAt,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:spec': { 'f:suspend': {} } },
  });
  return managedFields;
}

/** The live HelmRelease: applied by kustomize-controller, status written by helm-controller. */
function liveRelease(object: KubeObject, state: ReleaseState): KubeObject {
  if (state.suspendedAt) object.spec = { ...(object.spec as object), suspend: true };
  else if (state.releases > 1) object.spec = { ...(object.spec as object), suspend: false };
  object.metadata = {
    ...object.metadata,
    generation: state.generation,
    labels: {
      'kustomize.toolkit.fluxcd.io/name': 'flux-system',
      'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
    },
    managedFields: releaseManagers(object, state) as never,
  };
  const history = Array.from({ length: state.releases }, (_, i) => ({
    name: 'podinfo',
    namespace: 'podinfo',
    version: state.releases - i,
    chartName: 'web',
    chartVersion: CHART_VERSION,
    status: i === 0 ? 'deployed' : 'superseded',
  }));
  object.status = {
    observedGeneration: state.generation,
    lastAttemptedGeneration: state.released,
    lastAttemptedRevision: CHART_VERSION,
    lastAttemptedReleaseAction: state.releases > 1 ? 'upgrade' : 'install',
    history,
    conditions: [{ type: 'Ready', status: 'True', reason: 'UpgradeSucceeded', message: 'Helm upgrade succeeded' }],
  };
  return object;
}

/** A person's `kubectl scale` of the chart's Deployment: the count, and when (the managedFields time). */
export interface ReleaseScale {
  replicas: number;
  at?: string;
}

/** The snapshot's objects: the root Kustomization at `sha`, the release in `release`, the Deployment scaled by `edit`. */
export function releaseItems(
  objects: KubeObject[],
  release: ReleaseState,
  sha: string,
  edit?: ReleaseScale,
): KubeObject[] {
  return [
    rootKustomization(sha),
    ...structuredClone(objects).map((object) => {
      if (object.kind === 'HelmRelease') return liveRelease(object, release);
      if (!isDeployment(object)) return object;
      const live =
        edit === undefined
          ? liveAfterHandEdit(object, [])
          : liveAfterHandEdit(object, [{ segments: ['spec', 'replicas'], value: edit.replicas }], 'kubectl');
      // Helm's apply is helm-controller's, not kustomize-controller's.
      live.metadata.managedFields![0]!.manager = 'helm-controller';
      if (edit === undefined) live.metadata.managedFields = live.metadata.managedFields!.slice(0, 1);
      else if (edit.at) live.metadata.managedFields![1]!.time = edit.at;
      return live;
    }),
  ];
}

/** Uploads a snapshot of `prod` at `capturedAt`, the clock there, and waits for what it set off. */
export async function uploadRelease(
  app: AppHarness,
  clock: { now: Date },
  capturedAt: string,
  items: KubeObject[],
): Promise<void> {
  const snapshot = {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: app.repository,
    cluster: 'prod',
    capturedAt,
    agent: { version: '0.1.0' },
    server: { gitVersion: 'v1.31.2' },
    scope: { complete: true, errors: [] },
    items,
  };
  await uploadAtCapture(app, clock, snapshot);
}

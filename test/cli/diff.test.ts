// `driftback diff` end to end, in-process: upstream live/desired pairs (exit code and what upstream
// asserts about them), real GitOps trees with live objects built from them, and golden text and
// markdown output.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderManifests } from '../../src/core/manifests/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import type { JsonDiffDocument } from '../../src/core/report/index.js';
import { fixturePath, readFixtureTree } from '../support/fixtures.js';
import { expectGolden } from './golden.js';
import { appliedLive, touchedBy } from './live-builder.js';
import { runCli } from './run-cli.js';

const K8S_DIFF = fixturePath('k8s-diff');
const work = mkdtempSync(join(tmpdir(), 'driftback-diff-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const diffIn = (cwd: string, ...args: string[]) => runCli(['diff', ...args], { cwd });
const json = (stdout: string) => JSON.parse(stdout) as JsonDiffDocument;

describe('upstream live/desired pairs', () => {
  const PAIRS: Array<[name: string, desired: string, live: string, extra: string[], code: number]> = [
    [
      'S1 service targetPort changed',
      'gitops-engine/smd-service-config.yaml',
      'gitops-engine/smd-service-live.yaml',
      [],
      1,
    ],
    [
      'S2 port dropped from Git',
      'gitops-engine/smd-service-config-2-ports.yaml',
      'gitops-engine/smd-service-live.yaml',
      [],
      1,
    ],
    ['S5 deployment defaults', 'gitops-engine/smd-deploy-config.yaml', 'gitops-engine/smd-deploy-live.yaml', [], 0],
    [
      'S9 helm statefulset',
      'gitops-engine/elasticsearch-config.json',
      'gitops-engine/elasticsearch-live.json',
      ['--namespace', 'elasticsearch4'],
      0,
    ],
    ['S11 real-world deployment', 'gitops-engine/deployment-config.json', 'gitops-engine/deployment-live.json', [], 0],
    ['S12 explicit namespace', 'gitops-engine/spinnaker-sa-config.json', 'gitops-engine/spinnaker-sa-live.json', [], 0],
    [
      'hand-edited annotation and replicas',
      'argo-cd-controller/target-deployment.yaml',
      'argo-cd-controller/live-deployment.yaml',
      [],
      1,
    ],
    [
      'controller-owned replicas',
      'argo-cd-util-argo/desired_deployment.yaml',
      'argo-cd-util-argo/live_deployment_with_managed_replica.yaml',
      [],
      1,
    ],
    [
      'client-side-applied replication controller',
      'kubectl-apply/rc.yaml',
      'kubectl-apply/rc-managedfields-lastapplied.yaml',
      [],
      0,
    ],
  ];

  it.each(PAIRS)('%s', async (_name, desired, live, extra, code) => {
    const result = await diffIn(K8S_DIFF, '--desired', desired, '--live', live, ...extra);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(code);
    const { summary } = json(
      (await diffIn(K8S_DIFF, '--desired', desired, '--live', live, ...extra, '--format', 'json')).stdout,
    );
    expect(summary.modified + summary.missing + summary.extra > 0).toBe(code === 1);
  });

  it('S1: reports the rtmp targetPort, and not the defaulted internalTrafficPolicy', async () => {
    const { stdout } = await diffIn(
      K8S_DIFF,
      '--desired',
      'gitops-engine/smd-service-config.yaml',
      '--live',
      'gitops-engine/smd-service-live.yaml',
      '--format',
      'json',
    );
    const [service] = json(stdout).resources;
    expect(service.status).toBe('modified');
    expect(service.changes).toEqual([
      expect.objectContaining({ op: 'replace', desired: 1936, live: 1935, manager: 'argocd-controller' }),
    ]);
    expect(service.changes[0].path).toMatch(/^\/spec\/ports\/\d+\/targetPort$/);
    expect(stdout).not.toContain('internalTrafficPolicy');
    expect(service.health).toEqual({ status: 'Healthy' });
  });

  it('S2: a port the applier owns and Git dropped is a planned removal', async () => {
    const { stdout } = await diffIn(
      K8S_DIFF,
      '--desired',
      'gitops-engine/smd-service-config-2-ports.yaml',
      '--live',
      'gitops-engine/smd-service-live.yaml',
      '--format',
      'json',
    );
    const ops = json(stdout).resources[0].changes.map((change) => change.op);
    expect(ops).toContain('remove');
  });

  it('names the human-made change with its manager, time and cause', async () => {
    const { stdout } = await diffIn(
      K8S_DIFF,
      '--desired',
      'argo-cd-controller/target-deployment.yaml',
      '--live',
      'argo-cd-controller/live-deployment.yaml',
      '--format',
      'json',
    );
    const changes = json(stdout).resources[0].changes;
    expect(changes).toContainEqual(
      expect.objectContaining({
        path: '/metadata/annotations/iksm-version',
        desired: '1.0',
        live: '2.0',
        op: 'replace',
        manager: 'janitor',
        time: '2022-01-06T18:21:04Z',
      }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ path: '/spec/replicas', desired: 1, live: 4 }));
  });

  it('lists a field Git declares that a controller owns as a conflict, with the fix', async () => {
    const { stdout } = await diffIn(
      K8S_DIFF,
      '--desired',
      'argo-cd-util-argo/desired_deployment.yaml',
      '--live',
      'argo-cd-util-argo/live_deployment_with_managed_replica.yaml',
      '--format',
      'json',
    );
    const [deployment] = json(stdout).resources;
    expect(deployment.conflicts).toContainEqual(
      expect.objectContaining({ path: '/spec/replicas', manager: 'kube-controller-manager' }),
    );
    expect(deployment.conflicts?.find((conflict) => conflict.path === '/spec/replicas')?.fix).toMatch(/remove/i);
  });

  it('S9 without the namespace Argo CD would give it: missing in one namespace, extra in the other', async () => {
    const result = await diffIn(
      K8S_DIFF,
      '--desired',
      'gitops-engine/elasticsearch-config.json',
      '--live',
      'gitops-engine/elasticsearch-live.json',
      '--format',
      'json',
    );
    expect(result.code).toBe(1);
    expect(json(result.stdout).summary).toMatchObject({ missing: 1, extra: 1 });
  });

  it.each([
    [
      'controller-owned-replicas',
      'argo-cd-util-argo/desired_deployment.yaml',
      'argo-cd-util-argo/live_deployment_with_managed_replica.yaml',
    ],
    ['hand-edited-deployment', 'argo-cd-controller/target-deployment.yaml', 'argo-cd-controller/live-deployment.yaml'],
    ['service-port-removed', 'gitops-engine/smd-service-config-2-ports.yaml', 'gitops-engine/smd-service-live.yaml'],
  ])('golden text and markdown: %s', async (name, desired, live) => {
    expectGolden(`${name}.txt`, (await diffIn(K8S_DIFF, '--desired', desired, '--live', live)).stdout);
    expectGolden(
      `${name}.md`,
      (await diffIn(K8S_DIFF, '--desired', desired, '--live', live, '--format', 'markdown')).stdout,
    );
  });
});

/** Writes a snapshot document of the given objects and returns its path. */
function writeSnapshot(
  name: string,
  items: KubeObject[],
  scope: Record<string, unknown> = { complete: true, errors: [] },
): string {
  const path = join(work, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'driftback.dev/v1',
      kind: 'Snapshot',
      repository: 'acme/platform-gitops',
      cluster: 'prod-eu',
      capturedAt: '2026-12-02T03:05:00Z',
      scope,
      items,
    }),
  );
  return path;
}

describe('real GitOps trees', () => {
  const guestbookDir = fixturePath('manifests', 'argo-cd', 'test', 'e2e', 'testdata', 'guestbook');
  const rendered = renderManifests(
    readFixtureTree('manifests', 'argo-cd', 'test', 'e2e', 'testdata', 'guestbook'),
    '',
    { defaultNamespace: 'guestbook' },
  );
  /** `driftback diff` of the guestbook tree against `snapshot`, in namespace guestbook, with `flags`. */
  const diffGuestbook = (snapshot: string, ...flags: string[]) =>
    diffIn(work, '--desired', guestbookDir, '--live', snapshot, '--namespace', 'guestbook', ...flags);

  it('a cluster that matches the kustomization exactly is in sync (exit 0)', async () => {
    const snapshot = writeSnapshot('guestbook-in-sync', rendered.objects.map(appliedLive));
    const result = await diffGuestbook(snapshot);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('2 in sync, 0 modified, 0 missing, 0 extra, 0 ignored\n');
  });

  it('shows a scaled Deployment, a deleted Service and a hand-made ConfigMap', async () => {
    const [deployment] = rendered.objects.filter((object) => object.key.kind === 'Deployment').map(appliedLive);
    (deployment.spec as { replicas: number }).replicas = 5;
    touchedBy(deployment, 'kubectl-scale', '2026-12-02T03:02:11Z', { 'f:spec': { 'f:replicas': {} } });
    deployment.status = { observedGeneration: 1, replicas: 5, updatedReplicas: 5, availableReplicas: 5 };
    const handMade: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'feature-flags',
        namespace: 'guestbook',
        managedFields: [
          {
            manager: 'kubectl-create',
            operation: 'Update',
            time: '2026-12-02T03:03:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { 'f:beta': {} } },
          },
        ],
      },
      data: { beta: 'on' },
    };
    const snapshot = writeSnapshot('guestbook-drifted', [deployment, handMade]);

    const text = await diffGuestbook(snapshot);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('+  replicas: 5 # set by kubectl-scale at 2026-12-02 03:02 UTC (human)');
    expectGolden('guestbook-drifted.txt', text.stdout);
    expectGolden('guestbook-drifted.md', (await diffGuestbook(snapshot, '--format', 'markdown')).stdout);

    const document = json((await diffGuestbook(snapshot, '--format', 'json')).stdout);
    expect(document.summary).toEqual({ inSync: 0, modified: 1, missing: 1, extra: 1, ignored: 0 });
    expect(document.resources.map((resource) => [resource.id.kind, resource.status, resource.health?.status])).toEqual(
      expect.arrayContaining([
        ['Deployment', 'modified', 'Healthy'],
        ['Service', 'missing', undefined],
        ['ConfigMap', 'extra', 'Healthy'],
      ]),
    );
    expect(document.resources.find((resource) => resource.status === 'modified')?.changes).toEqual([
      {
        path: '/spec/replicas',
        desired: 0,
        live: 5,
        op: 'replace',
        manager: 'kubectl-scale',
        time: '2026-12-02T03:02:11Z',
        cause: 'human',
      },
    ]);
  });

  it('claims nothing missing for a type the snapshot could not list', async () => {
    const [deployment] = rendered.objects.filter((object) => object.key.kind === 'Deployment').map(appliedLive);
    const snapshot = writeSnapshot('guestbook-partial', [deployment], {
      complete: false,
      errors: [{ resource: 'v1/services', reason: 'Forbidden' }],
    });
    const result = await diffGuestbook(snapshot, '--format', 'json');
    expect(json(result.stdout).summary.missing).toBe(0);
    expect(result.code).toBe(0);
  });

  it('claims nothing missing in a namespace the snapshot did not list, as the App does', async () => {
    const [deployment] = rendered.objects.filter((object) => object.key.kind === 'Deployment').map(appliedLive);
    const scope = { namespaces: ['elsewhere'], complete: true, errors: [] };
    const snapshot = writeSnapshot('guestbook-other-namespace', [deployment], scope);
    const result = await diffGuestbook(snapshot, '--format=json');
    expect(result.stderr).toBe('');
    expect(json(result.stdout).summary).toMatchObject({ missing: 0, extra: 0 });
    expect(result.code).toBe(0);
  });

  it("refuses, with the App's reason, a snapshot that holds none of the cluster's namespaces", async () => {
    const repo = join(work, 'scoped-repo');
    cpSync(guestbookDir, join(repo, 'clusters', 'prod-eu'), { recursive: true });
    mkdirSync(join(repo, '.github'));
    const config = join(repo, '.github', 'driftback.yml');
    writeFileSync(config, 'clusters:\n  - name: prod-eu\n    path: clusters/prod-eu\n    namespaces: [guestbook]\n');
    const snapshot = writeSnapshot('guestbook-jobs-only', [], { namespaces: ['jobs'], complete: true, errors: [] });
    const result = await diffIn(work, '--config', config, '--cluster', 'prod-eu', '--live', snapshot);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'driftback diff: the snapshot holds none of the namespaces configured for prod-eu (guestbook): ' +
        "check the agent's namespaces\n",
    );
  });

  describe('earlier snapshots given first: the persistence gate, as the App applies it (drift.minSnapshots: 2)', () => {
    const deployments = () => rendered.objects.map(appliedLive);
    const scaledBy = (replicas: number) => {
      const objects = deployments();
      const deployment = objects.find((object) => object.kind === 'Deployment')!;
      (deployment.spec as { replicas: number }).replicas = replicas;
      touchedBy(deployment, 'kubectl-scale', '2026-12-02T03:02:11Z', { 'f:spec': { 'f:replicas': {} } });
      return objects;
    };
    const args = (...lives: string[]) => [
      '--desired',
      guestbookDir,
      '--namespace',
      'guestbook',
      ...lives.flatMap((live) => ['--live', live]),
    ];

    it('a change seen in both snapshots is drift', async () => {
      const lives = args(writeSnapshot('gate-1', scaledBy(5)), writeSnapshot('gate-2', scaledBy(5)));
      const result = await diffIn(work, ...lives, '--format', 'json');
      expect(result.code).toBe(1);
      const modified = json(result.stdout).resources.filter((r) => r.status === 'modified');
      expect(modified.map((r) => r.changes.map((c) => c.path))).toEqual([['/spec/replicas']]);
    });

    it('a change only the newest snapshot holds is not drift yet, and the text says so', async () => {
      const lives = args(writeSnapshot('gate-3', deployments()), writeSnapshot('gate-4', scaledBy(5)));
      const result = await diffIn(work, ...lives);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        '1 more difference is not in enough consecutive snapshots yet (drift.minSnapshots): ' +
          'not drift until it persists.',
      );
    });

    it('a value that keeps moving is not drift either', async () => {
      const lives = args(writeSnapshot('gate-5', scaledBy(4)), writeSnapshot('gate-6', scaledBy(5)));
      const result = await diffIn(work, ...lives, '--format', 'json');
      expect(json(result.stdout).summary.modified).toBe(0);
    });

    it('refuses snapshots of two clusters', async () => {
      const other = join(work, 'other-cluster.json');
      const text = readFileSync(writeSnapshot('gate-7', deployments()), 'utf8');
      writeFileSync(other, text.replace('"cluster":"prod-eu"', '"cluster":"prod-us"'));
      const result = await diffIn(work, ...args(other, writeSnapshot('gate-8', deployments())));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the snapshots are of different clusters (prod-us, prod-eu)');
    });
  });

  it('a whole multi-file tree applied unchanged is in sync', async () => {
    const dir = fixturePath('manifests', 'microservices-demo', 'kubernetes-manifests');
    const objects = renderManifests(readFixtureTree('manifests', 'microservices-demo', 'kubernetes-manifests'), '', {
      defaultNamespace: 'shop',
    }).objects;
    expect(objects.length).toBeGreaterThan(20);
    const snapshot = writeSnapshot('shop', objects.map(appliedLive));
    const result = await diffIn(work, '--desired', dir, '--live', snapshot, '--namespace', 'shop', '--format', 'json');
    expect(result.stderr).toBe('');
    expect(json(result.stdout).summary).toMatchObject({ inSync: objects.length, modified: 0, missing: 0, extra: 0 });
    expect(result.code).toBe(0);
  });

  it('--cluster reads the whole repository so an overlay can use ../base', async () => {
    const repo = join(work, 'flux-repo');
    cpSync(fixturePath('manifests', 'flux2-kustomize-helm-example'), repo, { recursive: true });
    mkdirSync(join(repo, '.github'));
    writeFileSync(
      join(repo, '.github', 'driftback.yml'),
      'clusters:\n  - name: staging\n    path: apps/staging\n    defaultNamespace: podinfo\n',
    );
    const files = readFixtureTree('manifests', 'flux2-kustomize-helm-example');
    const objects = renderManifests(files, 'apps/staging', { defaultNamespace: 'podinfo' }).objects;
    expect(objects.length).toBeGreaterThan(0);
    const snapshot = writeSnapshot('flux-staging', objects.map(appliedLive));
    const result = await diffIn(
      work,
      '--config',
      join(repo, '.github', 'driftback.yml'),
      '--cluster',
      'staging',
      '--live',
      snapshot,
    );
    // The HelmRelease's chart comes from a Helm repository: without --charts that release is not rendered,
    // said with its file and reason; the rest is compared, and the result is partial (exit 3).
    const offline =
      'not rendered: chart podinfo >=1.0.0-alpha from https://stefanprodan.github.io/podinfo is not available ' +
      'offline (give --charts DIR or set DRIFTBACK_CHARTS_DIR)';
    expect(result.stderr).toBe(
      `warning: HelmRelease/podinfo/podinfo: flux-repo/apps/base/podinfo/release.yaml:1 (spec.chart): ${offline}\n`,
    );
    expect(result.stdout).toContain(`Sources:\n  podinfo/podinfo: ${offline}\n`);
    expect(result.stdout).toContain(`${objects.length} in sync, 0 modified, 0 missing, 0 extra, 0 ignored\n`);
    expect(result.code).toBe(3);
  });

  it('colors the diff on a terminal unless NO_COLOR is set', async () => {
    const args = [
      'diff',
      '--desired',
      'argo-cd-controller/target-deployment.yaml',
      '--live',
      'argo-cd-controller/live-deployment.yaml',
    ];
    expect((await runCli(args, { cwd: K8S_DIFF, tty: true })).stdout).toContain('\u001b[32m+');
    expect((await runCli(args, { cwd: K8S_DIFF, tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\u001b[');
  });
});

describe('a kustomization at the repository root, with generator sources and a Helm chart', () => {
  const repo = join(work, 'root-kustomization');
  mkdirSync(join(repo, '.github'), { recursive: true });
  writeFileSync(
    join(repo, '.github', 'driftback.yml'),
    'clusters:\n  - name: prod\n    path: .\n    defaultNamespace: shop\n',
  );
  writeFileSync(
    join(repo, 'kustomization.yaml'),
    [
      'namespace: shop',
      'configMapGenerator:',
      '- name: settings',
      '  envs:',
      '  - app.env',
      '  files:',
      '  - notes.txt',
      'helmCharts:',
      '- name: cache',
      '  repo: https://charts.example.invalid',
      '',
    ].join('\n'),
  );
  writeFileSync(join(repo, 'app.env'), 'MODE=fast\n');
  writeFileSync(join(repo, 'notes.txt'), 'hello\n');
  const files = new Map([
    ['kustomization.yaml', readFileSync(join(repo, 'kustomization.yaml'), 'utf8')],
    ['app.env', 'MODE=fast\n'],
    ['notes.txt', 'hello\n'],
  ]);
  const rendered = renderManifests(files, '', { defaultNamespace: 'shop' });
  const chartMade: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cache', namespace: 'shop' },
    spec: { replicas: 1 },
  };
  writeFileSync(
    join(repo, 'live.json'),
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...rendered.objects.map((o) => o.object), chartMade] }),
  );

  it('reads the .env and .txt sources, renders path ".", and sets aside what the chart may have made', async () => {
    expect(rendered.errors).toEqual([]);
    expect(rendered.objects.map((o) => o.key.name)).toEqual([expect.stringMatching(/^settings-/)]);
    const result = await runCli(
      [
        'diff',
        '--cluster',
        'prod',
        '--config',
        join(repo, '.github', 'driftback.yml'),
        '--live',
        join(repo, 'live.json'),
      ],
      { cwd: repo },
    );
    expect(result.stderr).toContain(
      'kustomization.yaml:8 (helmCharts): not rendered: kustomize inflates helmCharts only with --enable-helm',
    );
    expect(result.stderr).toContain('1 live object not compared');
    // The chart was not rendered: the result is partial.
    expect(result.code).toBe(3);
  });
});

// `driftback plan` on a pull request that changes a file under the path of an ApplicationSet's git
// directories generator: the Application the generator makes for that directory is rendered at head
// and at base, so the plan shows the change — not "no changes".
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { liveOf } from '../core/plan/build.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-appset-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: apps
  namespace: argocd
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
    - git:
        repoURL: https://github.com/acme/gitops.git
        revision: HEAD
        directories:
          - path: apps/*
  template:
    metadata:
      name: '{{.path.basename}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/gitops.git
        targetRevision: HEAD
        path: '{{.path.path}}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{.path.basename}}'
      syncPolicy:
        automated: {prune: true, selfHeal: true}
`;

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;

const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n';

function writeTree(root: string, files: Record<string, string>): Map<string, string> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, root, path)), { recursive: true });
    writeFileSync(join(work, root, path), text);
  }
  return new Map(Object.entries(files));
}

const tree = (replicas: number) => ({
  '.github/driftback.yml': CONFIG,
  'clusters/prod/appset.yaml': APPSET,
  'apps/web/deployment.yaml': deployment(replicas),
});
const base = writeTree('base', tree(2));
writeTree('head', tree(3));

// Live: what base applied, as the generated Application deployed it.
const applied = renderCluster(
  base,
  { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default' },
  { live: { items: [], repository: 'acme/gitops' } },
);
writeFileSync(
  join(work, 'live.json'),
  JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/gitops',
    cluster: 'prod',
    capturedAt: new Date(Date.now() - 60_000).toISOString(),
    scope: { complete: true, errors: [] },
    items: applied.objects.map((desired) => liveOf(desired)),
  }),
);

writeTree('scm', {
  ...tree(3),
  'clusters/prod/appset.yaml': APPSET.replace(
    /- git:[\s\S]*?- path: apps\/\*\n/,
    '- scmProvider:\n        github: {organization: acme}\n',
  ),
});

describe('driftback plan with an ApplicationSet', () => {
  it('shows the change to a file under a git directories generator path', async () => {
    expect(applied.objects.map((d) => `${d.key.kind}/${d.key.namespace}/${d.key.name}`)).toContain(
      'Deployment/web/web',
    );
    const result = await runCli(
      ['plan', '--head', 'head', '--base', 'base', '--live', 'live.json', '--cluster', 'prod'],
      { cwd: work },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('prod: 0 to create, 1 to update, 0 to prune');
    expect(result.stdout).toContain('  ~ Deployment/web/web');
    expect(result.stdout).toContain('      ~ spec.replicas: 2 → 3');
    expect(result.code).toBe(1);
  });

  it('says an ApplicationSet whose generator is not expanded is not rendered, and why', async () => {
    const result = await runCli(['plan', '--head', 'scm', '--live', 'live.json', '--cluster', 'prod'], { cwd: work });
    expect(result.stdout + result.stderr).toContain(
      'clusters/prod/appset.yaml (spec.generators): not rendered: ApplicationSet argocd/apps: scmProvider generator is not expanded',
    );
  });
});

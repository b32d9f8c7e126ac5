// `driftback plan` on a pull request that changes only an ApplicationSet's `templatePatch`: the patch
// (rendered with each generated Application's parameters, applied as Argo CD applies it) changes what
// one generated Application deploys, and the plan shows that change for it alone.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { liveOf } from '../core/plan/build.js';
import { runCli } from './run-cli.js';
import { deploymentYaml } from '../support/appset-repo.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-appset-patch-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const appset = (templatePatch: string) => `apiVersion: argoproj.io/v1alpha1
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
${templatePatch}`;

const PATCH = `  templatePatch: |
    spec:
      project: other
      source:
        kustomize:
          images:
          {{- if eq .path.basename "web" }}
            - nginx:1.28
          {{- end }}
`;

const tree = (patch: string) => ({
  '.github/driftback.yml': 'clusters:\n  - name: prod\n    path: clusters/prod\n',
  'clusters/prod/appset.yaml': appset(patch),
  'apps/web/kustomization.yaml': 'resources: [deployment.yaml]\n',
  'apps/web/deployment.yaml': deploymentYaml('web'),
  'apps/api/kustomization.yaml': 'resources: [deployment.yaml]\n',
  'apps/api/deployment.yaml': deploymentYaml('api'),
});

function writeTree(root: string, files: Record<string, string>): Map<string, string> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, root, path)), { recursive: true });
    writeFileSync(join(work, root, path), text);
  }
  return new Map(Object.entries(files));
}

const base = writeTree('base', tree(''));
writeTree('head', tree(PATCH));
writeTree('broken', tree(PATCH.replace('- nginx:1.28', '- {{ .path.missing }}')));

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

describe('driftback plan with an ApplicationSet templatePatch', () => {
  it('shows the image the patch sets for the one Application it applies to', async () => {
    expect(applied.objects.map((d) => `${d.key.kind}/${d.key.namespace}/${d.key.name}`).sort()).toEqual([
      'ApplicationSet/argocd/apps',
      'Deployment/api/api',
      'Deployment/web/web',
    ]);
    const result = await runCli(
      ['plan', '--head', 'head', '--base', 'base', '--live', 'live.json', '--cluster', 'prod'],
      { cwd: work },
    );
    expect(result.stderr).toBe('');
    // The ApplicationSet itself is updated too: its templatePatch is new.
    expect(result.stdout).toContain('prod: 0 to create, 2 to update, 0 to prune, 1 unchanged');
    expect(result.stdout).toContain('  argocd/api: no changes\n  argocd/web: 1 to update\n');
    expect(result.stdout).toContain(
      '  ~ Deployment/web/web\n      ~ spec.template.spec.containers[web].image: nginx:1.27 → nginx:1.28\n',
    );
    expect(result.stdout).toContain('  ~ ApplicationSet/argocd/apps\n      + spec.templatePatch:');
    expect(result.stdout).not.toContain('Deployment/api/api');
    expect(result.code).toBe(1);
  });

  it('says the ApplicationSet is not rendered when its patch fails for a generated Application', async () => {
    const result = await runCli(['plan', '--head', 'broken', '--live', 'live.json', '--cluster', 'prod'], {
      cwd: work,
    });
    expect(result.stdout + result.stderr).toContain('not rendered: ApplicationSet argocd/apps: templatePatch: ');
    expect(result.stdout + result.stderr).toContain('map has no entry for key "missing"');
  });
});

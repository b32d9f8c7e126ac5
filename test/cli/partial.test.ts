// One object never stops a cluster: a manifest with generateName, an env file with empty values and a
// source that fails to render give a partial result (exit 3, `partial: true`, each source's scope),
// never an error, and everything else is still compared, planned and codified.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonDiffDocument } from '../../src/core/report/index.js';
import { CONTROLLER_SCENARIOS } from '../support/controllers.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-partial-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const fluxKustomization = (name: string, path: string): string =>
  [
    'apiVersion: kustomize.toolkit.fluxcd.io/v1',
    'kind: Kustomization',
    'metadata:',
    `  name: ${name}`,
    '  namespace: flux-system',
    'spec:',
    '  interval: 10m0s',
    `  path: ${path}`,
    '  prune: true',
    '  sourceRef:',
    '    kind: GitRepository',
    '    name: flux-system',
    '  targetNamespace: podinfo',
    '',
  ].join('\n');

// Argo CD's documented hook example (docs/user-guide/resource_hooks.md): a Job with generateName.
const MIGRATE_JOB = `apiVersion: batch/v1
kind: Job
metadata:
  generateName: schema-migrate-
  annotations:
    argocd.argoproj.io/hook: PreSync
spec:
  template:
    spec:
      containers:
        - name: schema-migrate
          image: postgres:16
          command: ["psql", "-c", "select 1"]
      restartPolicy: Never
`;

// The Flux scenario (test/fixtures/controllers/flux-podinfo) with more Kustomizations: one whose
// env file has empty values, one holding a generateName Job (Flux builds every path with kustomize,
// which refuses an object without a name), one whose kustomization names a file that is not there, one
// with an object without apiVersion and one with a file holding kustomize's own Kustomization.
const flux = join(work, 'flux');
cpSync(join(CONTROLLER_SCENARIOS, 'flux-podinfo', 'repo'), flux, { recursive: true });
write(flux, {
  'clusters/kind-dev/settings.yaml': fluxKustomization('settings', './settings'),
  'clusters/kind-dev/jobs.yaml': fluxKustomization('jobs', './jobs'),
  'clusters/kind-dev/broken.yaml': fluxKustomization('broken', './broken'),
  'clusters/kind-dev/untyped.yaml': fluxKustomization('untyped', './untyped'),
  'clusters/kind-dev/kustomize-file.yaml': fluxKustomization('kustomize-file', './kustomize-file'),
  'settings/kustomization.yaml': [
    'configMapGenerator:',
    '  - name: settings',
    '    envs: [settings.env]',
    'resources: [flags.yaml]',
    'replacements:',
    '  - source: {kind: ConfigMap, name: settings, fieldPath: data.PROXY}',
    '    targets:',
    '      - select: {kind: ConfigMap, name: flags}',
    '        fieldPaths: [data.proxy]',
    '',
  ].join('\n'),
  'settings/settings.env': '# no proxy in this cluster\nPROXY=\nLOG_LEVEL=info\nDEBUG\n',
  'settings/flags.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  proxy: set-by-replacement\n',
  'jobs/migrate.yaml': MIGRATE_JOB,
  'broken/kustomization.yaml': 'resources:\n  - service.yaml\n  - gone.yaml\n',
  'broken/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]\n',
  // kustomize builds an object without apiVersion; no cluster applies it, so Flux applies nothing here.
  'untyped/kustomization.yaml': 'resources:\n  - objects.yaml\n',
  'untyped/objects.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed\n---\nkind: Widget\nmetadata:\n  name: untyped\n',
  // A path without kustomization.yaml: Flux lists every YAML file, kustomize keeps the one holding a
  // kustomize Kustomization as an object, and the apply fails on it (no such API on a cluster).
  'kustomize-file/app.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n',
  'kustomize-file/kustomize.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata:\n  name: inner\nresources:\n  - app.yaml\n',
});
const fluxLive = join(CONTROLLER_SCENARIOS, 'flux-podinfo', 'live', 'unchanged.json');
const fluxArgs = ['--cluster', 'kind-dev', '--config', join(flux, '.github', 'driftback.yml'), '--live', fluxLive];

describe('a Flux cluster with sources that do not render', () => {
  it('diff compares the sources that render and says which did not (exit 3, partial)', async () => {
    const run = await runCli(['diff', ...fluxArgs, '--format', 'json']);
    expect(run.code).toBe(3);
    const document = JSON.parse(run.stdout) as JsonDiffDocument & {
      partial?: boolean;
      sources: Array<{ name: string; scope: string; reason?: string; counts: { drift?: number } }>;
      notRendered: Array<{ file: string; reason: string }>;
    };
    expect(document.partial).toBe(true);
    const byName = new Map(document.sources.map((source) => [source.name, source]));
    expect(byName.get('flux-system/apps')).toMatchObject({ scope: 'rendered', counts: { drift: 0 } });
    expect(byName.get('flux-system/settings')).toMatchObject({ scope: 'rendered' });
    expect(byName.get('flux-system/jobs')).toMatchObject({ scope: 'not-rendered' });
    expect(byName.get('flux-system/jobs')!.reason).toMatch(/generateName "schema-migrate-".*kustomize refuses it/);
    expect(byName.get('flux-system/broken')).toMatchObject({ scope: 'not-rendered' });
    expect(byName.get('flux-system/broken')!.reason).toMatch(/gone\.yaml/);
    expect(byName.get('flux-system/untyped')).toMatchObject({ scope: 'not-rendered' });
    expect(byName.get('flux-system/untyped')!.reason).toMatch(
      /untyped\/objects\.yaml:6: apiVersion: Widget "untyped" has no apiVersion: kustomize builds it, but no cluster can apply it/,
    );
    expect(byName.get('flux-system/kustomize-file')).toMatchObject({ scope: 'not-rendered' });
    expect(byName.get('flux-system/kustomize-file')!.reason).toMatch(
      /kustomize-file\/kustomize\.yaml:1: apiVersion: Kustomization "inner" \(kustomize\.config\.k8s\.io\/v1beta1\) configures kustomize: .*no cluster serves that API/,
    );
    // The podinfo objects that render are still compared: in sync, as before.
    expect(document.summary.inSync).toBeGreaterThanOrEqual(20);
    // Nothing of a source that was not rendered is reported (the Service of `broken` is not missing).
    const ids = document.resources.map((resource) => `${resource.id.kind}/${resource.id.name}`);
    expect(ids).not.toContain('Service/web');
    expect(ids).not.toContain('Job/schema-migrate-');
    expect(ids).not.toContain('ConfigMap/typed');
    expect(ids).not.toContain('ConfigMap/kept');
    expect(ids).not.toContain('Kustomization/inner');
    // The env file's empty values are values: the generated ConfigMap and the replacement carry "".
    const settings = document.resources.find((resource) => resource.id.name.startsWith('settings-'));
    expect(settings?.status).toBe('missing');
    expect(run.stderr).toMatch(/warning: \S*broken\/kustomization\.yaml.*not rendered: .*gone\.yaml/);
  });

  it('the text report names each source with its scope', async () => {
    const run = await runCli(['diff', ...fluxArgs]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/flux-system\/broken: not rendered: .*gone\.yaml/);
    expect(run.stdout).toMatch(/flux-system\/apps: in sync/);
    // The env file's `PROXY=` and bare `DEBUG` are "", and the replacement copies "" (kubectl kustomize
    // prints the same ConfigMap name: settings-g5g4km82ch).
    expect(run.stdout).toMatch(/ConfigMap\/podinfo\/settings-g5g4km82ch {2}missing/);
    expect(run.stdout).toMatch(/-data:\n- {2}DEBUG: ""\n- {2}LOG_LEVEL: info\n- {2}PROXY: ""/);
    expect(run.stdout).toMatch(/- {2}name: flags\n[^]*?-data:\n- {2}proxy: ""/);
  });

  it('plan plans the sources that render and says the plan is partial', async () => {
    const run = await runCli(['plan', '--head', flux, ...fluxArgs, '--format', 'json']);
    expect(run.code).toBe(3);
    const plan = JSON.parse(run.stdout) as {
      partial?: boolean;
      create: Array<{ id: { kind: string; name: string } }>;
      prune: unknown[];
      warnings: Array<{ code: string; message: string }>;
    };
    expect(plan.partial).toBe(true);
    const created = plan.create.map((entry) => `${entry.id.kind}/${entry.id.name}`);
    expect(created).toContain('ConfigMap/flags');
    expect(created).not.toContain('Service/web');
    expect(plan.prune).toEqual([]);
    expect(plan.warnings.some((w) => w.code === 'not-rendered' && /gone\.yaml/.test(w.message))).toBe(true);
  });

  it('codify codifies what rendered and exits 3', async () => {
    const run = await runCli(['codify', '--repo', flux, ...fluxArgs, '--dry-run']);
    expect(run.stderr).toMatch(/not rendered/);
    expect(run.code).toBe(3);
  });
});

describe('plain manifests applied by kubectl', () => {
  const repo = join(work, 'plain');
  write(repo, {
    'settings.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\ndata:\n  proxy: ""\n',
    'migrate.yaml': MIGRATE_JOB,
    // Repeated key: not YAML kubectl reads; the other files are still applied (kubectl apply goes on).
    'broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n',
  });
  const live = join(work, 'plain-live.yaml');
  writeFileSync(live, readFileSync(join(repo, 'settings.yaml'), 'utf8'));

  it('a generateName Job is listed, not compared, and a file that does not read stops nothing', async () => {
    const run = await runCli(['diff', '--desired', repo, '--live', live, '--format', 'json']);
    expect(run.code).toBe(3);
    const document = JSON.parse(run.stdout) as JsonDiffDocument & { partial?: boolean };
    expect(document.partial).toBe(true);
    expect(document.summary).toMatchObject({ inSync: 1, missing: 0, extra: 0 });
    expect(run.stderr).toMatch(/note: \S*plain\/migrate\.yaml \(document 1\): Job with generateName "schema-migrate-"/);
    expect(run.stderr).toMatch(/warning: \S*plain\/broken\.yaml:\d+.*not rendered/);
  });
});

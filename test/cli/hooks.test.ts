// Hooks are not desired state, end to end through the CLI: Argo CD's own hook test data
// (argo-cd test/e2e/testdata/hook: a Pod and a Sync hook Pod) with the live state Argo CD leaves —
// the Pod applied, the hook Pod still there after its sync (BeforeHookCreation, the default, keeps it
// until the next sync; gitops-engine pkg/sync/hook/delete_policy.go). Stamps: Argo CD's default
// tracking label `app.kubernetes.io/instance`; manager `argocd-controller` (gitops-engine diff testdata).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { fixturePath, readFixture } from '../support/fixtures.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-hooks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HOOK_DATA = 'manifests/argo-cd/test/e2e/testdata/hook';
cpSync(fixturePath(HOOK_DATA), join(work, 'head'), { recursive: true });
cpSync(fixturePath(HOOK_DATA), join(work, 'base'), { recursive: true });
rmSync(join(work, 'head/hook.yaml'));
const APPLIED = '2026-12-01T09:00:00Z';

function applied(file: string, phase: string): KubeObject {
  const object = parseAllDocuments(readFixture(HOOK_DATA, file))[0]!.toJS() as KubeObject;
  object.metadata = {
    ...object.metadata,
    namespace: 'default',
    labels: { 'app.kubernetes.io/instance': 'hook' },
    uid: `uid-${file}`,
    creationTimestamp: APPLIED,
    managedFields: [
      {
        manager: 'argocd-controller',
        operation: 'Update',
        apiVersion: 'v1',
        time: APPLIED,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app.kubernetes.io/instance': {} } } },
      },
    ],
  };
  return { ...object, status: { phase } };
}

function snapshot(items: KubeObject[]): string {
  const capturedAt = new Date(Date.now() - 60_000).toISOString();
  const document = {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/hooks',
    cluster: 'prod',
    capturedAt,
  };
  return JSON.stringify({ ...document, scope: { complete: true, errors: [] }, items });
}

const pod = applied('pod.yaml', 'Running');
const hook = applied('hook.yaml', 'Succeeded');
// The hook ran with another image than Git now says: still no drift, it is not desired state.
const rerun = structuredClone(hook);
(rerun.spec as { containers: Array<{ image: string }> }).containers[0]!.image = 'alpine:3.20';
writeFileSync(join(work, 'left.json'), snapshot([pod, hook]));
writeFileSync(join(work, 'gone.json'), snapshot([pod]));
writeFileSync(join(work, 'rerun.json'), snapshot([pod, rerun]));

const cli = (...args: string[]) => runCli(args, { cwd: work });

describe('hooks in a diff', () => {
  it.each(['left.json', 'gone.json', 'rerun.json'])(
    'a Sync hook is neither missing nor extra nor drift (%s)',
    async (live) => {
      const result = await cli('diff', '--desired', 'base', '--live', live, '--format', 'json');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc.summary).toMatchObject({ inSync: 1, modified: 0, missing: 0, extra: 0 });
    },
  );

  it('lists a hook left in the cluster under its tool, not as extra', async () => {
    const result = await cli('diff', '--desired', 'head', '--live', 'left.json', '--format', 'json');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.owners).toEqual([
      {
        owner: 'run as Argo CD Sync hook, not desired state',
        class: 'hook',
        objects: [{ group: '', kind: 'Pod', namespace: 'default', name: 'hook' }],
      },
    ]);
  });
});

describe('hooks in a plan', () => {
  it('never creates a hook, and lists it as what each sync runs', async () => {
    const result = await cli('plan', '--head', 'base', '--live', 'gone.json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^prod: 0 to create, 0 to update, 0 to prune, 1 unchanged/);
    expect(result.stdout).toContain('Hooks (run at each sync, not desired state):');
    expect(result.stdout).toContain(
      '  > Pod/default/hook: Argo CD Sync hook: Sync, wave 0; deleted: BeforeHookCreation',
    );
  });

  it('never prunes a hook that head stopped declaring', async () => {
    const result = await cli('plan', '--head', 'head', '--base', 'base', '--live', 'left.json', '--format', 'json');
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.prune).toEqual([]);
    expect(doc.create).toEqual([]);
  });

  it('gives the hooks in JSON and in the pull request comment', async () => {
    const json = JSON.parse((await cli('plan', '--head', 'base', '--live', 'gone.json', '--format', 'json')).stdout);
    expect(json.hooks).toEqual([
      {
        id: { group: '', kind: 'Pod', namespace: 'default', name: 'hook' },
        annotation: 'argocd.argoproj.io/hook',
        value: 'Sync',
        phases: ['Sync'],
        wave: 0,
        deletePolicies: ['BeforeHookCreation'],
        file: 'hook.yaml',
        line: 1,
      },
    ]);
    const markdown = (await cli('plan', '--head', 'base', '--live', 'gone.json', '--format', 'markdown')).stdout;
    expect(markdown).toContain(
      'Hooks each sync runs (not desired state): `Pod/default/hook` (Argo CD Sync hook: Sync, wave 0; deleted: BeforeHookCreation)',
    );
  });
});

// `driftback diff --format text` never prints a Secret value: not Git's stringData or data, not
// the live data of a `kubectl get -o json` file, not a hand-made Secret. Keys stay visible.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fixtures.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-secret-text-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GIT = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
stringData:
  password: hunter2-from-git
  user: app
`;

const human = {
  manager: 'kubectl-edit',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-12-02T03:00:00Z',
  fieldsType: 'FieldsV1',
};
const LIVE = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'db',
        namespace: 'shop',
        managedFields: [{ ...human, fieldsV1: { 'f:data': { 'f:password': {}, 'f:token': {} } } }],
      },
      data: {
        password: Buffer.from('changed-in-cluster').toString('base64'),
        user: Buffer.from('app').toString('base64'),
        token: Buffer.from('live-only-token').toString('base64'),
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'by-hand',
        namespace: 'shop',
        managedFields: [{ ...human, manager: 'kubectl-create', fieldsV1: { 'f:data': { 'f:apikey': {} } } }],
      },
      data: { apikey: Buffer.from('hand-made-key').toString('base64') },
    },
  ],
};

describe('diff --format text on Secrets', () => {
  it('shows keys and who changed them, with every value masked', async () => {
    writeFileSync(join(work, 'secret.yaml'), GIT);
    writeFileSync(join(work, 'live.json'), JSON.stringify(LIVE));
    const result = await runCli(['diff', '--desired', 'secret.yaml', '--live', 'live.json', '--namespace', 'shop'], {
      cwd: work,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const out = result.stdout;
    for (const secret of ['hunter2-from-git', 'changed-in-cluster', 'live-only-token', 'hand-made-key']) {
      expect(out).not.toContain(secret);
      expect(out).not.toContain(Buffer.from(secret).toString('base64'));
    }
    expect(out).not.toContain(Buffer.from('app').toString('base64'));
    expect(out).toContain('~ Secret/shop/db');
    // A Secret a person made is listed under that person and reported, never shown as an extra file.
    expect(out).not.toContain('+ Secret/shop/by-hand');
    expect(out).toContain(
      'reported, not codified: Secret/shop/by-hand (kubectl-create at 2026-12-02 03:00 UTC, human): a Secret created in the cluster',
    );
    expect(out).toContain('password: ‹from Secret shop/db›');
    expect(out).toContain('kubectl-edit at 2026-12-02 03:00 UTC');
  });
});

describe('a value Flux substitutes from a Secret', () => {
  // test/fixtures/controllers/flux-podinfo: `postBuild.substituteFrom` kind Secret puts backend_token into
  // the Deployment's env, where the live object holds it in clear text (fluxcd/pkg kustomize_varsub.go).
  const dir = join(REPO_ROOT, 'test/fixtures/controllers/flux-podinfo');
  const token = 'tkn-kind-dev-7f3a91';
  const mask = '‹from Secret flux-system/cluster-secret-vars›';
  const args = (verb: string): string[] => [
    verb,
    ...(verb === 'plan' ? ['--head'] : ['--desired']),
    join(dir, 'repo'),
    '--live',
    join(dir, 'live/hand-changes.json'),
    '--cluster',
    'kind-dev',
  ];

  it('diff shows where it comes from next to the hand-added env var, in every format never the value', async () => {
    const text = await runCli(args('diff'));
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `             - name: PODINFO_BACKEND_TOKEN\n               value: ${mask}\n+            # added by kubectl-edit`,
    );
    for (const verb of ['diff', 'plan']) {
      for (const format of ['text', 'json', 'markdown']) {
        const run = await runCli([...args(verb), '--format', format]);
        expect(run.stderr).toBe('');
        expect(run.stdout).not.toContain(token);
      }
    }
  });
});

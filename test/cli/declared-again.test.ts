// One object declared twice in plain manifests: kubectl applies each declaration in turn and Argo CD
// keeps the last ("appeared 2 times among application resources"), so the cluster holds one object, the
// last declaration's. It is compared once, never counted twice; the earlier declaration is named.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/render/index.js';
import { argoApplication } from '../support/argo-application.js';
import { runCli } from './run-cli.js';

const configMap = (value: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'shop' },
  data: { a: value },
});

const work = mkdtempSync(join(tmpdir(), 'declared-again-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
mkdirSync(join(work, 'app'));
writeFileSync(join(work, 'app/a.yaml'), stringify(configMap('1')));
writeFileSync(join(work, 'app/b.yaml'), stringify(configMap('2')));

function snapshot(value: string): string {
  const file = join(work, `live-${value}.json`);
  const document = { apiVersion: 'driftback.dev/v1', kind: 'Snapshot', repository: 'acme/gitops', cluster: 'prod' };
  const items = [configMap(value)];
  writeFileSync(
    file,
    JSON.stringify({ ...document, capturedAt: new Date().toISOString(), scope: { complete: true, errors: [] }, items }),
  );
  return file;
}

const NOTE =
  'note: app/a.yaml (document 1): ConfigMap/shop/cfg is declared again at app/b.yaml:1: the last declaration is the one applied (kubectl apply; Argo CD keeps the last), so app/a.yaml:1 is not compared\n';

describe('an object a plain directory declares twice', () => {
  it('is one object, the last declaration, in sync when live holds it', async () => {
    const result = await runCli(['diff', '--desired', 'app', '--live', snapshot('2'), '--format', 'json'], {
      cwd: work,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).summary).toMatchObject({ inSync: 1, modified: 0, missing: 0, extra: 0 });
    expect(result.stderr).toBe(NOTE);
  });

  it('is compared once against the last declaration', async () => {
    const result = await runCli(['diff', '--desired', 'app', '--live', snapshot('1'), '--format', 'json'], {
      cwd: work,
    });
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout);
    expect(doc.summary).toMatchObject({ inSync: 0, modified: 1, missing: 0, extra: 0 });
  });

  it('in an Argo CD directory source, the last file wins', () => {
    const application = argoApplication('shop');
    const files = new Map([
      ['apps/shop.yaml', stringify(application)],
      ['shop/a.yaml', stringify(configMap('1'))],
      ['shop/b.yaml', stringify(configMap('2'))],
    ]);
    const cluster = { name: 'prod', path: 'apps', controller: 'argocd' as const, defaultNamespace: 'default' };
    const rendered = renderCluster(files, cluster, {});
    const maps = rendered.objects.filter((desired) => desired.key.kind === 'ConfigMap');
    expect(maps.map((desired) => [desired.source.file, desired.object.data])).toEqual([['shop/b.yaml', { a: '2' }]]);
    expect(rendered.skipped).toEqual([expect.objectContaining({ file: 'shop/a.yaml', code: 'declared-again' })]);
  });
});

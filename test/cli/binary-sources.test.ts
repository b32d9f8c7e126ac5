// A generator source that is not text (an image, a keystore) is read as its bytes: the ConfigMap
// carries it in binaryData, named and hashed as `kubectl kustomize` (5.7.1) names it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'binary-sources-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
writeFileSync(
  join(work, 'kustomization.yaml'),
  'namespace: shop\nconfigMapGenerator:\n  - name: assets\n    files:\n      - logo.png\n',
);
// The start of a PNG: NUL bytes and bytes that are not UTF-8.
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00];
writeFileSync(join(work, 'logo.png'), Uint8Array.from(PNG));

function snapshot(binaryData: Record<string, string>): string {
  const file = join(work, `live-${Object.values(binaryData).join('').length}.json`);
  const item = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'assets-bk467b5886', namespace: 'shop' },
    binaryData,
  };
  const document = { apiVersion: 'driftback.dev/v1', kind: 'Snapshot', repository: 'acme/gitops', cluster: 'prod' };
  const scope = { complete: true, errors: [] };
  writeFileSync(file, JSON.stringify({ ...document, capturedAt: new Date().toISOString(), scope, items: [item] }));
  return file;
}

describe('a binary generator source', () => {
  it('is in sync with the ConfigMap kustomize makes of it', async () => {
    const live = snapshot({ 'logo.png': 'iVBORw0KGgoAAAANSUhEUv8A' });
    const result = await runCli(['diff', '--desired', work, '--live', live, '--format', 'json'], { cwd: work });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).summary).toMatchObject({ inSync: 1, modified: 0, missing: 0, extra: 0 });
    expect(result.code).toBe(0);
  });

  it('differs when the live bytes differ', async () => {
    const live = snapshot({ 'logo.png': 'iVBORw0KGgoAAAANSUhEUgAA' });
    const result = await runCli(['diff', '--desired', work, '--live', live, '--format', 'json'], { cwd: work });
    expect(JSON.parse(result.stdout).summary).toMatchObject({ inSync: 0, modified: 1 });
    expect(result.code).toBe(1);
  });
});

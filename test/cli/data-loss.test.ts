// The same data-loss warning in the CLI's text, its JSON and the pull request comment: Kubernetes'
// StatefulSet example (kubernetes/website application/web/web.yaml) pruned by a head that drops it.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath, readFixtureTree } from '../support/fixtures.js';
import { desiredFromFiles, liveOf } from '../core/plan/build.js';
import { runCli } from './run-cli.js';

const WEB = 'manifests/kubernetes-website/content/en/examples/application/web';
const work = mkdtempSync(join(tmpdir(), 'driftback-data-loss-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
cpSync(fixturePath(WEB), join(work, 'base'), { recursive: true });
cpSync(fixturePath(WEB), join(work, 'head'), { recursive: true });
writeFileSync(join(work, 'head/web.yaml'), readFixtureTree(WEB).get('web.yaml')!.split('---\n')[0]!);
// What the API server returns: the retention policy defaulted (apps/v1 defaults).
const items = desiredFromFiles(readFixtureTree(WEB)).map((desired) => {
  const live = liveOf(desired);
  if (live.kind === 'StatefulSet')
    (live.spec as Record<string, unknown>).persistentVolumeClaimRetentionPolicy = {
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    };
  return live;
});
const capturedAt = new Date(Date.now() - 60_000).toISOString();
writeFileSync(
  join(work, 'live.json'),
  JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/web',
    cluster: 'prod',
    capturedAt,
    scope: { complete: true, errors: [] },
    items,
  }),
);

const plan = (...args: string[]) =>
  runCli(['plan', '--head', 'head', '--base', 'base', '--live', 'live.json', ...args], { cwd: work });

describe('a StatefulSet prune that orphans its claims', () => {
  it('is prune-protected in text, JSON and markdown alike', async () => {
    const text = await plan();
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('  ! prune-protected StatefulSet/default/web');
    expect(text.stdout).toContain('the claims and their data remain, orphaned');
    const json = JSON.parse((await plan('--format', 'json')).stdout);
    expect(json.warnings).toEqual([
      expect.objectContaining({
        code: 'prune-protected',
        id: { group: 'apps', kind: 'StatefulSet', namespace: 'default', name: 'web' },
      }),
    ]);
    const markdown = (await plan('--format', 'markdown')).stdout;
    expect(markdown).toContain('⚠️ **Deletes data** `StatefulSet/default/web`');
  });
});

// `driftback diff` on bad input: exit 2 and one line on stderr that says what to change.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-diff-errors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function write(path: string, text: string): string {
  const full = join(work, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const guestbook = fixturePath('manifests', 'argo-cd', 'test', 'e2e', 'testdata', 'guestbook');
const liveDeployment = fixturePath('k8s-diff', 'argo-cd-controller', 'live-deployment.yaml');
const badLive = write(
  'bad-live.yaml',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  name: y\ndata:\n  a: "1"\n',
);
write(
  'bad-desired/apps/api.yaml',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 2\n  replicas: 3\n  selector: {}\n',
);
write('repo-bad-config/.github/driftback.yml', 'drift:\n  minSnapshots: 2\n  unknownKey: true\n');
write('repo-bad-config/apps/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
const repoConfig = write('repo/.github/driftback.yml', 'clusters:\n  - name: prod-eu\n    path: clusters/prod-eu\n');
write('repo/clusters/prod-eu/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
const badSnapshot = write(
  'bad-snapshot.json',
  JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme',
    cluster: 'prod-eu',
    capturedAt: 'yesterday',
    scope: { complete: true },
    items: [],
  }),
);

const CASES: Array<[name: string, args: string[], message: RegExp]> = [
  ['missing --live', ['--desired', guestbook], /--live is required/],
  ['missing --desired', ['--live', liveDeployment], /--desired is required/],
  [
    'unknown format',
    ['--desired', guestbook, '--live', liveDeployment, '--format', 'html'],
    /--format html: expected text, json or markdown/,
  ],
  [
    'unknown flag',
    ['--desired', guestbook, '--live', liveDeployment, '--colour'],
    /Unknown option '--colour'.*see --help/,
  ],
  [
    'desired directory that does not exist',
    ['--desired', join(work, 'nope'), '--live', liveDeployment],
    /--desired .*nope: no such file or directory/,
  ],
  [
    'live file that does not exist',
    ['--desired', guestbook, '--live', join(work, 'nope.json')],
    /--live .*nope\.json: no such file or directory/,
  ],
  ['live file with invalid YAML', ['--desired', guestbook, '--live', badLive], /bad-live\.yaml:5: invalid YAML/],
  [
    'invalid snapshot document',
    ['--desired', guestbook, '--live', badSnapshot],
    /bad-snapshot\.json: not a valid snapshot: repository: expected owner\/name/,
  ],
  [
    'config with an unknown key',
    ['--desired', join(work, 'repo-bad-config'), '--live', liveDeployment],
    /driftback\.yml:3: .*unknownKey/,
  ],
  [
    'explicit config that does not exist',
    ['--desired', guestbook, '--live', liveDeployment, '--config', join(work, 'none.yml')],
    /--config .*none\.yml: no such file/,
  ],
  [
    'cluster not in the config',
    ['--config', repoConfig, '--cluster', 'prod-us', '--live', liveDeployment],
    /--cluster prod-us: .*lists no such cluster \(it lists: prod-eu\)/,
  ],
  [
    'cluster without a config',
    ['--desired', guestbook, '--cluster', 'prod-eu', '--live', liveDeployment],
    /--cluster prod-eu: needs the config/,
  ],
];

describe('driftback diff on bad input', () => {
  it.each(CASES)('%s', async (_name, args, message) => {
    const result = await runCli(['diff', ...args], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the manifest file and line of invalid YAML, and says the result is partial (exit 3)', async () => {
    const result = await runCli(['diff', '--desired', join(work, 'bad-desired'), '--live', liveDeployment], {
      cwd: work,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^warning: bad-desired\/apps\/api\.yaml:7\b.*not rendered: /);
  });

  it('prints its usage with --help', async () => {
    const result = await runCli(['diff', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--desired <dir|file>');
  });
});

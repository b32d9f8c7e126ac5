// The `driftback snapshot` and `driftback agent` commands, run through the CLI dispatcher against
// the Kubernetes API stand-in (via a kubeconfig file) and a local upload sink.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseSnapshot } from '../../src/core/model/index.js';
import { clusterObjects, SECRET_VALUES } from '../support/kube-api/cluster.js';
import { standInKubeconfig, startKubeApiStandIn, type KubeApiStandIn } from '../support/kube-api/server.js';
import { TOKEN } from './helpers.js';
import { startUploadSink } from './sink.js';

const dir = mkdtempSync(join(tmpdir(), 'driftback-cli-'));
let api: KubeApiStandIn;
let kubeconfig: string;

beforeAll(async () => {
  api = await startKubeApiStandIn({ token: TOKEN, objects: clusterObjects() });
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, standInKubeconfig(api.url, TOKEN));
  writeFileSync(join(dir, 'hash-key'), 'a-key-of-at-least-sixteen-bytes\n');
});
afterAll(() => api.close());

async function cli(argv: string[], env: NodeJS.ProcessEnv, options: { tty?: boolean } = {}) {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: options.tty ?? false });
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  const code = await main(argv, { stdout, stderr, env, cwd: dir });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('driftback snapshot', () => {
  it('writes a valid snapshot of the scoped namespaces to --out', async () => {
    const out = join(dir, 'snapshot.json');
    const run = await cli(
      [
        'snapshot',
        '--kubeconfig',
        kubeconfig,
        '--cluster',
        'prod-eu',
        '--namespace',
        'checkout',
        '--hash-key-file',
        join(dir, 'hash-key'),
        '--out',
        out,
      ],
      {},
    );
    expect(run).toMatchObject({ code: 0 });
    const parsed = parseSnapshot(JSON.parse(readFileSync(out, 'utf8')));
    expect(parsed.ok && parsed.value.items.map((o) => o.kind).sort()).toEqual([
      ...Array(6).fill('ConfigMap'),
      'Namespace',
      'Secret',
      'Secret',
    ]);
    expect(parsed.ok && parsed.value.repository).toBe('local/local');
    expect(run.stderr).toContain('v1/configmaps');
  });

  it('prints a progress line per type on a terminal only', async () => {
    const argv = [
      'snapshot',
      '--kubeconfig',
      kubeconfig,
      '--cluster',
      'prod-eu',
      '--secrets',
      'omit',
      '--include',
      'configmaps,services',
      '--out',
      join(dir, 'progress.json'),
    ];
    expect((await cli(argv, {}, { tty: true })).stderr).toContain('listed v1/services: 4 items');
    expect((await cli(argv, {}, { tty: false })).stderr).not.toContain('listed v1/services');
  });

  it('writes to stdout without a hash key when Secrets are omitted', async () => {
    const run = await cli(
      [
        'snapshot',
        '--kubeconfig',
        kubeconfig,
        '--cluster',
        'prod-eu',
        '--repository',
        'acme/platform-gitops',
        '--secrets',
        'omit',
        '--include',
        'secrets,configmaps',
      ],
      {},
    );
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.items.map((o: any) => o.kind)).not.toContain('Secret');
    expect(document.items.length).toBe(6);
  });

  it.each([
    {
      name: 'no hash key',
      argv: ['--cluster', 'prod-eu'],
      message: 'no key to hash Secret values: pass --hash-key-file',
    },
    { name: 'no cluster', argv: ['--secrets', 'omit'], message: '--cluster is not set' },
    {
      name: 'a bad secrets mode',
      argv: ['--cluster', 'prod-eu', '--secrets', 'show'],
      message: '--secrets=show: expected hash',
    },
  ])('exits 2 with a clear line for $name', async ({ argv, message }) => {
    const run = await cli(['snapshot', '--kubeconfig', kubeconfig, ...argv], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe('driftback agent', () => {
  const env = (url: string): NodeJS.ProcessEnv => ({
    KUBECONFIG: kubeconfig,
    DRIFTBACK_URL: url,
    DRIFTBACK_TOKEN: 'dbk_token',
    DRIFTBACK_REPOSITORY: 'acme/platform-gitops',
    DRIFTBACK_CLUSTER: 'prod-eu',
    DRIFTBACK_HASH_KEY_FILE: join(dir, 'hash-key'),
    DRIFTBACK_SPOOL_DIR: dir,
  });

  it('snapshots the cluster and uploads it gzip with its token', async () => {
    const sink = await startUploadSink([{ code: 202, body: { id: 'snap-9', status: 'queued' } }]);
    try {
      const run = await cli(['agent'], env(sink.url));
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('as snapshot snap-9: queued');
      const parsed = parseSnapshot(JSON.parse(sink.received[0].body));
      expect(parsed.ok && parsed.value.cluster).toBe('prod-eu');
      expect(parsed.ok && parsed.value.items.length).toBeGreaterThan(20);
      for (const value of SECRET_VALUES)
        expect(sink.received[0].body).not.toContain(Buffer.from(value).toString('base64'));
    } finally {
      await sink.close();
    }
  });

  it('logs which token to create when the App answers 401', async () => {
    const sink = await startUploadSink([{ code: 401, body: { message: 'bad token' } }]);
    try {
      const run = await cli(['agent'], env(sink.url));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        'upload failed (401): the token is not valid for repository acme/platform-gitops cluster prod-eu: create it with `driftback token --repository acme/platform-gitops --cluster prod-eu`',
      );
    } finally {
      await sink.close();
    }
  });

  it('names every missing variable at once', async () => {
    const run = await cli(['agent'], {});
    expect(run.code).toBe(2);
    for (const name of ['DRIFTBACK_URL', 'DRIFTBACK_TOKEN', 'DRIFTBACK_REPOSITORY', 'DRIFTBACK_CLUSTER'])
      expect(run.stderr).toContain(name);
  });
});

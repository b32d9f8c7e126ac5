// The distribution registry itself (Debian's `docker-registry`, distribution 2.8), when the machine has
// it: started on a free loopback port with filesystem storage in a temporary directory, plain HTTP,
// and no authentication, htpasswd Basic authentication (`auth.htpasswd`, bcrypt lines) or token
// authentication (`auth.token`: the realm, service and issuer of a token server whose certificate the
// registry trusts). A service the package may have started on its default port :5000 is never used.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StandInRegistry } from './index.js';

/** The `docker-registry` binary on PATH, if any (`DOCKER_REGISTRY_BINARY` names another; empty: none). */
export function distributionBinary(): string | undefined {
  const named = process.env.DOCKER_REGISTRY_BINARY;
  if (named !== undefined) return named || undefined;
  const found = spawnSync('sh', ['-c', 'command -v docker-registry'], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0];
  return found.status === 0 && path ? path : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `GET /v2/` answers 200, or 401 with authentication (the registry is serving), at most `ms`. */
async function ready(host: string, exited: () => string | undefined, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const failure = exited();
    if (failure) throw new Error(failure);
    const status = await fetch(`http://${host}/v2/`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200 || status === 401) return;
    if (Date.now() > until) throw new Error(`docker-registry did not answer on ${host} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How clients authenticate: htpasswd lines (`user:$2b$…`), or a token server's realm and certificate. */
export type DistributionAuth =
  { htpasswd: string } | { token: { realm: string; service: string; issuer: string; certificate: string } };

/** The `auth:` section of the registry's configuration, its files written to `dir`. */
function authConfig(dir: string, auth: DistributionAuth | undefined): string[] {
  if (!auth) return [];
  if ('htpasswd' in auth) {
    writeFileSync(join(dir, 'htpasswd'), auth.htpasswd);
    return ['auth:', '  htpasswd:', '    realm: driftback-test', `    path: ${join(dir, 'htpasswd')}`];
  }
  const { realm, service, issuer, certificate } = auth.token;
  writeFileSync(join(dir, 'token-issuer.pem'), certificate);
  return [
    'auth:',
    '  token:',
    `    realm: ${realm}`,
    `    service: ${service}`,
    `    issuer: ${issuer}`,
    `    rootcertbundle: ${join(dir, 'token-issuer.pem')}`,
  ];
}

export async function startDistribution(binary: string, auth?: DistributionAuth): Promise<StandInRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'docker-registry-'));
  const host = `127.0.0.1:${await freePort()}`;
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'storage')}`,
      'http:',
      `  addr: ${host}`,
      ...authConfig(dir, auth),
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let exit: string | undefined;
  child.once('exit', (code) => (exit = `docker-registry exited (${code}): ${stderr.trim()}`));
  const stop = () => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(host, () => exit, 15_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { host, stop };
}

// Starts the OCI registry stand-in (server.ts) in its own process: driftback's downloads block the
// test's process while they run, so the registry cannot share it.
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../fixtures.js';
import type { RegistryOptions } from './server.js';

export interface StandInRegistry {
  /** `127.0.0.1:<port>`, as an `oci://` reference spells the registry. */
  host: string;
  stop: () => void;
}

/** Starts a server script of this folder in its own process, its options as JSON; the port it prints. */
export async function startServer(script: string, options: object): Promise<{ port: string; stop: () => void }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', `test/support/oci-registry/${script}`, JSON.stringify(options)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    child.stdout!.once('data', (d) => resolve(String(d).trim()));
  });
  return { port, stop: () => child.kill() };
}

export async function startRegistry(options: RegistryOptions = {}): Promise<StandInRegistry> {
  const { port, stop } = await startServer('server.ts', options);
  return { host: `127.0.0.1:${port}`, stop };
}

// Runs the App as `npm start` does, in a child process (`node --import tsx src/app/main.ts`), with
// its environment pointing at the GitHub stand-in through a relay (GHE_HOST/GHE_PROTOCOL, as a
// GitHub Enterprise install would). Fault tests need a real process: one that can be SIGKILLed, run
// twice on one database, and keep Probot's own retry and throttling plugins switched on.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StandInRelay } from './github/relay.js';
import type { GitHubStandIn } from './github/index.js';
import { TOKEN_SECRET, WEBHOOK_SECRET } from './app.js';

const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

export interface AppProcessOptions {
  standIn: GitHubStandIn;
  /** Names the process in relayed requests and failure messages. */
  name: string;
  dataDir?: string;
  databaseUrl?: string;
  /** Extra environment (e.g. DRIFTBACK_UPLOADS_PER_MINUTE). */
  env?: Record<string, string>;
  /** How long start-up may take (tsx compiles the App on the way). Default 45 s. */
  readyTimeoutMs?: number;
}

export interface AppProcess {
  readonly name: string;
  readonly baseUrl: string;
  /** The relay between this process and the stand-in: every GitHub call it made, and a gate. */
  readonly relay: StandInRelay;
  /** Everything the process printed, for failure messages. */
  output(): string;
  /** Still running? */
  alive(): boolean;
  /** The process's peak resident memory so far (VmHWM of /proc/<pid>/status), worker threads included. */
  peakRssBytes(): number;
  /** Sends `signal` and waits for the exit; resolves with the exit code or signal. */
  kill(signal: NodeJS.Signals): Promise<string>;
}

/** A port free right now; Probot's Server reads port 0 as 3000. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startAppProcess(options: AppProcessOptions): Promise<AppProcess> {
  const relay = await StandInRelay.start(options.standIn.baseUrl, options.name);
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    APP_ID: '1',
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET,
    DRIFTBACK_TOKEN_SECRET: TOKEN_SECRET,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: process.env.DRIFTBACK_TEST_LOG ?? 'info',
    GHE_HOST: relay.host,
    GHE_PROTOCOL: 'http',
    DRIFTBACK_UPLOADS_PER_MINUTE: '1000',
    ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/main.ts'], {
    cwd: REPOSITORY_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    // Keeps memory bounded on a chatty run; the tail is what explains a failure.
    if (output.length > 400_000) output = output.slice(-200_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  let running = true;
  void exited.then(() => (running = false));

  const handle: AppProcess = {
    name: options.name,
    baseUrl: `http://127.0.0.1:${port}`,
    relay,
    output: () => output,
    alive: () => running,
    peakRssBytes: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    async kill(signal) {
      if (running) child.kill(signal);
      const how = await exited;
      await relay.close();
      return how;
    },
  };
  try {
    await waitUntilReady(handle, child, options.readyTimeoutMs ?? 45_000);
  } catch (error) {
    await handle.kill('SIGKILL');
    throw error;
  }
  return handle;
}

async function waitUntilReady(app: AppProcess, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!app.alive() || child.exitCode !== null)
      throw new Error(`${app.name} exited during start-up:\n${app.output().slice(-4000)}`);
    try {
      const response = await fetch(`${app.baseUrl}/ping`);
      await response.text();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${app.name} did not answer /ping within ${timeoutMs} ms:\n${app.output().slice(-4000)}`);
}

/** Polls `probe` until it returns a value other than undefined; fails with `what` after the deadline. */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

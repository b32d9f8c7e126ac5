// Runs the CLI in-process through main(), with captured streams, as a user would see it.
import { Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export async function runCli(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; tty?: boolean; cwd?: string } = {},
): Promise<CliRun> {
  const stdout = new Capture(options.tty ?? false);
  const stderr = new Capture(false);
  const code = await main(argv, { stdout, stderr, env: options.env ?? {}, cwd: options.cwd ?? process.cwd() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

// The `driftback` command: dispatches to one module per verb under ./commands.
// Exit codes follow diff and kubectl diff: 0 no differences, 1 differences, 2 an error.
import { CliError, type CliIO } from './io.js';

const COMMANDS: Record<string, string> = {
  diff: 'compare the manifests with a live snapshot',
  plan: 'preview what applying a commit would create, update and prune',
  codify: 'write intentional live changes back into the manifests',
  render: 'print the desired state compared with live, charts rendered',
  snapshot: 'list a cluster and write a snapshot',
  agent: 'snapshot the cluster and upload it to the App (for the CronJob)',
  token: 'print the upload token for a repository and cluster',
};

const USAGE = `usage: driftback <command> [flags]

${Object.entries(COMMANDS)
  .map(([name, what]) => `  ${name.padEnd(9)} ${what}`)
  .join('\n')}

Run 'driftback <command> --help' for its flags.`;

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  if (!(command in COMMANDS)) {
    io.stderr.write(`driftback: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  try {
    const module = (await import(/* @vite-ignore */ `./commands/${command}.js`)) as {
      run(args: string[], io: CliIO): Promise<number>;
    };
    return await module.run(rest, io);
  } catch (error) {
    io.stderr.write(`driftback ${command}: ${describeError(error)}\n`);
    return 2;
  }
}

function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOTDIR') return error.message;
    if (
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
      code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
    ) {
      return `${error.message.split('\n')[0]} (see --help)`;
    }
    return error.message.split('\n')[0];
  }
  return String(error);
}

// The `driftback` command: dispatches to one module per verb under ./commands, through one static
// table (every command is imported here, so a tool that follows imports sees them all).
// Exit codes follow diff and kubectl diff: 0 no differences, 1 differences, 2 an error.
import { run as agent } from './commands/agent.js';
import { run as codify } from './commands/codify.js';
import { run as diff } from './commands/diff.js';
import { run as plan } from './commands/plan.js';
import { run as reconcile } from './commands/reconcile.js';
import { run as render } from './commands/render.js';
import { run as snapshot } from './commands/snapshot.js';
import { run as token } from './commands/token.js';
import { CliError, type CliIO } from './io.js';

interface Command {
  what: string;
  run(args: string[], io: CliIO): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  diff: { what: 'compare the manifests with a live snapshot', run: diff },
  plan: { what: 'preview what applying a commit would create, update and prune', run: plan },
  codify: { what: 'write intentional live changes back into the manifests', run: codify },
  reconcile: { what: 'print the actions the App would take for a snapshot (--dry-run, --explain)', run: reconcile },
  render: { what: 'print the desired state compared with live, charts rendered', run: render },
  snapshot: { what: 'list a cluster and write a snapshot', run: snapshot },
  agent: { what: 'snapshot the cluster and upload it to the App (for the CronJob)', run: agent },
  token: { what: 'print the upload token for a repository and cluster', run: token },
};

const USAGE = `usage: driftback <command> [flags]

${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(9)} ${command.what}`)
  .join('\n')}

Run 'driftback <command> --help' for its flags.`;

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    io.stderr.write(`driftback: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  try {
    return await COMMANDS[command].run(rest, io);
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

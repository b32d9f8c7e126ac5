// `driftback token --repository <owner/name> --cluster <name>`: prints the upload token the App
// accepts from this cluster's agent. It is derived from DRIFTBACK_TOKEN_SECRET, so the App and this
// command agree without storing tokens anywhere.
import { parseArgs } from 'node:util';
import { deriveToken, tokenSecretProblem } from '../../core/token/index.js';
import { CliError, printedHelp, type CliIO } from '../io.js';

const HELP = `usage: driftback token --repository <owner/name> --cluster <name>

Prints the upload token for one repository and cluster. The agent in that cluster sends it as
"Authorization: Bearer <token>"; a token for one cluster is refused for any other.

  --repository <owner/name>  the GitHub repository holding .github/driftback.yml
  --cluster <name>           the cluster name, as in the config and the agent's DRIFTBACK_CLUSTER

Environment: DRIFTBACK_TOKEN_SECRET, the same secret the App runs with (at least 32 bytes:
"openssl rand -hex 32" makes one).`;

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const CLUSTER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { repository: { type: 'string' }, cluster: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  });
  if (printedHelp(io, values.help, HELP)) return 0;
  if (!values.repository) throw new CliError('--repository is required (owner/name, e.g. acme/platform-gitops)');
  if (!REPOSITORY.test(values.repository))
    throw new CliError(`--repository ${values.repository}: expected owner/name, e.g. acme/platform-gitops`);
  if (!values.cluster) throw new CliError('--cluster is required (the cluster name in .github/driftback.yml)');
  if (!CLUSTER.test(values.cluster))
    throw new CliError(`--cluster ${values.cluster}: expected letters, digits, ".", "_" or "-"`);
  const secret = io.env.DRIFTBACK_TOKEN_SECRET;
  if (!secret) throw new CliError('DRIFTBACK_TOKEN_SECRET is not set: export the same secret the App runs with');
  const weak = tokenSecretProblem(secret);
  if (weak) throw new CliError(weak);
  io.stdout.write(deriveToken(secret, values.repository, values.cluster) + '\n');
  return 0;
}

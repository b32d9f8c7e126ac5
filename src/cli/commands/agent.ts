// `driftback agent`: what the CronJob runs. Snapshot the cluster, upload it to the App, log one
// line per type and a clear line for anything the user must fix. Configured by environment.
import { loadKubeConfig } from '../../agent/kubeconfig.js';
import { formatBytes, summaryLines } from '../../agent/report.js';
import { realTiming } from '../../agent/retry.js';
import { runAgent } from '../../agent/run-agent.js';
import { parseAgentEnv } from '../../agent/settings.js';
import { CliError, printedHelp, type CliIO } from '../io.js';

const HELP = `usage: driftback agent

Snapshots the cluster and uploads it to the App (POST /api/v1/snapshots). Configured by environment:

  DRIFTBACK_URL               the App's base URL (required)
  DRIFTBACK_TOKEN / _FILE     upload token from \`driftback token\` (required)
  DRIFTBACK_REPOSITORY        owner/name of the GitOps repository (required)
  DRIFTBACK_CLUSTER           this cluster's name in .github/driftback.yml (required)
  DRIFTBACK_NAMESPACES        comma-separated namespaces (default all)
  DRIFTBACK_LABEL_SELECTOR    only objects matching it (default all)
  DRIFTBACK_INCLUDE           only these types, comma-separated (default all)
  DRIFTBACK_EXCLUDE           more types to leave out (default none)
  DRIFTBACK_SECRETS           hash (default) or omit
  DRIFTBACK_HASH_KEY / _FILE  per-cluster key for Secret hashes (required with hash)
  DRIFTBACK_DEADLINE          whole run (default 10m)
  DRIFTBACK_PAGE_SIZE         items per list request (default 500)
  DRIFTBACK_REQUEST_TIMEOUT   one request (default 30s)
  DRIFTBACK_SPOOL_DIR         where the gzip body waits for upload (default the temp dir)
  KUBECONFIG                  default: the in-cluster service account`;

export async function run(args: string[], io: CliIO): Promise<number> {
  if (printedHelp(io, args.includes('--help') || args.includes('-h'), HELP)) return 0;
  if (args.length > 0)
    throw new CliError(`unexpected argument "${args[0]}": the agent is configured by environment (see --help)`);
  const parsed = parseAgentEnv(io.env);
  if (parsed.type === 'invalid') throw new CliError(parsed.problems.join('; '));
  const settings = parsed.settings;
  const log = (line: string): void => {
    io.stderr.write(`driftback agent: ${line}\n`);
  };
  let kubeConfig;
  try {
    kubeConfig = loadKubeConfig({ env: io.env });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  log(
    `snapshot of cluster ${settings.cluster} for ${settings.repository}${settings.scope.namespaces.length ? ` (namespaces ${settings.scope.namespaces.join(', ')})` : ''}`,
  );
  const progress = io.stderr.isTTY ? log : undefined;
  const outcome = await runAgent(settings, { kubeConfig, timing: realTiming, log, progress });
  if (outcome.type === 'misconfigured') throw new CliError(outcome.message);
  io.stderr.write(summaryLines(outcome.summary).join('\n') + '\n');
  if (outcome.type === 'uploaded') {
    log(
      `uploaded ${outcome.summary.items} items (${formatBytes(outcome.compressedBytes)} gzip) as snapshot ${outcome.upload.id}: ${outcome.upload.status}`,
    );
    for (const line of outcome.upload.skipped) log(`never written as a file: ${line}`);
    return 0;
  }
  const code = outcome.upload.type === 'rejected' ? ` (${outcome.upload.code})` : '';
  log(`upload failed${code}: ${outcome.upload.message}`);
  return 2;
}

// `driftback snapshot`: lists a cluster the way the agent does and writes the snapshot document
// to a file or stdout, for offline `diff` / `plan` / `codify` and for looking at what the agent sends.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { loadHashKey } from '../../agent/hash-key.js';
import { createKubeTransport } from '../../agent/kube-transport.js';
import { loadKubeConfig } from '../../agent/kubeconfig.js';
import { AGENT_VERSION, progressLine, summaryLines } from '../../agent/report.js';
import { realTiming } from '../../agent/retry.js';
import { checkCluster, checkRepository, parseLimits, parseSecretsMode, splitList } from '../../agent/settings.js';
import { takeSnapshot } from '../../agent/take-snapshot.js';
import { CliError, printedHelp, type CliIO } from '../io.js';

const HELP = `usage: driftback snapshot --cluster <name> [flags]

Lists the cluster (discovery, every listable type at its preferred version, paged) and writes a
snapshot document (driftback.dev/v1). Secret values are replaced by a keyed hash.

  --cluster <name>           the cluster's name, as in .github/driftback.yml (required)
  --repository <owner/name>  recorded in the document (default $DRIFTBACK_REPOSITORY, else local/local)
  --kubeconfig <file>        default $KUBECONFIG, the in-cluster service account, or ~/.kube/config
  --context <name>           kubeconfig context (default its current-context)
  --namespace <ns>           list only this namespace; repeat or comma-separate (default all)
  --label-selector <sel>     only objects matching it (default all)
  --include <types>          only these types: deployments, deployments.apps, Deployment, *.example.com
  --exclude <types>          leave these types out, on top of the default exclusions
  --secrets hash|omit        hash Secret values (default) or leave Secrets out
  --hash-key-file <file>     key for Secret hashes (default $DRIFTBACK_HASH_KEY / $DRIFTBACK_HASH_KEY_FILE)
  --out <file>               write here (default stdout)

Environment: DRIFTBACK_DEADLINE (10m), DRIFTBACK_PAGE_SIZE (500), DRIFTBACK_REQUEST_TIMEOUT (30s).`;

const OPTIONS = {
  cluster: { type: 'string' },
  repository: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  namespace: { type: 'string', multiple: true },
  'label-selector': { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  secrets: { type: 'string' },
  'hash-key-file': { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

export async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });
  if (printedHelp(io, values.help, HELP)) return 0;
  const settings = checkedSettings(values, io);
  const hashKey = settings.secrets === 'hash' ? await hashKeyOf(values, io) : undefined;
  const startedMs = realTiming.now();
  const deadlineMs = startedMs + settings.limits.deadlineMs;
  const transport = createKubeTransport(kubeConfigOf(values, io), {
    requestTimeoutMs: settings.limits.requestTimeoutMs,
    timing: realTiming,
    deadlineMs,
  });
  const out = values.out ? createWriteStream(values.out) : io.stdout;
  const summary = await takeSnapshot({
    transport,
    scope: {
      namespaces: listFlag(values.namespace),
      labelSelector: values['label-selector'],
      include: listFlag(values.include),
      exclude: listFlag(values.exclude),
      secrets: settings.secrets,
    },
    repository: settings.repository,
    cluster: settings.cluster,
    capturedAt: new Date(startedMs).toISOString(),
    agentVersion: AGENT_VERSION,
    hashKey,
    pageSize: settings.limits.pageSize,
    out,
    deadlineMs,
    now: realTiming.now,
    onType: io.stderr.isTTY ? (figures) => io.stderr.write(progressLine(figures) + '\n') : undefined,
  });
  if (values.out && 'close' in out) {
    out.end();
    await once(out, 'close');
  }
  const where = values.out ? ` written to ${values.out}` : '';
  io.stderr.write(`snapshot of ${settings.cluster}${where}:\n${summaryLines(summary).join('\n')}\n`);
  return 0;
}

/** Repeated or comma-separated values of a flag, as one list. */
function listFlag(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => splitList(value));
}

/** The flags and environment checked together: every problem in one error. */
function checkedSettings(values: Flags, io: CliIO) {
  const problems: string[] = [];
  const cluster = checkCluster(values.cluster, '--cluster', problems);
  const repository = checkRepository(
    values.repository ?? io.env.DRIFTBACK_REPOSITORY ?? 'local/local',
    '--repository',
    problems,
  );
  const secrets = parseSecretsMode(values.secrets, problems, '--secrets');
  const limits = parseLimits(io.env, problems);
  if (problems.length > 0) throw new CliError(problems.join('; '));
  return { cluster, repository, secrets, limits };
}

/** The key Secret values are hashed with, from --hash-key-file or the environment. */
async function hashKeyOf(values: Flags, io: CliIO): Promise<Buffer> {
  const loaded = await loadHashKey(
    values['hash-key-file'] ? undefined : io.env.DRIFTBACK_HASH_KEY,
    values['hash-key-file'] ?? io.env.DRIFTBACK_HASH_KEY_FILE,
  );
  if (loaded.type === 'invalid') throw new CliError(loaded.message);
  if (loaded.type === 'missing')
    throw new CliError(
      'no key to hash Secret values: pass --hash-key-file <file> (or set DRIFTBACK_HASH_KEY), or --secrets omit',
    );
  return loaded.key;
}

function kubeConfigOf(values: Flags, io: CliIO) {
  try {
    return loadKubeConfig({ file: values.kubeconfig, context: values.context, env: io.env });
  } catch (error) {
    throw new CliError(`${values.kubeconfig ?? 'kubeconfig'}: ${(error as Error).message}`);
  }
}

// `driftback reconcile --dry-run`: the actions the App would take for a repository and a snapshot,
// in the order it would take them, decided by the same core stage (core/decide) the App executes.
// Nothing is written: the App has GitHub, this command only prints. `--explain` adds the rule that
// produced each action and why.
import { parseArgs as nodeParseArgs } from 'node:util';
import {
  decideReconcile,
  emergencyByBranch,
  actionLine,
  actionsText,
  writesToGitHub,
} from '../../core/decide/index.js';
import { proposeDrift } from '../../core/pipeline/index.js';
import { isPartial } from '../../core/report/index.js';
import { CliError, printedHelp, type CliIO } from '../io.js';
import { INPUT_FLAGS } from '../flags.js';
import { evaluateRepository } from '../inputs.js';
import { EXIT_PARTIAL } from '../partial.js';
import { readPriorState } from '../prior-state.js';

const HELP = `usage: driftback reconcile --dry-run --repo <dir> --live <snapshot|file|dir> [flags]

Prints the actions the App would take for this repository and snapshot, in the order it takes
them: drift pull requests opened, updated or closed (title, labels, files of the one commit), the
security check run on HEAD, the state recorded. It runs the App's decision on the repository as it
is; without --state, as the first snapshot of the cluster the App would see (no drift PR exists
yet). Nothing is written and GitHub is not asked.
Exit status: 0 the App would write nothing to GitHub, 1 it would write (a pull request, a check run),
2 an error, 3 a partial result: part of the cluster was not rendered (stderr says what and why).

  --dry-run                     required: print the actions, take none
  --explain                     after each action, the rule that produced it and why
  --state <json>                what the App recorded before this snapshot: its drift branches and pull
                                requests, emergency records, last security check, and the HEAD it builds on
                                (docs/cli.md; the App's stored cluster record is a valid file)
  --repo <dir>                  the repository checkout
  --live <snapshot|file|dir>    a driftback snapshot, kubectl get -o json output, YAML/JSON objects, or a
                                directory of them; repeat it with earlier snapshots first: the App codifies
                                only drift seen in drift.minSnapshots consecutive snapshots
  --config <yml>                driftback config (default: <repo>/.github/driftback.yml when it exists)
  --cluster <name>              the cluster of the config whose path holds the manifests (default: the whole repo)
  --charts <dir>                chart archives as helm pull writes them (<name>-<version>.tgz), for charts
                                of Helm repositories (default: DRIFTBACK_CHARTS_DIR)
  --namespace <ns>              namespace for namespaced manifests that name none (default: the cluster's
                                defaultNamespace, else "default")
  --format text|json            text (default) or one JSON document {"actions": [...]}`;

function parseFlags(args: string[]) {
  const { values } = parseArgs(args);
  if (values.help) return values;
  if (!values['dry-run'])
    throw new CliError('--dry-run is required: the command prints the actions the App would take and takes none');
  if (!values.repo) throw new CliError('--repo <dir> is required (the repository checkout)');
  if (!values.live?.length) throw new CliError('--live <snapshot|file|dir> is required');
  if (values.format !== 'text' && values.format !== 'json')
    throw new CliError(`--format ${values.format}: expected text or json`);
  return values;
}

function parseArgs(args: string[]) {
  return nodeParseArgs({
    args,
    options: {
      repo: { type: 'string' },
      ...INPUT_FLAGS,
      'dry-run': { type: 'boolean', default: false },
      explain: { type: 'boolean', default: false },
      state: { type: 'string' },
      format: { type: 'string', default: 'text' },
    },
    strict: true,
    allowPositionals: false,
  });
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (printedHelp(io, flags.help, HELP)) return 0;
  const prior = flags.state ? await readPriorState(flags.state) : { branches: {} };
  // The App's persistence gate: drift seen in fewer than drift.minSnapshots snapshots waits.
  const { input, lives, drift, evaluated, parts } = await evaluateRepository(io, flags, 'config');
  if (evaluated.pending > 0) {
    const { minSnapshots } = input.config.drift;
    io.stderr.write(
      `driftback reconcile: ${evaluated.pending} change${evaluated.pending === 1 ? ' is' : 's are'} not persistent yet (drift.minSnapshots: ${minSnapshots}, ${lives.length} snapshot${lives.length === 1 ? '' : 's'} given): the App waits for them; give earlier snapshots first with --live\n`,
    );
  }
  // The App's branches and check runs name the cluster: the config's, else the snapshot's.
  const name = drift.cluster.name || drift.snapshot.cluster;
  if (!name)
    throw new CliError(
      'name the cluster: --cluster <name> (of the config), or a --live driftback snapshot, which names its cluster',
    );
  const cluster = { ...drift.cluster, name };
  const groups = proposeDrift({ ...drift, cluster }, evaluated);
  const { headSha = 'HEAD', ...previous } = prior;
  // A branch recorded as someone else's is taken as still on GitHub (only the App can ask).
  const foreign = Object.values(previous.branches).filter((branch) => branch.foreign);
  const actions = decideReconcile({
    cluster: name,
    config: input.config,
    headSha,
    groups,
    drift: evaluated.drift,
    compared: evaluated.diff,
    previous,
    foreignBranches: new Set(foreign.map((branch) => branch.branch)),
    emergency: emergencyByBranch(evaluated.emergency, groups),
  });
  const explain = flags.explain ?? false;
  if (flags.format === 'json')
    io.stdout.write(JSON.stringify({ actions: actions.map((action) => actionLine(action, explain)) }, null, 2) + '\n');
  else io.stdout.write(actionsText(actions, explain));
  if (isPartial(parts)) return EXIT_PARTIAL;
  return writesToGitHub(actions) ? 1 : 0;
}

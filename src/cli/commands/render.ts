// `driftback render`: prints the desired state driftback compares with live for a cluster — the
// controller objects and everything they apply, every chart rendered — in a stable order, like
// `flux build kustomization` or `argocd app manifests`. What could not be rendered goes to stderr.
// Exit codes: 0 everything of this repository rendered (a source of another repository is left out and
// said so), 3 something of it was not rendered (the output is partial, as for diff, plan and codify), 2 an error.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { renderAccount, renderDesiredObjects } from '../../core/report/index.js';
import { sourceName } from '../../core/sources/index.js';
import { cliCharts } from '../charts.js';
import { EXIT_PARTIAL } from '../partial.js';
import { CliError, printedHelp, loadLive, type CliIO } from '../io.js';
import { liveState, pipelineCluster, renderTree, resolveManifests } from '../inputs.js';

const HELP = `usage: driftback render <dir> [--config <yml>] [--cluster <name>] [--snapshot <file>] [--format yaml|json]

Prints the desired state driftback compares with live: the controller objects (Kustomizations,
HelmReleases, Applications, sources) and everything they apply, charts rendered by Helm.
What could not be rendered is listed on stderr with the reason, and each source of another
repository as out of scope (its objects are that repository's desired state).
Exit status: 0 everything of this repository rendered, 3 partial (something of it was not rendered),
2 an error.

  --config <yml>             driftback config (default: <dir>/.github/driftback.yml when it exists)
  --cluster <name>           render this cluster of the config (its path; the repository is <dir>)
  --snapshot <file>          the cluster's snapshot: its sources, the ConfigMaps values come from, and
                             its Kubernetes version and API versions (Helm's --kube-version, --api-versions)
  --namespace <ns>           namespace for namespaced manifests that name none (default: the cluster's
                             defaultNamespace, else "default")
  --charts <dir>             chart archives as helm pull writes them (<name>-<version>.tgz), for charts
                             of Helm repositories (default: DRIFTBACK_CHARTS_DIR)
  --format yaml|json         multi-document YAML (default) or a JSON list`;

function parseFlags(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      cluster: { type: 'string' },
      snapshot: { type: 'string' },
      namespace: { type: 'string' },
      charts: { type: 'string' },
      format: { type: 'string', default: 'yaml' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (!values.help) {
    if (values.format !== 'yaml' && values.format !== 'json')
      throw new CliError(`--format ${values.format}: expected yaml or json`);
    if (positionals.length > 1) throw new CliError(`one directory is rendered; got ${positionals.join(', ')}`);
    if (positionals.length === 0 && !(values.cluster && values.config)) {
      throw new CliError('the directory to render is required (or --cluster with --config)');
    }
  }
  return { ...values, dir: positionals[0] };
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (printedHelp(io, flags.help, HELP)) return 0;
  const dir = flags.cluster && flags.config && !flags.dir ? undefined : flags.dir;
  const input = await resolveManifests({ cwd: io.cwd, dirFlag: 'dir', dir, flags });
  const live = flags.snapshot ? liveState(await loadLive(resolve(io.cwd, flags.snapshot))) : undefined;
  const rendered = renderTree(input, pipelineCluster(input), live, undefined, undefined, cliCharts(io, flags.charts));
  io.stdout.write(renderDesiredObjects(rendered.objects, flags.format as 'yaml' | 'json'));
  const outOfScope = rendered.sources.filter((result) => result.scope === 'out-of-scope');
  const names = outOfScope.map((result) => sourceName(result.source.id));
  const account = renderAccount(rendered.notRendered ?? [], rendered.notes, names);
  for (const line of account.lines) io.stderr.write(`${line}\n`);
  return account.partial ? EXIT_PARTIAL : 0;
}

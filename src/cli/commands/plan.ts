// `driftback plan`: what applying the manifests at --head would do to the live cluster — create,
// update, prune, unchanged — with the warnings that matter. Exit 0 no changes, 1 changes, 2 error,
// 3 a partial plan (part of head was not rendered).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { renderBudget } from '../../core/manifests/index.js';
import { isEmptyPlan } from '../../core/plan/index.js';
import { planClusters, type ClusterPlan, type PartialParts, type PlanRequest } from '../../core/pipeline/index.js';
import { isPartial, partialJson, planToJson, renderPlanComment, renderPlanText } from '../../core/report/index.js';
import { cliCharts } from '../charts.js';
import { CliError, printedHelp, loadLive, type CliIO } from '../io.js';
import { checkReportFlags, REPORT_FLAGS, type Format } from '../flags.js';
import { liveState, manifestError, pipelineCluster, readManifestTree, resolveManifests } from '../inputs.js';
import { templatesBeside } from '../templates.js';
import { EXIT_PARTIAL, warnPartial } from '../partial.js';
import type { Plan } from '../../core/model/index.js';

const HELP = `usage: driftback plan --head <dir> [--base <dir>] --live <snapshot|file|dir> [flags]

Previews what applying the manifests at --head would do to the cluster: create, update, prune,
unchanged, and warnings (data loss, conflicts, reverted hotfixes, immutable fields, stale state).
Exit status: 0 no changes, 1 changes, 2 an error, 3 partial: part of head was not rendered (the
warnings say what and why; the rest was planned).

  --head <dir>                  manifests to apply (a kustomization root or a directory of YAML; with
                                --cluster, the repository root)
  --base <dir>                  the same at the base commit: objects it declares and head does not are pruned
  --live <snapshot|file|dir>    a driftback snapshot, kubectl get -o json output, YAML/JSON objects, or a directory of them
  --config <yml>                driftback config (default: <head>/.github/driftback.yml when it exists)
  --cluster <name>              plan this cluster of the config (its path, namespaces, prune, staleAfter)
  --charts <dir>                chart archives as helm pull writes them (<name>-<version>.tgz), for charts
                                of Helm repositories (default: DRIFTBACK_CHARTS_DIR)
  --namespace <ns>              namespace for namespaced manifests that name none (default: the cluster's
                                defaultNamespace, else "default")
  --format text|json|markdown   output format (default: text; markdown is the pull request comment)`;

function parseFlags(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      head: { type: 'string' },
      base: { type: 'string' },
      ...REPORT_FLAGS,
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.help) {
    checkReportFlags(values);
    if (!values.head) throw new CliError('--head is required: the manifests whose apply is previewed');
  }
  return values;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (printedHelp(io, flags.help, HELP)) return 0;
  const input = await resolveManifests({ cwd: io.cwd, dirFlag: 'head', dir: flags.head!, flags });
  if (flags.live!.length > 1) {
    throw new CliError('--live is given more than once: a plan is made against one snapshot, the newest');
  }
  const live = liveState(await loadLive(resolve(io.cwd, flags.live![0]!)));
  const baseTree = flags.base ? await readManifestTree(io.cwd, 'base', flags.base, input) : undefined;
  const target = pipelineCluster(input);
  // The App's planClusters on one target; one budget and one chart renderer for head and base, as the
  // App has one per job.
  const request: PlanRequest = {
    config: input.config,
    targets: [{ render: target, ...(input.cluster ? { cluster: target } : {}), live }],
    headFiles: input.files,
    ...(baseTree ? { baseFiles: baseTree.files } : {}),
    now: new Date().toISOString(),
  };
  const planned = planClusters(request, renderBudget(), cliCharts(io, flags.charts));
  const stopped = planned.stopped[0];
  if (stopped) throw manifestError(stopped.at === 'head' ? input : baseTree!, stopped.problems);
  const [{ cluster: planName, plan }] = planned.plans as [ClusterPlan];
  const parts = { ...planned.heads[planName]!, displayRoot: input.displayRoot };
  warnPartial(io, parts);
  const name = input.cluster?.name ?? live.cluster ?? 'cluster';
  await writePlan(io, flags.format as Format, { name, plan, parts, capturedAt: live.capturedAt }, input.configPath);
  if (isPartial(parts)) return EXIT_PARTIAL;
  return isEmptyPlan(plan) ? 0 : 1;
}

async function writePlan(
  io: CliIO,
  format: Format,
  { name, plan, parts, capturedAt }: { name: string; plan: Plan; parts: PartialParts; capturedAt?: string },
  configPath: string | undefined,
): Promise<void> {
  if (format === 'json')
    io.stdout.write(JSON.stringify({ ...partialJson(parts), ...planToJson(plan) }, null, 2) + '\n');
  // The pull request comment the App posts for this cluster, with the snapshot's time as it shows it.
  else if (format === 'markdown') {
    const snapshots = capturedAt ? { [name]: capturedAt } : {};
    const templates = await templatesBeside(configPath);
    io.stdout.write(renderPlanComment([{ cluster: name, plan }], { snapshots, templates }));
  } else io.stdout.write(renderPlanText(name, plan));
}

// `driftback diff`: compares the manifests with live state and prints the drift.
// Exit codes follow diff(1) and kubectl diff: 0 in sync, 1 differences, 2 an error; 3 a partial result.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { suspensionNotices } from '../../core/emergency/index.js';
import { evaluateDrift } from '../../core/pipeline/index.js';
import { sourceReportLine } from '../../core/model/index.js';
import {
  isPartial,
  notesBesideNotRendered,
  paletteFor,
  partialJson,
  renderDiffJson,
  renderDiffText,
  renderDriftMarkdown,
} from '../../core/report/index.js';
import { cliCharts } from '../charts.js';
import { CliError, printedHelp, loadLive, type CliIO } from '../io.js';
import { checkReportFlags, REPORT_FLAGS, type Format } from '../flags.js';
import { driftInput, evaluatedOrThrow, resolveManifests } from '../inputs.js';
import { templatesBeside } from '../templates.js';
import { evaluationParts, EXIT_PARTIAL, reportedSources, warnPartial } from '../partial.js';

const HELP = `usage: driftback diff --desired <dir|file> --live <snapshot|file|dir> [flags]

Compares the manifests in Git with live state and prints the drift.
Exit status: 0 in sync, 1 differences, 2 an error, 3 partial: part of the cluster was not rendered
(stderr says what and why; the rest was compared).

  --desired <dir|file>          manifests: a kustomization root, a directory of YAML, or one file
  --live <snapshot|file|dir>    a driftback snapshot, kubectl get -o json output, YAML/JSON objects, or a
                                directory of them; repeat it with earlier snapshots first to apply the
                                persistence gate (drift.minSnapshots)
  --config <yml>                driftback config (default: <desired>/.github/driftback.yml when it exists)
  --cluster <name>              take the manifests from this cluster's path in the config; the repository
                                is the directory that holds .github/driftback.yml
  --charts <dir>                chart archives as helm pull writes them (<name>-<version>.tgz), for charts
                                of Helm repositories (default: DRIFTBACK_CHARTS_DIR)
  --namespace <ns>              namespace for namespaced manifests that name none (default: the cluster's
                                defaultNamespace, else "default")
  --format text|json|markdown   output format (default: text; colored on a terminal unless NO_COLOR is set)`;

function parseFlags(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      desired: { type: 'string' },
      ...REPORT_FLAGS,
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.help) {
    checkReportFlags(values);
    if (!values.desired && !values.cluster)
      throw new CliError('--desired is required (or --cluster with --config): the manifests to compare');
  }
  return values;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (printedHelp(io, flags.help, HELP)) return 0;
  // With --cluster and --config the repository is the one holding the config, whatever --desired says.
  const dir = flags.cluster && flags.config ? undefined : flags.desired;
  const input = await resolveManifests({ cwd: io.cwd, dirFlag: 'desired', dir, flags });
  const lives = await Promise.all(flags.live!.map((path) => loadLive(resolve(io.cwd, path))));
  const drift = driftInput(input, lives, cliCharts(io, flags.charts));
  const evaluation = evaluatedOrThrow(input, evaluateDrift(drift));
  const { undone } = drift;
  const result = evaluation.drift;
  // Parts of the tree that were not rendered, and the live objects set aside for them, go to stderr.
  const parts = evaluationParts(evaluation, input.displayRoot);
  warnPartial(io, parts);
  warnSetAside(io, result.notRendered?.live.length ?? 0);
  await writeReport(io, flags.format as Format, { configPath: input.configPath, lives, evaluation, undone, parts });
  const { modified, missing, extra } = result.summary;
  if (isPartial(parts)) return EXIT_PARTIAL;
  return modified + missing + extra > 0 ? 1 : 0;
}

function warnSetAside(io: CliIO, aside: number): void {
  if (aside > 0)
    io.stderr.write(
      `warning: ${aside} live object${aside === 1 ? '' : 's'} not compared: a part that was not rendered may have made ${aside === 1 ? 'it' : 'them'}\n`,
    );
}

/** The drift report on stdout, as JSON, Markdown (the drift PR's body) or text. */
async function writeReport(
  io: CliIO,
  format: Format,
  report: {
    configPath: string | undefined;
    lives: Awaited<ReturnType<typeof loadLive>>[];
    evaluation: ReturnType<typeof evaluatedOrThrow>;
    undone: ReturnType<typeof driftInput>['undone'];
    parts: ReturnType<typeof evaluationParts>;
  },
): Promise<void> {
  const { evaluation, undone, parts } = report;
  const result = evaluation.drift;
  const sources = reportedSources(evaluation.sources);
  const suspensions = suspensionNotices(evaluation.suspensions, evaluation.emergency);
  const { skipped } = evaluation;
  const capturedAt = report.lives.at(-1)?.snapshot?.capturedAt;
  if (format === 'json')
    io.stdout.write(renderDiffJson(result, { sources, suspensions, skipped, undone, ...partialJson(parts) }));
  else if (format === 'markdown') {
    const templates = await templatesBeside(report.configPath);
    io.stdout.write(renderDriftMarkdown(result, { templates, capturedAt, suspensions, skipped }));
  } else {
    const lines = sources.map(sourceReportLine);
    const notes = notesBesideNotRendered(evaluation.notes, parts.notRendered, sources)
      .filter((note) => note.code !== 'rendered-twice')
      .map((note) => `${note.source}: ${note.message}`);
    const extras = { lines, notes, suspensions, skipped, undone, ...(capturedAt ? { capturedAt } : {}) };
    io.stdout.write(renderDiffText(result, paletteFor(io.stdout, io.env), evaluation.pending, extras));
  }
}

// `driftback diff`: compares the manifests with live state and prints the drift.
// Exit codes follow diff(1) and kubectl diff: 0 in sync, 1 differences, 2 an error.
import { parseArgs } from 'node:util';
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { assessHealth } from '../../core/health/index.js';
import { diffResources, type UnlistedType } from '../../core/diff/index.js';
import { renderManifests } from '../../core/manifests/index.js';
import { formatProblem, type DesiredObject, type Snapshot } from '../../core/model/index.js';
import { renderDriftMarkdown } from '../../core/report/index.js';
import type { ClusterConfig, Config } from '../../core/config/index.js';
import { CliError, loadConfig, loadLive, readTree, type CliIO } from '../io.js';
import { paletteFor } from '../format/color.js';
import { formatJson } from '../format/json.js';
import { formatText } from '../format/text.js';

const HELP = `usage: driftback diff --desired <dir|file> --live <snapshot|file|dir> [flags]

Compares the manifests in Git with live state and prints the drift.
Exit status: 0 in sync, 1 differences, 2 or more an error.

  --desired <dir|file>          manifests: a kustomization root, a directory of YAML, or one file
  --live <snapshot|file|dir>    a driftback snapshot, kubectl get -o json output, YAML/JSON objects, or a directory of them
  --config <yml>                driftback config (default: <desired>/.github/driftback.yml when it exists)
  --cluster <name>              take the manifests from this cluster's path in the config; the repository
                                is the directory that holds .github/driftback.yml
  --namespace <ns>              namespace for namespaced manifests that name none (default: the cluster's
                                defaultNamespace, else "default")
  --format text|json|markdown   output format (default: text; colored on a terminal unless NO_COLOR is set)`;

const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

interface DesiredInput {
  files: Map<string, string>;
  /** Directory inside `files` to render ('' for the whole tree). */
  root: string;
  /** How file names in messages are prefixed so they resolve from the working directory. */
  displayRoot: string;
  config: Config;
  cluster?: ClusterConfig;
}

function parseFlags(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      desired: { type: 'string' },
      live: { type: 'string' },
      config: { type: 'string' },
      cluster: { type: 'string' },
      namespace: { type: 'string' },
      format: { type: 'string', default: 'text' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.help) {
    if (!FORMATS.includes(values.format as Format)) throw new CliError(`--format ${values.format}: expected text, json or markdown`);
    if (!values.live) throw new CliError('--live is required: a snapshot, kubectl get -o json output, or a directory of objects');
    if (!values.desired && !values.cluster) throw new CliError('--desired is required (or --cluster with --config): the manifests to compare');
  }
  return values;
}

const displayPath = (cwd: string, path: string): string => relative(cwd, path) || '.';

async function readClusterTree(cwd: string, clusterName: string, configFlag: string | undefined, desired: string | undefined): Promise<DesiredInput> {
  const { config, path } = await loadConfig(configFlag && resolve(cwd, configFlag), desired && resolve(cwd, desired));
  if (!path) throw new CliError(`--cluster ${clusterName}: needs the config that lists it: pass --config <repo>/.github/driftback.yml`);
  const cluster = config.clusters?.find((candidate) => candidate.name === clusterName);
  if (!cluster) {
    const known = config.clusters?.map((candidate) => candidate.name).join(', ');
    throw new CliError(`--cluster ${clusterName}: ${displayPath(cwd, path)} lists no such cluster (${known ? 'it lists: ' + known : 'it has no clusters section'})`);
  }
  // The config lives at <repo>/.github/driftback.yml; cluster paths are relative to <repo>.
  const repo = dirname(dirname(path));
  const files = await readTree(repo);
  const root = cluster.path.replace(/^\.\//, '').replace(/\/+$/, '');
  if (![...files.keys()].some((file) => file.startsWith(root + '/'))) {
    throw new CliError(`${displayPath(cwd, path)}: cluster ${clusterName} has path "${cluster.path}", but ${join(displayPath(cwd, repo), root)} holds no manifests`);
  }
  return { files, root, displayRoot: displayPath(cwd, repo), config, cluster };
}

async function readDesired(cwd: string, desired: string, configFlag: string | undefined): Promise<DesiredInput> {
  const full = resolve(cwd, desired);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw new CliError(`--desired ${desired}: no such file or directory`);
  const { config } = await loadConfig(configFlag && resolve(cwd, configFlag), info.isDirectory() ? full : undefined);
  const files = await readTree(full);
  return { files, root: '', displayRoot: info.isDirectory() ? displayPath(cwd, full) : displayPath(cwd, dirname(full)), config };
}

/** Snapshot scope errors (`apps/v1/statefulsets`): the types the diff must not call missing. */
function unlistedOf(snapshot: Snapshot | undefined): UnlistedType[] {
  return (snapshot?.scope.errors ?? []).map((error) => ({ resource: error.resource }));
}

function render(input: DesiredInput, defaultNamespace: string): DesiredObject[] {
  const result = renderManifests(input.files, input.root, { defaultNamespace });
  if (result.errors.length > 0) {
    const first = result.errors[0];
    const file = input.displayRoot === '.' ? first.file : join(input.displayRoot, first.file);
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more problems)` : '';
    throw new CliError(formatProblem({ ...first, file }) + more);
  }
  return result.objects;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (flags.help) {
    io.stdout.write(HELP + '\n');
    return 0;
  }
  const input = flags.cluster
    ? await readClusterTree(io.cwd, flags.cluster, flags.config, flags.desired)
    : await readDesired(io.cwd, flags.desired!, flags.config);
  const live = await loadLive(resolve(io.cwd, flags.live!));
  const desired = render(input, flags.namespace ?? input.cluster?.defaultNamespace ?? 'default');
  const result = diffResources(desired, live.objects, {
    config: input.config,
    namespaces: input.cluster?.namespaces,
    complete: live.snapshot ? live.snapshot.scope.complete : true,
    unlisted: unlistedOf(live.snapshot),
  });
  for (const resource of result.resources) {
    if (resource.live && !resource.health) resource.health = assessHealth(resource.live);
  }
  const format = flags.format as Format;
  if (format === 'json') io.stdout.write(formatJson(result));
  else if (format === 'markdown') io.stdout.write(renderDriftMarkdown(result));
  else io.stdout.write(formatText(result, paletteFor(io.stdout, io.env)));
  const { modified, missing, extra } = result.summary;
  return modified + missing + extra > 0 ? 1 : 0;
}


// `driftback plan`: what applying the manifests at --head would do to the live cluster — create,
// update, prune, unchanged — with the warnings that matter. Exit 0 no changes, 1 changes, 2 error.
import { parseArgs } from 'node:util';
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { newParseCache, renderManifests, type ParseCache } from '../../core/manifests/index.js';
import { formatProblem, type DesiredObject } from '../../core/model/index.js';
import { isEmptyPlan, planChanges } from '../../core/plan/index.js';
import { planToJson, renderPlanComment, renderPlanText } from '../../core/report/index.js';
import type { ClusterConfig, Config } from '../../core/config/index.js';
import { CliError, loadConfig, loadLive, readTree, type CliIO } from '../io.js';

const HELP = `usage: driftback plan --head <dir> [--base <dir>] --live <snapshot|file|dir> [flags]

Previews what applying the manifests at --head would do to the cluster: create, update, prune,
unchanged, and warnings (data loss, conflicts, reverted hotfixes, immutable fields, stale state).
Exit status: 0 no changes, 1 changes, 2 or more an error.

  --head <dir>                  manifests to apply (a kustomization root or a directory of YAML; with
                                --cluster, the repository root)
  --base <dir>                  the same at the base commit: objects it declares and head does not are pruned
  --live <snapshot|file|dir>    a driftback snapshot, kubectl get -o json output, YAML/JSON objects, or a directory of them
  --config <yml>                driftback config (default: <head>/.github/driftback.yml when it exists)
  --cluster <name>              plan this cluster of the config (its path, namespaces, prune, staleAfter)
  --namespace <ns>              namespace for namespaced manifests that name none (default: the cluster's
                                defaultNamespace, else "default")
  --format text|json|markdown   output format (default: text; markdown is the pull request comment)`;

const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

function parseFlags(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      head: { type: 'string' },
      base: { type: 'string' },
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
    if (!values.head) throw new CliError('--head is required: the manifests whose apply is previewed');
    if (!values.live) throw new CliError('--live is required: a snapshot, kubectl get -o json output, or a directory of objects');
  }
  return values;
}

interface Tree {
  files: Map<string, string>;
  root: string;
  displayRoot: string;
}

async function readManifests(cwd: string, flag: string, dir: string, cluster: ClusterConfig | undefined): Promise<Tree> {
  const full = resolve(cwd, dir);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw new CliError(`--${flag} ${dir}: no such file or directory`);
  const files = await readTree(full);
  const displayRoot = relative(cwd, info.isDirectory() ? full : dirname(full)) || '.';
  if (!cluster) return { files, root: '', displayRoot };
  const root = cluster.path.replace(/^\.\//, '').replace(/\/+$/, '');
  if (![...files.keys()].some((file) => file.startsWith(root + '/'))) {
    throw new CliError(`--${flag} ${dir}: cluster ${cluster.name} has path "${cluster.path}", but ${join(displayRoot, root)} holds no manifests`);
  }
  return { files, root, displayRoot };
}

function render(tree: Tree, defaultNamespace: string, cache: ParseCache): DesiredObject[] {
  const result = renderManifests(tree.files, tree.root, { defaultNamespace, cache });
  if (result.errors.length > 0) {
    const first = result.errors[0];
    const file = tree.displayRoot === '.' ? first.file : join(tree.displayRoot, first.file);
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more problems)` : '';
    throw new CliError(formatProblem({ ...first, file }) + more);
  }
  return result.objects;
}

function pickCluster(config: Config, name: string | undefined, configPath: string | undefined): ClusterConfig | undefined {
  if (!name) return undefined;
  if (!configPath) throw new CliError(`--cluster ${name}: needs the config that lists it: pass --config <repo>/.github/driftback.yml`);
  const cluster = config.clusters?.find((candidate) => candidate.name === name);
  if (!cluster) {
    const known = config.clusters?.map((candidate) => candidate.name).join(', ');
    throw new CliError(`--cluster ${name}: ${configPath} lists no such cluster (${known ? 'it lists: ' + known : 'it has no clusters section'})`);
  }
  return cluster;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags(args);
  if (flags.help) {
    io.stdout.write(HELP + '\n');
    return 0;
  }
  const headDir = resolve(io.cwd, flags.head!);
  const { config, path: configPath } = await loadConfig(flags.config && resolve(io.cwd, flags.config), headDir);
  const cluster = pickCluster(config, flags.cluster, configPath);
  const namespace = flags.namespace ?? cluster?.defaultNamespace ?? 'default';
  // Files unchanged between the two trees (same path and text) are parsed once.
  const cache = newParseCache();
  const head = render(await readManifests(io.cwd, 'head', flags.head!, cluster), namespace, cache);
  const base = flags.base ? render(await readManifests(io.cwd, 'base', flags.base, cluster), namespace, cache) : undefined;
  const live = await loadLive(resolve(io.cwd, flags.live!));
  const scope = live.snapshot?.scope;
  const plan = planChanges({
    head,
    base,
    live: live.objects,
    config,
    cluster,
    snapshot: live.snapshot && scope ? { capturedAt: live.snapshot.capturedAt, complete: scope.complete, errors: scope.errors } : undefined,
    now: new Date().toISOString(),
    path: cluster?.path,
  });
  const name = cluster?.name ?? live.snapshot?.cluster ?? 'cluster';
  const format = flags.format as Format;
  if (format === 'json') io.stdout.write(JSON.stringify(planToJson(plan), null, 2) + '\n');
  else if (format === 'markdown') io.stdout.write(renderPlanComment([{ cluster: name, plan }]));
  else io.stdout.write(renderPlanText(name, plan));
  return isEmptyPlan(plan) ? 0 : 1;
}

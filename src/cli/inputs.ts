// Where a CLI command's manifests come from: the config (`--config`, else the repository's
// .github/driftback.yml), the cluster it names (`--cluster`), the tree to read and the directory in
// it to render, the namespace for manifests that name none, and how file names are shown in
// messages. `diff`, `plan` and `codify` resolve their input here so they agree on every rule.
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { ChartRenderer } from '../core/charts/index.js';
import { findCluster, type ClusterConfig, type Config } from '../core/config/index.js';
import { renderBudget, type ParseCache, type RenderBudget } from '../core/manifests/index.js';
import { formatProblem, type SourceProblem } from '../core/model/index.js';
import {
  evaluateDrift,
  undoneSince,
  watchedChanges,
  type DriftEvaluation,
  type DriftInput,
  type EvaluatedDrift,
  type UndoneChange,
} from '../core/pipeline/index.js';
import { type LiveState } from '../core/model/index.js';
import { clusterRoot, renderCluster, type ClusterRender, type ClusterTarget } from '../core/render/index.js';
import { cliCharts } from './charts.js';
import { CliError, loadConfig, loadLive, readTree, type CliIO, type LiveInput } from './io.js';
import { evaluationParts, warnPartial } from './partial.js';

/** A tree of manifest files read from disk, and which part of it to render. */
export interface ManifestTree {
  files: Map<string, string>;
  /** Directory inside `files` to render ('' for the whole tree). */
  root: string;
  /** Absolute directory the file names in `files` are relative to. */
  dir: string;
  /** How file names in messages are prefixed so they resolve from the working directory. */
  displayRoot: string;
}

export interface ResolvedConfig {
  config: Config;
  /** Absolute path of the config file read; undefined when none was found and defaults apply. */
  configPath?: string;
  cluster?: ClusterConfig;
  defaultNamespace: string;
}

export type ResolvedManifests = ManifestTree & ResolvedConfig;

/** The flags that say which manifests a command reads: the config, its cluster, the default namespace. */
export interface ManifestFlags {
  config?: string;
  cluster?: string;
  namespace?: string;
}

export interface ManifestRequest {
  cwd: string;
  /** The flag that named `dir`, for messages (`desired`, `head`, `repo`). */
  dirFlag: string;
  /**
   * The manifests or repository as given on the command line. Without it (only with a cluster and a
   * config) the repository is the directory that holds .github/driftback.yml.
   */
  dir?: string;
  /** `--config`, `--cluster` and `--namespace`, as given. */
  flags: ManifestFlags;
  /**
   * How `--cluster` without a config file is told: `needs-config` (diff, plan: the cluster's path comes
   * from the config) or `no-such-cluster` (codify: a repository without a config has no clusters).
   */
  missingConfig?: MissingConfig;
}

export type MissingConfig = 'needs-config' | 'no-such-cluster';

export const displayPath = (cwd: string, path: string): string => relative(cwd, path) || '.';

/** The config and the cluster named on the command line; `configDir` is searched when `--config` is not given. */
export async function resolveConfig(
  cwd: string,
  configFlag: string | undefined,
  configDir: string | undefined,
  clusterName: string | undefined,
  namespaceFlag: string | undefined,
  missingConfig: MissingConfig = 'needs-config',
): Promise<ResolvedConfig> {
  const { config, path } = await loadConfig(configFlag && resolve(cwd, configFlag), configDir);
  const cluster = clusterName ? pickCluster(cwd, config, clusterName, path, missingConfig) : undefined;
  return {
    config,
    configPath: path,
    cluster,
    defaultNamespace: namespaceFlag ?? cluster?.defaultNamespace ?? 'default',
  };
}

function pickCluster(
  cwd: string,
  config: Config,
  name: string,
  configPath: string | undefined,
  missingConfig: MissingConfig,
): ClusterConfig {
  if (!configPath && missingConfig === 'no-such-cluster')
    throw new CliError(
      `--cluster ${name}: the config lists no such cluster (there is no config: add .github/driftback.yml or pass --config)`,
    );
  if (!configPath)
    throw new CliError(`--cluster ${name}: needs the config that lists it: pass --config <repo>/.github/driftback.yml`);
  const cluster = findCluster(config, name);
  if (!cluster) {
    const known = config.clusters?.map((candidate) => candidate.name).join(', ');
    throw new CliError(
      `--cluster ${name}: the config lists no such cluster (${known ? 'it lists: ' + known : 'it has no clusters section'}): ${displayPath(cwd, configPath)}`,
    );
  }
  return cluster;
}

/** Reads `dir` (a directory of manifests or one file); with a cluster, its path inside `dir` is the part rendered. */
export async function readManifestTree(
  cwd: string,
  dirFlag: string,
  dir: string,
  resolved: Pick<ResolvedConfig, 'cluster' | 'configPath'>,
): Promise<ManifestTree> {
  const full = resolve(cwd, dir);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw new CliError(`--${dirFlag} ${dir}: no such file or directory`);
  return treeOf(cwd, full, info.isDirectory() ? full : dirname(full), resolved);
}

async function treeOf(
  cwd: string,
  full: string,
  base: string,
  { cluster, configPath }: Pick<ResolvedConfig, 'cluster' | 'configPath'>,
): Promise<ManifestTree> {
  const files = await readTree(full, { allText: true });
  const displayRoot = displayPath(cwd, base);
  if (!cluster) return { files, root: '', dir: base, displayRoot };
  const root = clusterRoot(cluster.path);
  // Without a path the cluster's sources (in the snapshot) say what is rendered; `.` is the whole tree.
  if (cluster.path !== undefined && root !== '' && ![...files.keys()].some((file) => file.startsWith(root + '/'))) {
    const where = configPath ? displayPath(cwd, configPath) : `--cluster ${cluster.name}`;
    throw new CliError(
      `${where}: cluster ${cluster.name} has path "${cluster.path}", but ${join(displayRoot, root)} holds no manifests`,
    );
  }
  return { files, root, dir: base, displayRoot };
}

/** The whole input of a command that renders one tree: config, cluster, files, root and namespace. */
export async function resolveManifests(request: ManifestRequest): Promise<ResolvedManifests> {
  const { cwd, dir, dirFlag } = request;
  const full = dir === undefined ? undefined : resolve(cwd, dir);
  const info = full === undefined ? undefined : await stat(full).catch(() => undefined);
  if (dir !== undefined && !info) throw new CliError(`--${dirFlag} ${dir}: no such file or directory`);
  const { config, cluster, namespace } = request.flags;
  const directory = info?.isDirectory() ? full : undefined;
  const resolved = await resolveConfig(cwd, config, directory, cluster, namespace, request.missingConfig);
  if (full !== undefined)
    return { ...resolved, ...(await treeOf(cwd, full, info!.isDirectory() ? full : dirname(full), resolved)) };
  if (!resolved.configPath) throw new CliError(`--${dirFlag} is required (or --cluster with --config)`);
  // The config lives at <repo>/.github/driftback.yml; cluster paths are relative to <repo>.
  const repo = dirname(dirname(resolved.configPath));
  return { ...resolved, ...(await treeOf(cwd, repo, repo, resolved)) };
}

/** The command's error for problems in the manifests: the first (and how many more); files named from the cwd. */
export function manifestError(tree: ManifestTree, problems: readonly SourceProblem[]): CliError {
  const first = problems[0]!;
  const file = tree.displayRoot === '.' ? first.file : join(tree.displayRoot, first.file);
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : '';
  return new CliError(formatProblem({ ...first, file }) + more);
}

/**
 * The cluster the pipeline runs for: the one `--cluster` names, or one made of the flags (the tree
 * given, every namespace). `defaultNamespace` is `--namespace` when given.
 */
export function pipelineCluster(input: ResolvedManifests): ClusterConfig {
  const { cluster, defaultNamespace, root } = input;
  if (cluster) return { ...cluster, defaultNamespace };
  return { name: '', path: root, defaultNamespace, prune: true, staleAfter: '30m' };
}

/**
 * The tree rendered as the cluster's sources apply it (the live state names sources the tree does not
 * declare, and holds what they substitute); a render out of its budget is the command's error.
 */
export function renderTree(
  tree: ManifestTree,
  target: ClusterTarget,
  live: LiveState | undefined,
  cache?: ParseCache,
  budget?: RenderBudget,
  charts?: ChartRenderer,
): ClusterRender {
  const options = {
    ...(cache ? { cache } : {}),
    ...(live ? { live } : {}),
    ...(budget ? { budget } : {}),
    ...(charts ? { charts } : {}),
  };
  const result = renderCluster(tree.files, target, options);
  // Only a render out of its budget is an error; a source that fails is not rendered (a partial result).
  if (result.stopped) throw manifestError(tree, result.errors);
  return result;
}

/** Live input as the pipeline takes it: a snapshot with its scope, or objects that list everything. */
export function liveState(live: LiveInput): LiveState {
  if (!live.snapshot) return { items: live.objects };
  const { cluster, capturedAt, scope, repository, server } = live.snapshot;
  const served =
    server?.resources || server?.gitVersion
      ? {
          server: {
            ...(server.gitVersion ? { gitVersion: server.gitVersion } : {}),
            ...(server.resources ? { resources: server.resources } : {}),
          },
        }
      : {};
  return { items: live.objects, cluster, capturedAt, scope, ...(repository ? { repository } : {}), ...served };
}

/**
 * The drift pipeline's input for a command: the newest live state, and the earlier ones (given first
 * on the command line) as the persistence gate's history, as the App keeps it. The gate asks for no
 * more snapshots than it was given: with one, every difference shows, as kubectl diff shows it.
 * Nothing was ever declined on the command line.
 */
export function driftInput(
  input: ResolvedManifests,
  lives: readonly LiveInput[],
  charts?: ChartRenderer,
): DriftInput & { undone: UndoneChange[] } {
  const states = lives.map(liveState);
  const clusters = new Set(states.flatMap((state) => (state.cluster ? [state.cluster] : [])));
  if (clusters.size > 1) {
    const named = [...clusters].join(', ');
    throw new CliError(`--live: the snapshots are of different clusters (${named}): give one cluster's, oldest first`);
  }
  const base: Omit<DriftInput, 'snapshot' | 'history'> = {
    config: input.config,
    cluster: pipelineCluster(input),
    files: input.files,
    declined: new Set(),
    minSnapshots: 1,
    // One budget for the command, as the App has one per job.
    renderBudget: renderBudget(),
    ...(charts ? { charts } : {}),
  };
  const earlier = states
    .slice(0, -1)
    .map((snapshot) => evaluatedOrThrow(input, evaluateDrift({ ...base, snapshot, history: [] })));
  // Each earlier snapshot's fingerprints, newest first, as the App records them when it arrives.
  const history = earlier.map((evaluated) => new Set(evaluated.fingerprints)).reverse();
  const minSnapshots = Math.min(input.config.drift.minSnapshots, states.length);
  const undone = undoneAcross(earlier, states, input.config);
  return { ...base, snapshot: states.at(-1)!, history, minSnapshots, undone };
}

/**
 * The changes an earlier snapshot showed about to be undone that the next one shows undone, as the App
 * follows them from one upload to the next (each once, at the first snapshot that shows it gone).
 */
function undoneAcross(
  earlier: readonly EvaluatedDrift[],
  states: readonly LiveState[],
  config: ResolvedManifests['config'],
): UndoneChange[] {
  const seen = new Set<string>();
  return earlier.flatMap((evaluated, index) => {
    const next = states[index + 1]!;
    const undone = undoneSince(watchedChanges(evaluated.diff), next.items, next.capturedAt ?? '', config);
    return undone.filter((change) => !seen.has(change.fingerprint) && seen.add(change.fingerprint));
  });
}

/** The evaluated drift, or the command's error: the same problems the App reports on the dashboard. */
export function evaluatedOrThrow(tree: ManifestTree, evaluation: DriftEvaluation): EvaluatedDrift {
  if (evaluation.type === 'manifest-problems') throw manifestError(tree, evaluation.problems);
  if (evaluation.type === 'out-of-scope') throw new CliError(evaluation.message);
  return evaluation;
}

/** The flags of a command that reads a repository checkout and live state (codify, reconcile). */
export interface RepositoryFlags extends ManifestFlags {
  repo?: string;
  live?: string[];
  charts?: string;
}

/**
 * `--repo` and `--live` read and evaluated, what was not rendered said on stderr. `gate: 'given'`
 * asks the persistence gate for no more snapshots than were given (codify, as kubectl diff shows);
 * `gate: 'config'` for drift.minSnapshots, as the App does (reconcile).
 */
export async function evaluateRepository(io: CliIO, flags: RepositoryFlags, gate: 'given' | 'config') {
  const input = await resolveManifests({
    cwd: io.cwd,
    dirFlag: 'repo',
    dir: flags.repo!,
    flags,
    missingConfig: 'no-such-cluster',
  });
  const lives = await Promise.all(flags.live!.map((path) => loadLive(resolve(io.cwd, path))));
  const { minSnapshots, ...rest } = driftInput(input, lives, cliCharts(io, flags.charts));
  const drift: DriftInput = gate === 'given' ? { ...rest, minSnapshots } : rest;
  const evaluated = evaluatedOrThrow(input, evaluateDrift(drift));
  const parts = evaluationParts(evaluated, input.displayRoot);
  warnPartial(io, parts);
  return { input, lives, drift, evaluated, parts };
}

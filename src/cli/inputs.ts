// Where a CLI command's manifests come from: the config (`--config`, else the repository's
// .github/driftback.yml), the cluster it names (`--cluster`), the tree to read and the directory in
// it to render, the namespace for manifests that name none, and how file names are shown in
// messages. `diff`, `plan` and `codify` resolve their input here so they agree on every rule.
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { findCluster, type ClusterConfig, type Config } from '../core/config/index.js';
import { FULL_SCOPE, type SnapshotScope } from '../core/k8s/index.js';
import { renderManifests, type ParseCache } from '../core/manifests/index.js';
import { formatProblem, type DesiredObject } from '../core/model/index.js';
import { CliError, loadConfig, readTree, type LiveInput } from './io.js';

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

export interface ManifestRequest {
  cwd: string;
  /** The flag that named `dir`, for messages (`desired`, `head`, `repo`). */
  dirFlag: string;
  /**
   * The manifests or repository as given on the command line. Without it (only with a cluster and a
   * config) the repository is the directory that holds .github/driftback.yml.
   */
  dir?: string;
  configFlag?: string;
  clusterName?: string;
  namespaceFlag?: string;
  /**
   * How `--cluster` without a config file is told: `needs-config` (diff, plan: the cluster's path comes
   * from the config) or `no-such-cluster` (codify: a repository without a config has no clusters).
   */
  missingConfig?: MissingConfig;
}

export type MissingConfig = 'needs-config' | 'no-such-cluster';

export const displayPath = (cwd: string, path: string): string => relative(cwd, path) || '.';

/** A cluster's path as a directory inside the repository tree (`./apps/prod/` → `apps/prod`). */
const clusterRoot = (cluster: ClusterConfig): string => cluster.path.replace(/^\.\//, '').replace(/\/+$/, '');

/** The config and the cluster named on the command line; `configDir` is searched when `--config` is not given. */
export async function resolveConfig(cwd: string, configFlag: string | undefined, configDir: string | undefined, clusterName: string | undefined, namespaceFlag: string | undefined, missingConfig: MissingConfig = 'needs-config'): Promise<ResolvedConfig> {
  const { config, path } = await loadConfig(configFlag && resolve(cwd, configFlag), configDir);
  const cluster = clusterName ? pickCluster(cwd, config, clusterName, path, missingConfig) : undefined;
  return { config, configPath: path, cluster, defaultNamespace: namespaceFlag ?? cluster?.defaultNamespace ?? 'default' };
}

function pickCluster(cwd: string, config: Config, name: string, configPath: string | undefined, missingConfig: MissingConfig): ClusterConfig {
  if (!configPath && missingConfig === 'no-such-cluster') throw new CliError(`--cluster ${name}: the config lists no such cluster (there is no config: add .github/driftback.yml or pass --config)`);
  if (!configPath) throw new CliError(`--cluster ${name}: needs the config that lists it: pass --config <repo>/.github/driftback.yml`);
  const cluster = findCluster(config, name);
  if (!cluster) {
    const known = config.clusters?.map((candidate) => candidate.name).join(', ');
    throw new CliError(`--cluster ${name}: the config lists no such cluster (${known ? 'it lists: ' + known : 'it has no clusters section'}): ${displayPath(cwd, configPath)}`);
  }
  return cluster;
}

/** Reads `dir` (a directory of manifests or one file); with a cluster, its path inside `dir` is the part rendered. */
export async function readManifestTree(cwd: string, dirFlag: string, dir: string, resolved: Pick<ResolvedConfig, 'cluster' | 'configPath'>): Promise<ManifestTree> {
  const full = resolve(cwd, dir);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw new CliError(`--${dirFlag} ${dir}: no such file or directory`);
  return treeOf(cwd, full, info.isDirectory() ? full : dirname(full), resolved);
}

async function treeOf(cwd: string, full: string, base: string, { cluster, configPath }: Pick<ResolvedConfig, 'cluster' | 'configPath'>): Promise<ManifestTree> {
  const files = await readTree(full);
  const displayRoot = displayPath(cwd, base);
  if (!cluster) return { files, root: '', dir: base, displayRoot };
  const root = clusterRoot(cluster);
  if (![...files.keys()].some((file) => file.startsWith(root + '/'))) {
    const where = configPath ? displayPath(cwd, configPath) : `--cluster ${cluster.name}`;
    throw new CliError(`${where}: cluster ${cluster.name} has path "${cluster.path}", but ${join(displayRoot, root)} holds no manifests`);
  }
  return { files, root, dir: base, displayRoot };
}

/** The whole input of a command that renders one tree: config, cluster, files, root and namespace. */
export async function resolveManifests(request: ManifestRequest): Promise<ResolvedManifests> {
  const { cwd, dir, dirFlag } = request;
  const full = dir === undefined ? undefined : resolve(cwd, dir);
  const info = full === undefined ? undefined : await stat(full).catch(() => undefined);
  if (dir !== undefined && !info) throw new CliError(`--${dirFlag} ${dir}: no such file or directory`);
  const resolved = await resolveConfig(cwd, request.configFlag, info?.isDirectory() ? full : undefined, request.clusterName, request.namespaceFlag, request.missingConfig);
  if (full !== undefined) return { ...resolved, ...(await treeOf(cwd, full, info!.isDirectory() ? full : dirname(full), resolved)) };
  if (!resolved.configPath) throw new CliError(`--${dirFlag} is required (or --cluster with --config)`);
  // The config lives at <repo>/.github/driftback.yml; cluster paths are relative to <repo>.
  const repo = dirname(dirname(resolved.configPath));
  return { ...resolved, ...(await treeOf(cwd, repo, repo, resolved)) };
}

/** The tree rendered to desired objects; the first problem (and how many more) is the command's error. */
export function renderTree(tree: ManifestTree, defaultNamespace: string, cache?: ParseCache): DesiredObject[] {
  const result = renderManifests(tree.files, tree.root, { defaultNamespace, ...(cache ? { cache } : {}) });
  if (result.errors.length > 0) {
    const first = result.errors[0];
    const file = tree.displayRoot === '.' ? first.file : join(tree.displayRoot, first.file);
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more problems)` : '';
    throw new CliError(formatProblem({ ...first, file }) + more);
  }
  return result.objects;
}

/** What the live input says about its own coverage, as the diff takes it: objects that are no snapshot list everything. */
export function liveCoverage(live: LiveInput): { scope: SnapshotScope } {
  return { scope: live.snapshot?.scope ?? FULL_SCOPE };
}

// The reconcile's computation, without I/O: render the cluster path, diff against the snapshot,
// apply the persistence gate, drop declined drift, split into pull-request groups and codify each.
import { applyPersistenceGate, summarize } from '../../core/classify/index.js';
import { codifyDrift, type CodifyResult } from '../../core/codify/index.js';
import type { ClusterConfig, Config } from '../../core/config/index.js';
import { diffResources } from '../../core/diff/index.js';
import { scopeNamespaces } from '../../core/k8s/index.js';
import { renderManifests, type UnfollowedKind } from '../../core/manifests/index.js';
import type { DiffResult, Snapshot, SourceProblem } from '../../core/model/index.js';
import { codifiedFingerprints, dropDeclined } from './fingerprints.js';

export interface EvaluateInput {
  snapshot: Snapshot;
  config: Config;
  cluster: ClusterConfig;
  /** Repository files, path → text. */
  files: ReadonlyMap<string, string>;
  /** Fingerprint sets of earlier snapshots, newest first (this snapshot excluded). */
  history: ReadonlyArray<ReadonlySet<string>>;
  declined: ReadonlySet<string>;
  /** Symlinks and submodules in the tree: named as such when a kustomization refers to one. */
  unfollowed?: ReadonlyMap<string, UnfollowedKind>;
}

export interface DriftGroup {
  /** The namespace with `groupBy: namespace` ('' = cluster-scoped objects); undefined with `groupBy: cluster`. */
  namespace: string | undefined;
  branch: string;
  result: DiffResult;
  codify: CodifyResult;
  /** What the group's PR codifies: declined when it is closed unmerged. */
  fingerprints: string[];
}

export type Evaluation =
  | { type: 'manifest-problems'; problems: SourceProblem[] }
  | { type: 'out-of-scope'; message: string }
  | {
      type: 'evaluated';
      /** The whole diff (before the gate): health, conflicts and ignored counts come from it. */
      diff: DiffResult;
      /** Persistent drift a human has not declined. */
      drift: DiffResult;
      /** This snapshot's fingerprints, for the next run's gate. */
      fingerprints: string[];
      pending: number;
      declined: number;
      groups: DriftGroup[];
    };

export function clusterRoot(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/+$/, '');
}

export { scopeNamespaces };

export function branchFor(config: Config, cluster: string, namespace: string | undefined): string {
  const prefix = config.pullRequests.branchPrefix;
  return namespace === undefined ? `${prefix}${cluster}` : `${prefix}${cluster}/${namespace || 'cluster-scoped'}`;
}

function hasDrift(result: DiffResult): boolean {
  return result.resources.some((resource) => resource.status === 'extra' || resource.changes.length > 0);
}

function splitByNamespace(result: DiffResult): Map<string, DiffResult> {
  const groups = new Map<string, DiffResult>();
  for (const namespace of new Set(result.resources.map((resource) => resource.key.namespace))) {
    const resources = result.resources.filter((resource) => resource.key.namespace === namespace);
    groups.set(namespace, { ...result, resources, summary: summarize(resources) });
  }
  return groups;
}

export function evaluateDrift(input: EvaluateInput): Evaluation {
  const { snapshot, config, cluster } = input;
  const namespaces = scopeNamespaces(cluster.namespaces, snapshot.scope.namespaces);
  if (namespaces?.length === 0) {
    return { type: 'out-of-scope', message: `the snapshot holds none of the namespaces configured for ${cluster.name} (${cluster.namespaces?.join(', ')}): check the agent's namespaces` };
  }
  const root = clusterRoot(cluster.path);
  const rendered = renderManifests(input.files, root, { defaultNamespace: cluster.defaultNamespace, unfollowed: input.unfollowed });
  // A file that does not render would make its objects look hand-made; nothing is proposed until it is fixed.
  if (rendered.errors.length > 0) return { type: 'manifest-problems', problems: rendered.errors };
  const diff = diffResources(rendered.objects, snapshot.items, { config, namespaces: cluster.namespaces, scope: snapshot.scope });
  const gated = applyPersistenceGate(diff, input.history, config.drift.minSnapshots);
  const { result: drift, dropped } = dropDeclined(gated.result, input.declined);
  const parts = config.pullRequests.groupBy === 'namespace' ? [...splitByNamespace(drift)] : [[undefined, drift] as const];
  const groups: DriftGroup[] = [];
  for (const [namespace, result] of parts) {
    if (!hasDrift(result)) continue;
    const codify = codifyDrift({
      files: input.files, root, result, live: snapshot.items, config, defaultNamespace: cluster.defaultNamespace,
      cluster: { name: cluster.name, ...(namespaces ? { namespaces } : {}) },
    });
    groups.push({ namespace, branch: branchFor(config, cluster.name, namespace), result, codify, fingerprints: codifiedFingerprints(result, codify.codified) });
  }
  return { type: 'evaluated', diff, drift, fingerprints: gated.fingerprints, pending: gated.pending.length, declined: dropped, groups };
}

// What applying a commit would do to a cluster: data, rendered by core/report.
import type { ResourceKey } from './key.js';
import type { FieldChange, Conflict } from './drift.js';
import type { DesiredObject, SkippedDocument } from './source.js';
import type { KubeObject } from './object.js';
import type { Health } from './health.js';
import type { SourceReport } from './source-report.js';
import type { SuspensionNotice } from './suspension-notice.js';
import type { PlanDeleteHook, PlanHook } from './sync-hook.js';

export type PlanAction = 'create' | 'update' | 'prune';

export type WarningCode =
  | 'prune-protected'
  | 'conflict'
  | 'reverts-live-change'
  | 'chart-hand-change'
  | 'immutable'
  | 'stale-snapshot'
  | 'partial-snapshot'
  | 'namespace-missing'
  | 'unhealthy'
  | 'not-reconciling'
  | 'not-rendered'
  /** A HorizontalPodAutoscaler and the manifest both set the workload's replicas. */
  | 'hpa-replicas'
  /** The source that applies what the pull request changes is suspended: the merge deploys nothing. */
  | 'suspended-source'
  /** The Application's AppProject does not permit the resource: Argo CD refuses to sync it. */
  | 'refused-by-argocd'
  /** An Argo CD sync option changes what the sync does (Replace, ServerSideApply, CreateNamespace, Prune=confirm). */
  | 'argocd-sync-option'
  /** argocd-cm `resource.compareoptions` make Argo CD compare a field the controller writes: OutOfSync stays. */
  | 'argocd-compare-option';

export interface PlanWarning {
  code: WarningCode;
  id?: ResourceKey;
  message: string;
  /** Where in head the field is declared, when it is. */
  file?: string;
  line?: number;
  path?: string;
  /**
   * What to do, when it is the same for each warning of this code on one resource: `message` ends with
   * it, and a comment says it once under the resource, with a line per field.
   */
  advice?: string;
  /** The objects the warning is about when it is about several (`partial-snapshot`: what the snapshot does not show). */
  objects?: ResourceKey[];
}

export interface PlanEntry {
  id: ResourceKey;
  action: PlanAction;
  changes: FieldChange[];
  conflicts: Conflict[];
  desired?: DesiredObject;
  live?: KubeObject;
  health?: Health;
}

/**
 * What one source says it manages (Flux status.inventory, Argo CD status.resources) and whether it
 * deletes what it no longer renders: the ground truth of prune.
 */
export interface PruneInventory {
  /** `flux-system/apps`. */
  source: string;
  /** keyId of every object in the inventory. */
  keys: ReadonlySet<string>;
  /** Whether the source renders this repository (false: another repository's objects, never pruned here). */
  inScope: boolean;
  /** Flux `spec.prune`; Argo CD automated sync with `prune`. */
  prunes: boolean;
  /** A suspended source prunes nothing until it is resumed. */
  suspended: boolean;
  /** What turns pruning on, for the message: `spec.prune: true`, `syncPolicy.automated.prune: true`. */
  pruneSetting: string;
  /** Why the source keeps every object it no longer renders (Argo CD `Prune=false`), unless the object says `Prune=true`. */
  keepAll?: string;
  /** Why the source does not prune, when it says more than the missing setting (automated sync without prune). */
  notPruned?: string;
  /**
   * The source itself is deleted (an Application its ApplicationSet no longer generates): what it lists
   * goes with it as Argo CD deletes an Application's resources, controller-owned or not; its sync options
   * may say `Delete=false`.
   */
  deletion?: { syncOptions: readonly string[] };
}

export interface PlanKept {
  id: ResourceKey;
  reason: string;
}

export interface Plan {
  cluster?: string;
  create: PlanEntry[];
  update: PlanEntry[];
  prune: PlanEntry[];
  /** Live objects the source no longer declares that are protected from pruning. */
  kept: PlanKept[];
  unchanged: number;
  warnings: PlanWarning[];
  /** What merging does per source (Flux Kustomization, Argo CD Application); absent when not known. */
  sources?: SourceReport[];
  /** Sources told to stop reconciling in the live state: a merge under them deploys nothing. */
  suspensions?: SuspensionNotice[];
  /** Hooks head declares that a sync runs (Argo CD's phases and waves, Helm hooks mapped): information. */
  hooks?: PlanHook[];
  /** Argo CD PreDelete / PostDelete hooks that run because the plan deletes their Application: information. */
  deleteHooks?: PlanDeleteHook[];
  /**
   * Manifests with generateName and no name (outside kustomize, which refuses them): created anew at every
   * sync, never compared, never pruned, never missing; `made` lists the live objects they made that the
   * plan does not prune.
   */
  generated?: SkippedDocument[];
}

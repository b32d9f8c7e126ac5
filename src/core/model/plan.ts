// What applying a commit would do to a cluster: data, rendered by core/report.
import type { ResourceKey } from './key.js';
import type { FieldChange, Conflict } from './drift.js';
import type { DesiredObject } from './source.js';
import type { KubeObject } from './object.js';
import type { Health } from './health.js';

export type PlanAction = 'create' | 'update' | 'prune';

export type WarningCode =
  | 'prune-protected'
  | 'conflict'
  | 'reverts-live-change'
  | 'immutable'
  | 'stale-snapshot'
  | 'partial-snapshot'
  | 'namespace-missing'
  | 'unhealthy'
  | 'not-reconciling'
  /** The source that applies what the pull request changes is suspended: the merge deploys nothing. */
  | 'suspended-source';

export interface PlanWarning {
  code: WarningCode;
  id?: ResourceKey;
  message: string;
  /** Where in head the field is declared, when it is. */
  file?: string;
  line?: number;
  path?: string;
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
}

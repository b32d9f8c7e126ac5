// A hook: an object a GitOps tool runs at a moment of a sync instead of keeping it applied. It is
// not desired state: never missing, created, pruned or codified; what is left of it in the cluster is
// not drift. The plan shows which hooks a sync runs, in which phase and wave.
import type { ResourceKey } from './key.js';

/** Argo CD's sync phases, in the order a sync runs them (SyncFail only when the sync fails). */
export const HOOK_PHASES = ['PreSync', 'Sync', 'PostSync', 'SyncFail'] as const;

export type HookPhase = (typeof HOOK_PHASES)[number];

/**
 * Argo CD's delete hooks (controller/hook.go): run when the Application is deleted, PreDelete before what
 * it deployed is deleted, PostDelete after; never applied by a sync.
 */
export const DELETE_HOOK_PHASES = ['PreDelete', 'PostDelete'] as const;

export type DeleteHookPhase = (typeof DELETE_HOOK_PHASES)[number];

export interface SyncHook {
  /** The annotation that makes the object a hook, and its value as written. */
  annotation: 'argocd.argoproj.io/hook' | 'helm.sh/hook';
  value: string;
  /** The phases of an Argo CD sync it runs in, in sync order; empty when no sync runs it. */
  phases: HookPhase[];
  /** `argocd.argoproj.io/hook: Skip` alone: Argo CD never applies the object. */
  skip: boolean;
  /** Its sync wave (`argocd.argoproj.io/sync-wave`, else `helm.sh/hook-weight`, else 0). */
  wave: number;
  /** When Argo CD deletes it (`BeforeHookCreation` unless the object names others). */
  deletePolicies: string[];
  /** The delete phases it runs in when its Application is deleted; empty for a hook of syncs only. */
  onDelete: DeleteHookPhase[];
}

/** A hook that head declares, for the plan's information. */
export interface PlanHook {
  id: ResourceKey;
  hook: SyncHook;
  /** Where head declares it. */
  file?: string;
  line?: number;
}

/** A delete hook that runs when the plan deletes its Application, for the plan's information. */
export interface PlanDeleteHook extends PlanHook {
  /** The Application whose deletion runs it. */
  application: ResourceKey;
  /**
   * Where it was read from when its Application's source does not render at head: the base commit's
   * render (the last that rendered it), or the cluster; `reason` says why head's render could not tell.
   * Absent: head's render.
   */
  origin?: { at: 'base' | 'live'; reason: string };
}

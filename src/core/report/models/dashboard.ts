// The model of the dashboard issue (template `dashboard`).
import type { RiskyRowModel } from './risk.js';
import type { UndoGroupModel } from './undo.js';

export interface DashboardClusterModel {
  name: string;
  /** How old the latest snapshot is (`5m`); undefined when none arrived. */
  snapshotAge?: string;
  /** When it was taken, as shown (`2026-12-01 12:00 UTC`). */
  capturedAt?: string;
  /** The snapshot is older than `staleAfter`. */
  stale: boolean;
  staleAfter: string;
  /** Live objects in the cluster's scope. */
  resources: number;
  /** One line per GitOps source (`flux-system/apps: 1 object, 4 live changes`); empty for a cluster applied by kubectl. */
  sources: string[];
  /** What could not be checked (a value substituted from a Secret) or is not supported (a jq ignore rule). */
  notChecked: string[];
  /** Drift, when there is any: `amount` in the one unit (`1 object, 4 live changes`), `causes` its changes by cause (`3 human, 1 unknown`). */
  drift?: { amount: string; causes: string };
  pullRequests: Array<{ number: number; title?: string }>;
  /** Fields Git declares and a controller owns: `field` as people read it, `pointer` for an ignore rule. */
  conflicts: Array<{ resource: string; field: string; pointer: string; manager: string }>;
  /**
   * Workloads whose manifest declares replicas while an HPA targets them: `where` Git declares them
   * (`file:line`), and the message with the fix (the plan's `hpa-replicas` warning).
   */
  autoscaled: Array<{ resource: string; where?: string; message: string }>;
  /** Ignored differences by the ignore rule's reason. */
  ignored: Array<{ reason: string; count: number }>;
  ignoredTotal: number;
  /**
   * Decisions people made with `/driftback ignore|allow` on drift pull requests, newest first, each
   * object and field once (its latest decision): `verb` `ignored` or `allowed`, `item` the object and
   * field, `by` the login, `when` as shown, `reason`, and the pull request it was made on.
   */
  decisions: Array<{ verb: string; item: string; by: string; when: string; reason: string; pullRequest: number }>;
  /** Decisions left out of `decisions` (older ones past the first 20), and all of them (each item once). */
  decisionsOmitted: number;
  decisionsTotal: number;
  /** Drift reported and never codified: `field` as people read it ('' = the whole object), who and when, why. */
  reported: Array<{ resource: string; field: string; pointer: string; who: string; when: string; reason: string }>;
  degraded: Array<{ resource: string; message?: string }>;
  /**
   * Suspended sources (`Kustomization/flux-system/apps`): since when and for how long, who suspended
   * it (when recorded), and the emergency drift PR made under it.
   */
  suspended: Array<{ resource: string; since?: string; age?: string; who?: string; pullRequest?: number }>;
  notReconciling: Array<{ resource: string; reason?: string }>;
  /** Argo CD Applications that are OutOfSync and nothing worse (`Application/argocd/shop`). */
  outOfSync: string[];
  /** Live objects listed with what is wrong with their identity: never written as files. */
  skipped: Array<{ item: string; kind: string; message: string; compared: boolean }>;
  /** People's changes the GitOps controller is about to undo, per controller, with the remedy (partial `undo`). */
  undo: UndoGroupModel[];
  /** People's changes a controller undid since: what, who and when, by which controller, about when. */
  undone: Array<{
    resource: string;
    field: string;
    who: string;
    when: string;
    by: string;
    /** About when: the controller's own write (`exact`), else the snapshot that first showed it gone. */
    at: string;
    exact: boolean;
  }>;
}

export interface DashboardModel {
  /** Security-relevant drift waiting for a person's decision, every cluster's, shown atop the issue. */
  risky: Array<RiskyRowModel & { cluster: string }>;
  riskyOmitted: number;
  /** Config and manifest errors: where (`file:line`) and what. */
  configErrors: Array<{ where: string; message: string }>;
  /** `status`: the cluster's one line atop the issue (`✅ no drift`, `⚠️ unknown (no snapshot yet)`). */
  clusters: Array<DashboardClusterModel & { status: string }>;
}

// The models of the alert issues (templates `stale-alert`, `not-reconciling-alert`, `suspended-alert`,
// `fix-undone-alert`).

export interface StaleAlertModel {
  cluster: string;
  /** How long no snapshot arrived (`1d`), or `an unknown time`. */
  age: string;
  staleAfter: string;
  /** When the last snapshot was taken (ISO 8601); undefined when none ever arrived. */
  capturedAt?: string;
}

export interface NotReconcilingAlertModel {
  cluster: string;
  /** The reconciler: `Kustomization/flux-system/apps`, `HelmRelease/…`, `Application/…`. */
  resource: string;
  /** Why it is not reconciling (`has been suspended since …`). */
  reason: string;
  suspended: boolean;
  /** The command that resumes it (`flux resume kustomization apps -n flux-system`); absent when a name
   * is not one the Kubernetes API accepts (no command is built from it). */
  resumeCommand?: string;
  /** The command that shows its state (`flux get kustomization apps -n flux-system`); absent likewise. */
  describeCommand?: string;
  /** When its controller stopped or it fell behind HEAD: the controller's workload, when it shows. */
  controller?: string;
  /** Since when HEAD waits (`2026-12-01 10:15 UTC`). */
  since?: string;
  /** The commits of HEAD not applied: short `sha` and the first line of the `message`. */
  pending?: Array<{ sha: string; message: string }>;
  /** What to run to bring it back (`kubectl -n flux-system scale deployment kustomize-controller --replicas=1`). */
  commands?: string[];
}

export interface SuspendedAlertModel {
  cluster: string;
  /** The suspended source: `Kustomization/flux-system/apps`, `Application/argocd/guestbook`. */
  resource: string;
  /** How long it has been suspended (`9h 8m`), or `an unknown time`. */
  age: string;
  resumeWithin: string;
  /** The manager that suspended it (`flux`, `argocd-server`); absent when nothing records it. */
  who?: string;
  /** When, as people read it (`10:02 UTC`, or `at least … (first seen then; …)`). */
  since: string;
  /** The emergency drift PR made under it, and whether it is merged. */
  pullRequest?: number;
  merged: boolean;
  /** The step that resumes it (`flux resume kustomization apps -n flux-system`). */
  resumeCommand: string;
}

export interface FixUndoneAlertModel {
  cluster: string;
  /** The suspension's id (`flux-system/apps`). */
  source: string;
  /** When the resume was first seen, as people read it. */
  resumedAt: string;
  /**
   * Each fixed field: `resource` (`Deployment/podinfo/podinfo`), `field`, and the `value` the fix set;
   * after "verified", each field that moved away, with the live value `now`, and the `manager` and
   * `time` of that write when managedFields say.
   */
  changes: Array<{ resource: string; field: string; value: string; now?: string; manager?: string; time?: string }>;
  pullRequest?: number;
  merged: boolean;
  /** Set when the fix was undone after it was verified: when it was verified, as people read it. */
  verifiedAt?: string;
}

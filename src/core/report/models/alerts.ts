// The models of the alert issues (templates `stale-alert` and `not-reconciling-alert`).

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
  /** Why it is not reconciling (`is suspended since …`). */
  reason: string;
  suspended: boolean;
  /** The command that resumes it (`flux resume kustomization apps -n flux-system`); absent when a name
   * is not one the Kubernetes API accepts (no command is built from it). */
  resumeCommand?: string;
  /** The command that shows its state (`flux get kustomization apps -n flux-system`); absent likewise. */
  describeCommand?: string;
}

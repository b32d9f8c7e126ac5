// Health of a live object, with Argo CD's vocabulary.

export type HealthStatus = 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended' | 'Missing' | 'Unknown';

export interface Health {
  status: HealthStatus;
  message?: string;
}

/** What a GitOps controller object (Flux Kustomization/HelmRelease, Argo CD Application) says about itself. */
export interface ReconcilerState {
  kind: 'flux-kustomization' | 'flux-helmrelease' | 'argocd-application';
  name: string;
  namespace: string;
  /** Source path the reconciler applies (Flux spec.path, Argo CD spec.source.path), when it has one. */
  path?: string;
  suspended: boolean;
  /** When it became suspended or stopped being ready, when known. */
  since?: string;
  ready?: boolean;
  /**
   * Argo CD reports the live state differs from Git (sync status OutOfSync): the drift driftback
   * lists, not a failure. Argo CD Applications only.
   */
  outOfSync?: boolean;
  lastReconciled?: string;
  lastAppliedRevision?: string;
  lastAttemptedRevision?: string;
  message?: string;
}

// The `emergency` controller scenario (test/fixtures/controllers/emergency): its repository at commit
// A and its successive snapshots, and a config that scopes each cluster to the path its source
// applies (the Flux Kustomization `apps`, the Argo CD Application `guestbook`) with the controllers'
// stamps ignored, so the scenario's own hand changes are the only drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '../../src/core/model/index.js';
import { CONTROLLER_SCENARIOS, scenarioRepository, scenarioSnapshot } from './controllers.js';

export function emergencyRepoFiles(): Map<string, string> {
  return scenarioRepository('emergency');
}

export type EmergencySnapshotName =
  | 'flux-1-before'
  | 'flux-2-suspended'
  | 'flux-2b-still-suspended'
  | 'flux-3-resumed-after-merge'
  | 'flux-3b-resumed-without-merge'
  | 'flux-4-resumed-late'
  | 'flux-5-hpa-and-git-replicas'
  | 'flux-6-hpa-owns-replicas'
  | 'flux-7-controller-stopped'
  | 'flux-8-controller-restarted'
  | 'argo-1-before'
  | 'argo-2-autosync-off'
  | 'argo-2c-autosync-off-unrelated-commit'
  | 'argo-3-autosync-on-after-merge'
  | 'argo-3b-autosync-on-without-merge'
  | 'argo-5-hpa-and-git-replicas'
  | 'argo-6-hpa-owns-replicas'
  | 'argo-7-controller-stopped'
  | 'argo-8-controller-restarted'
  | 'argo-9-sync-failed-at-head'
  | 'argo-10-synced-head';

/** A file the exercise's pull requests add (the scenario's `changes/`, e.g. `apps/podinfo/hpa.yaml`). */
export function emergencyChange(path: string): string {
  return readFileSync(join(CONTROLLER_SCENARIOS, 'emergency', 'changes', path), 'utf8');
}

export function emergencySnapshot(name: EmergencySnapshotName): Snapshot {
  return scenarioSnapshot('emergency', name);
}

/** The snapshot as JSON text (for a test that rewrites a revision in it). */
export function emergencySnapshotText(name: EmergencySnapshotName): string {
  return JSON.stringify(emergencySnapshot(name));
}

/** The fixture's config with each cluster scoped to its source's path (see the header). */
export const SCOPED_CONFIG = `clusters:
  - name: kind-dev
    path: apps/podinfo
    namespaces: [podinfo]
    defaultNamespace: podinfo
  - name: kind-argo
    path: web/guestbook
    namespaces: [guestbook]
    defaultNamespace: guestbook
drift:
  ignore:
    - paths: [/metadata/labels/kustomize.toolkit.fluxcd.io~1name, /metadata/labels/kustomize.toolkit.fluxcd.io~1namespace]
      reason: Flux stamps its objects
    - kinds: [Namespace]
      paths: [/spec]
      reason: the API server sets a Namespace's finalizers
    - paths: [/metadata/annotations/argocd.argoproj.io~1tracking-id]
      reason: Argo CD stamps its objects
emergency:
  resumeWithin: 8h
`;

// The `emergency` controller scenario (test/fixtures/controllers/emergency): its repository at commit
// A and its successive snapshots, and a config that scopes each cluster to the path its source
// applies (the Flux Kustomization `apps`, the Argo CD Application `guestbook`) with the controllers'
// stamps ignored, so the scenario's own hand changes are the only drift.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Snapshot } from '../../src/core/model/index.js';
import { REPO_ROOT } from './fixtures.js';

const ROOT = resolve(REPO_ROOT, 'test/fixtures/controllers/emergency');

export const EMERGENCY_REPOSITORY = 'acme/emergency-gitops';

export function emergencyRepoFiles(): Map<string, string> {
  const root = join(ROOT, 'repo');
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

export type EmergencySnapshotName =
  | 'flux-1-before' | 'flux-2-suspended' | 'flux-2b-still-suspended' | 'flux-3-resumed-after-merge' | 'flux-3b-resumed-without-merge'
  | 'flux-4-resumed-late' | 'argo-1-before' | 'argo-2-autosync-off' | 'argo-3-autosync-on-after-merge' | 'argo-3b-autosync-on-without-merge';

export function emergencySnapshotText(name: EmergencySnapshotName): string {
  return readFileSync(join(ROOT, 'live', `${name}.json`), 'utf8');
}

export function emergencySnapshot(name: EmergencySnapshotName): Snapshot {
  return JSON.parse(emergencySnapshotText(name)) as Snapshot;
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

// An Argo CD Application as the tests write one: project default, a path of a repository (by default
// https://github.com/acme/gitops.git) at `main`, applied to the cluster the controller runs in.
import type { KubeObject } from '../../src/core/model/index.js';

export interface ArgoApplicationOptions {
  /** The repository it applies. Default https://github.com/acme/gitops.git. */
  repoURL?: string;
  /** The directory of the repository it applies. Default: the Application's name. */
  path?: string;
  /** The destination namespace. Default: the Application's name. */
  destination?: string;
  /** The Application's own namespace. Default `argocd`. */
  namespace?: string;
  /** Further `spec` fields (syncPolicy, ignoreDifferences, …), after source and destination. */
  spec?: Record<string, unknown>;
}

export function argoApplication(name: string, options: ArgoApplicationOptions = {}): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: options.namespace ?? 'argocd' },
    spec: {
      project: 'default',
      source: {
        repoURL: options.repoURL ?? 'https://github.com/acme/gitops.git',
        targetRevision: 'main',
        path: options.path ?? name,
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: options.destination ?? name },
      ...options.spec,
    },
  };
}

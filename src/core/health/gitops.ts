// Health of GitOps controllers' own objects: every Flux toolkit kind (Kustomization, HelmRelease,
// GitRepository, OCIRepository, HelmRepository, …) and Argo CD Applications.
import type { Health, HealthStatus, KubeObject } from '../model/index.js';
import { readinessConditionsHealth } from './conditions.js';
import { field, stringAt } from './read.js';

export const FLUX_GROUP_SUFFIX = '.toolkit.fluxcd.io';
export const ARGO_GROUP = 'argoproj.io';

const HEALTH_STATUSES: ReadonlySet<string> = new Set([
  'Healthy',
  'Progressing',
  'Degraded',
  'Suspended',
  'Missing',
  'Unknown',
]);

export function fluxHealth(obj: KubeObject): Health {
  if (field(obj, 'spec', 'suspend') === true) return { status: 'Suspended', message: `${obj.kind} is suspended` };
  return readinessConditionsHealth(obj) ?? { status: 'Progressing', message: 'Waiting for Flux to reconcile' };
}

/** Argo CD reports an Application's health itself; driftback repeats it, with the sync status beside it. */
export function argoApplicationHealth(obj: KubeObject): Health {
  const reported = stringAt(obj, 'status', 'health', 'status');
  const sync = stringAt(obj, 'status', 'sync', 'status');
  const detail =
    [stringAt(obj, 'status', 'health', 'message'), sync ? `sync: ${sync}` : undefined].filter(Boolean).join('; ') ||
    undefined;
  if (reported && HEALTH_STATUSES.has(reported)) return { status: reported as HealthStatus, message: detail };
  return { status: 'Unknown', message: detail ?? 'Argo CD has not reported health for this Application' };
}

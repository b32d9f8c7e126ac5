// Live objects that Git does not declare: which are hand-made (`extra`) and which the cluster made for
// itself (noise: kube-root-ca.crt, default ServiceAccounts, anything a controller created or owns).
import type { Cause, KubeObject } from '../model/index.js';
import type { Config } from '../config/index.js';
import { classifyManager } from '../classify/managers.js';

export interface CreatedBy {
  manager: string;
  cause: Cause;
  time?: string;
}

/** The earliest managedFields entry: the manager that created the object. */
export function createdByOf(live: KubeObject, config: Config): CreatedBy | undefined {
  const entries = Array.isArray(live.metadata?.managedFields) ? live.metadata.managedFields : [];
  let first: (typeof entries)[number] | undefined;
  for (const entry of entries) {
    if (!entry?.manager) continue;
    if (!first || (entry.time ?? '') < (first.time ?? '')) first = entry;
  }
  if (!first?.manager) return undefined;
  return { manager: first.manager, cause: classifyManager(first.manager, config, first.operation), ...(first.time ? { time: first.time } : {}) };
}

/** Objects every namespace or cluster gets without anyone asking. */
function isClusterMade(live: KubeObject): boolean {
  const name = live.metadata?.name;
  if (live.kind === 'ConfigMap' && (name === 'kube-root-ca.crt' || name === 'openshift-service-ca.crt')) return true;
  if (live.kind === 'ServiceAccount' && name === 'default') return true;
  if (live.kind === 'Secret' && (live as { type?: unknown }).type === 'kubernetes.io/service-account-token') return true;
  if ((live.kind === 'Endpoints' || live.kind === 'EndpointSlice') && !live.metadata?.managedFields?.length) return true;
  return false;
}

/** Whether a live object without a desired counterpart is noise rather than drift. */
export function isControllerMade(live: KubeObject, createdBy: CreatedBy | undefined): boolean {
  if (live.metadata?.ownerReferences?.some((ref) => ref.controller === true)) return true;
  if (isClusterMade(live)) return true;
  return createdBy?.cause === 'controller';
}

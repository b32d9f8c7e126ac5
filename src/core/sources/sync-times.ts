// When each Argo CD Application was syncing, as its status records it: the last operation
// (`status.operationState.startedAt`..`finishedAt`) and every deployment of its history
// (`status.history[].deployStartedAt`..`deployedAt`; argo-cd pkg/apis/application/v1alpha1/types.go). Argo CD's
// own writes happen inside these windows — its client-side-apply migration step even writes as
// `kubectl-client-side-apply` (gitops-engine pkg/sync/sync_context.go, performCSAUpgradeMigration) — so a
// `kubectl apply` entry outside every window of the object's Application is a person's.
import { isPlainObject, keyId, keyOf, type KubeObject } from '../model/index.js';
import { listAt, stringAt } from './fields.js';
import { isArgoApplication } from './argocd.js';
import { sourceRefKey, stampedSource, type ArgoTracking } from './identity.js';

interface Window {
  from: number;
  to: number;
}

function windowOf(from: string | undefined, to: string | undefined): Window[] {
  const start = from ? Date.parse(from) : NaN;
  // A sync still running has no end yet: it lasts to the snapshot.
  const end = to ? Date.parse(to) : Infinity;
  return Number.isNaN(start) || Number.isNaN(end) ? [] : [{ from: start, to: end }];
}

function windowsOf(application: KubeObject): Window[] {
  const operation = windowOf(
    stringAt(application, 'status', 'operationState', 'startedAt'),
    stringAt(application, 'status', 'operationState', 'finishedAt'),
  );
  const history = listAt(application, 'status', 'history').flatMap((entry) =>
    isPlainObject(entry) ? windowOf(stringAt(entry, 'deployStartedAt'), stringAt(entry, 'deployedAt')) : [],
  );
  return [...operation, ...history];
}

/** Whether a write at `time` on a live object happened while the Argo CD Application that tracks it was syncing. */
export type DuringSync = (live: KubeObject, time: string) => boolean;

export function argoSyncTimes(live: readonly KubeObject[], tracking: ArgoTracking): DuringSync {
  const byApplication = new Map<string, Window[]>();
  for (const object of live) if (isArgoApplication(object)) byApplication.set(keyId(keyOf(object)), windowsOf(object));
  return (object, time) => {
    const ref = stampedSource(object, tracking);
    const windows = ref && byApplication.get(keyId(sourceRefKey(ref)));
    const at = Date.parse(time);
    return !!windows && !Number.isNaN(at) && windows.some((window) => at >= window.from && at <= window.to);
  };
}

// What a GitOps controller object says about itself: is it suspended, is it ready, when did it last
// reconcile, which revision did it apply. A suspended reconciler explains drift nobody reverts.
import type { KubeObject, ReconcilerState } from '../model/index.js';
import { groupOf } from '../model/index.js';
import { field, findCondition, listAt, statusConditions, stringAt } from './read.js';

function fluxState(obj: KubeObject, kind: 'flux-kustomization' | 'flux-helmrelease'): ReconcilerState {
  const ready = findCondition(statusConditions(obj), 'Ready');
  const history = listAt(obj, 'status', 'history')[0];
  return prune({
    kind,
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    path: stringAt(obj, 'spec', 'path'),
    suspended: field(obj, 'spec', 'suspend') === true,
    since: ready?.lastTransitionTime,
    ready: ready ? ready.status === 'True' : undefined,
    lastReconciled: stringAt(obj, 'status', 'lastHandledReconcileAt') ?? ready?.lastTransitionTime,
    // HelmRelease v2 keeps the applied chart version in its release history instead.
    lastAppliedRevision: stringAt(obj, 'status', 'lastAppliedRevision') ?? stringAt(history, 'chartVersion'),
    lastAttemptedRevision: stringAt(obj, 'status', 'lastAttemptedRevision'),
    message: ready?.message,
  });
}

function argoState(obj: KubeObject): ReconcilerState {
  const health = stringAt(obj, 'status', 'health', 'status');
  const sync = stringAt(obj, 'status', 'sync', 'status');
  const firstSource = listAt(obj, 'spec', 'sources')[0];
  return prune({
    kind: 'argocd-application',
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    path: stringAt(obj, 'spec', 'source', 'path') ?? stringAt(firstSource, 'path'),
    // Without automated sync Argo CD only reports drift; it never reverts it.
    suspended:
      field(obj, 'spec', 'syncPolicy', 'automated') === undefined ||
      field(obj, 'spec', 'syncPolicy', 'automated') === null,
    ready: health || sync ? health === 'Healthy' && sync === 'Synced' : undefined,
    lastReconciled: stringAt(obj, 'status', 'reconciledAt'),
    lastAppliedRevision: stringAt(obj, 'status', 'sync', 'revision'),
    lastAttemptedRevision:
      stringAt(obj, 'status', 'operationState', 'syncResult', 'revision') ??
      stringAt(obj, 'status', 'operationState', 'operation', 'sync', 'revision'),
    message: stringAt(obj, 'status', 'health', 'message') ?? stringAt(obj, 'status', 'operationState', 'message'),
  });
}

/** Drops undefined fields so results compare and serialize cleanly. */
function prune(state: ReconcilerState): ReconcilerState {
  return Object.fromEntries(
    Object.entries(state).filter(([, value]) => value !== undefined),
  ) as unknown as ReconcilerState;
}

/** The reconciler state of a Flux Kustomization / HelmRelease or an Argo CD Application; undefined for other objects. */
export function reconcilerStateOf(live: KubeObject): ReconcilerState | undefined {
  const group = groupOf(live.apiVersion ?? '');
  if (group === 'kustomize.toolkit.fluxcd.io' && live.kind === 'Kustomization')
    return fluxState(live, 'flux-kustomization');
  if (group === 'helm.toolkit.fluxcd.io' && live.kind === 'HelmRelease') return fluxState(live, 'flux-helmrelease');
  if (group === 'argoproj.io' && live.kind === 'Application') return argoState(live);
  return undefined;
}

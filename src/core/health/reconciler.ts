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

/**
 * Why an Argo CD Application is failing, or undefined when it is not: health Degraded or Missing, a
 * sync operation that failed, or an error condition (ComparisonError, SyncError, InvalidSpecError).
 * OutOfSync alone is not failing: it is the drift driftback reports, often the very hand change.
 */
function argoFailure(obj: KubeObject): { message?: string } | undefined {
  const health = stringAt(obj, 'status', 'health', 'status');
  const phase = stringAt(obj, 'status', 'operationState', 'phase');
  const error = listAt(obj, 'status', 'conditions').find((c) => /Error$/.test(stringAt(c, 'type') ?? ''));
  if (error) return { message: `${stringAt(error, 'type')}: ${stringAt(error, 'message') ?? ''}`.replace(/: $/, '') };
  if (health === 'Degraded' || health === 'Missing') return { message: stringAt(obj, 'status', 'health', 'message') };
  if (phase === 'Failed' || phase === 'Error') return { message: stringAt(obj, 'status', 'operationState', 'message') };
  return undefined;
}

function argoState(obj: KubeObject): ReconcilerState {
  const sync = stringAt(obj, 'status', 'sync', 'status');
  const known = stringAt(obj, 'status', 'health', 'status') ?? sync;
  const firstSource = listAt(obj, 'spec', 'sources')[0];
  const failure = argoFailure(obj);
  return prune({
    kind: 'argocd-application',
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    path: stringAt(obj, 'spec', 'source', 'path') ?? stringAt(firstSource, 'path'),
    // Without automated sync Argo CD only reports drift; it never reverts it.
    suspended:
      field(obj, 'spec', 'syncPolicy', 'automated') === undefined ||
      field(obj, 'spec', 'syncPolicy', 'automated') === null,
    ready: known || failure ? !failure : undefined,
    outOfSync: sync === 'OutOfSync' ? true : undefined,
    lastReconciled: stringAt(obj, 'status', 'reconciledAt'),
    lastAppliedRevision: stringAt(obj, 'status', 'sync', 'revision'),
    lastAttemptedRevision:
      stringAt(obj, 'status', 'operationState', 'syncResult', 'revision') ??
      stringAt(obj, 'status', 'operationState', 'operation', 'sync', 'revision'),
    message: failure?.message,
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

// The GitOps controllers' own objects in a snapshot (Flux Kustomization and HelmRelease, Argo CD
// Application): suspended, failing, or behind. A merged change that never deploys is invisible
// unless someone looks here.
import { showTime, type ReconcilerState } from '../model/index.js';

function normalizePath(path: string): string {
  return path.replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
}

/** Whether the reconciler applies the given repository path (every reconciler when none is given). */
export function appliesPath(state: ReconcilerState, path: string | undefined): boolean {
  if (path === undefined) return true;
  return state.path !== undefined && normalizePath(state.path) === normalizePath(path);
}

/** Why the reconciler is not applying Git, or undefined when it is. `now` and `staleAfterSeconds` bound "behind". */
export function notReconcilingReason(
  state: ReconcilerState,
  now: string,
  staleAfterSeconds: number,
): string | undefined {
  if (state.suspended)
    return `${state.since ? `has been suspended since ${showTime(state.since)}` : 'is suspended'}${state.kind === 'argocd-application' ? ' (no automated sync)' : ''}`;
  if (state.ready === false)
    return `${state.since ? `has been failing since ${showTime(state.since)}` : 'is failing'}${state.message ? `: ${state.message}` : ''}`;
  const behind =
    state.lastAttemptedRevision &&
    state.lastAppliedRevision &&
    state.lastAttemptedRevision !== state.lastAppliedRevision;
  const last = state.lastReconciled ? Date.parse(state.lastReconciled) : NaN;
  if (behind && Number.isFinite(last) && Date.parse(now) - last > staleAfterSeconds * 1000) {
    return `last applied ${state.lastAppliedRevision} but ${state.lastAttemptedRevision} has been waiting since ${showTime(state.lastReconciled!)}`;
  }
  return undefined;
}

// The delete hooks of an Application the plan deletes whose source does not render at head (the same
// pull request removes its path, or its render fails). Argo CD still runs them: the Application carries
// the pre-/post-delete finalizer its last reconcile set from the hooks of its last render
// (controller/appcontroller.go), and at deletion it renders the source at its target revision again to
// find them (controller/hook.go executeHooks). So they are listed from the last render that held them —
// the base commit's — or else from the hook objects the cluster holds, each saying where it came from;
// and when the Application carries such a finalizer, a warning says what Argo CD does if it cannot render
// the source either. Never dropped silently.
import {
  DELETE_HOOK_PHASES,
  keyId,
  keyOf,
  type KubeObject,
  type PlanDeleteHook,
  type PlanWarning,
  type ResourceKey,
} from '../model/index.js';
import { liveHookOf, sourceRefKey, stampedSource, type DesiredHook } from '../sources/index.js';

export interface UnrenderedDeletion {
  application: ResourceKey;
  /** Why its source does not render at head. */
  reason: string;
}

/** controller/hook.go and appcontroller.go: the finalizer that makes Argo CD run each delete phase. */
const DELETE_FINALIZERS = ['pre-delete-finalizer.argocd.argoproj.io', 'post-delete-finalizer.argocd.argoproj.io'];

function fromBase(deletion: UnrenderedDeletion, baseHooks: readonly DesiredHook[]): PlanDeleteHook[] {
  const id = keyId(deletion.application);
  const origin = { at: 'base' as const, reason: deletion.reason };
  return baseHooks
    .filter((entry) => entry.appliedBy && keyId(sourceRefKey(entry.appliedBy)) === id && entry.hook.onDelete.length)
    .map(({ desired, hook }) => {
      const line = desired.source.location?.line;
      const where = { file: desired.source.file, ...(line ? { line } : {}) };
      return { id: desired.key, hook, ...where, application: deletion.application, origin };
    });
}

function fromLive(deletion: UnrenderedDeletion, live: readonly KubeObject[]): PlanDeleteHook[] {
  const id = keyId(deletion.application);
  const origin = { at: 'live' as const, reason: deletion.reason };
  return live.flatMap((obj) => {
    const hook = liveHookOf(obj);
    const stamped = stampedSource(obj);
    if (!hook?.onDelete.length || !stamped || keyId(sourceRefKey(stamped)) !== id) return [];
    return [{ id: keyOf(obj), hook, application: deletion.application, origin }];
  });
}

/** What Argo CD does with a delete finalizer on an Application whose source it may not render either. */
function finalizerWarning(deletion: UnrenderedDeletion, live: readonly KubeObject[], listed: boolean) {
  const application = live.find((obj) => keyId(keyOf(obj)) === keyId(deletion.application));
  const listedFinalizers: unknown = application?.metadata?.finalizers;
  const finalizers = (Array.isArray(listedFinalizers) ? listedFinalizers : []).filter((f): f is string =>
    DELETE_FINALIZERS.includes(String(f)),
  );
  if (finalizers.length === 0) return [];
  const phases = DELETE_HOOK_PHASES.filter((_, index) => finalizers.includes(DELETE_FINALIZERS[index]!));
  const known = listed
    ? 'The hooks listed are the last ones rendered.'
    : 'Which hooks run is not known: neither the base commit nor the cluster shows them.';
  const message =
    `The Application carries ${finalizers.join(' and ')}: deleting it runs its ${phases.join(' and ')} hooks, which Argo CD ` +
    `finds by rendering its source again (controller/hook.go executeHooks), and its source does not render at head ` +
    `(${deletion.reason}). If Argo CD cannot render it either (a path this pull request removes), the deletion ` +
    `stops at that error and the Application stays until its source renders or the finalizer is removed. ${known}`;
  return [{ code: 'not-rendered' as const, id: deletion.application, message }];
}

/**
 * The delete hooks of Applications deleted while their source does not render at head, from base's hooks
 * (`baseHooks`, each with the Application whose render holds it) or else from the cluster, with warnings.
 */
export function unrenderedDeleteHooks(
  deletions: readonly UnrenderedDeletion[],
  baseHooks: readonly DesiredHook[],
  live: readonly KubeObject[],
): { hooks: PlanDeleteHook[]; warnings: PlanWarning[] } {
  const hooks: PlanDeleteHook[] = [];
  const warnings: PlanWarning[] = [];
  for (const deletion of deletions) {
    const base = fromBase(deletion, baseHooks);
    const found = base.length > 0 ? base : fromLive(deletion, live);
    hooks.push(...found);
    warnings.push(...finalizerWarning(deletion, live, found.length > 0));
  }
  return { hooks, warnings };
}

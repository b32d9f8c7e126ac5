// The Helm hooks `helm uninstall` runs when a plan prunes a Flux HelmRelease. helm-controller uninstalls
// the release when its HelmRelease is deleted, unless the HelmRelease is suspended
// (internal/controller/helmrelease_controller.go reconcileDelete), and Helm runs the release's
// `pre-delete` hooks before it deletes the release's objects and its `post-delete` hooks after
// (pkg/action/uninstall.go), unless `spec.uninstall.disableHooks` is set. Helm runs the hooks of the
// release it installed, not of any chart in Git: those of head's render when head renders the
// HelmRelease from its live spec, else those of the base commit's render, with where they came from.
// Only `helm.sh/hook` counts: Helm does not read Argo CD's hook annotation.
import {
  DELETE_HOOK_PHASES,
  isPlainObject,
  keyId,
  keyOf,
  type DeleteHookPhase,
  type KubeObject,
  type PlanDeleteHook,
  type ResourceKey,
} from '../model/index.js';
import { sourceRefKey, type DesiredHook } from '../sources/index.js';

const HELM_DELETE: Readonly<Record<DeleteHookPhase, string>> = { PreDelete: 'pre-delete', PostDelete: 'post-delete' };

/** The delete phases Helm runs the hook in: its `helm.sh/hook` values only. */
function helmDeletePhases(entry: DesiredHook): DeleteHookPhase[] {
  const values = (entry.desired.object.metadata?.annotations?.['helm.sh/hook'] ?? '').split(',').map((v) => v.trim());
  return DELETE_HOOK_PHASES.filter((phase) => values.includes(HELM_DELETE[phase]));
}

/** Whether deleting the live HelmRelease runs no hook: suspended (no uninstall), or hooks disabled. */
function runsNoHooks(release: KubeObject | undefined): boolean {
  const spec = isPlainObject(release?.spec) ? release.spec : {};
  const uninstall = isPlainObject(spec.uninstall) ? spec.uninstall : {};
  return spec.suspend === true || uninstall.disableHooks === true;
}

function releaseHooks(release: ResourceKey, hooks: readonly DesiredHook[]): DesiredHook[] {
  const id = keyId(release);
  return hooks.filter((entry) => entry.appliedBy && keyId(sourceRefKey(entry.appliedBy)) === id);
}

/** The Helm delete hooks of the HelmReleases `pruned` names, from head's hooks or else base's. */
export function uninstallHooks(
  pruned: readonly ResourceKey[],
  head: readonly DesiredHook[],
  base: readonly DesiredHook[],
  live: readonly KubeObject[],
): PlanDeleteHook[] {
  return pruned.flatMap((release) => {
    if (runsNoHooks(live.find((obj) => keyId(keyOf(obj)) === keyId(release)))) return [];
    const atHead = releaseHooks(release, head);
    const reason = 'helm uninstall runs the hooks of the release it installed';
    const origin = atHead.length > 0 ? {} : { origin: { at: 'base' as const, reason } };
    return (atHead.length > 0 ? atHead : releaseHooks(release, base)).flatMap((entry) => {
      const onDelete = helmDeletePhases(entry);
      if (onDelete.length === 0) return [];
      const line = entry.desired.source.location?.line;
      const where = { file: entry.desired.source.file, ...(line ? { line } : {}) };
      return [{ id: entry.desired.key, hook: { ...entry.hook, onDelete }, ...where, application: release, ...origin }];
    });
  });
}

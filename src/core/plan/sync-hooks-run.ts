// The hooks a sync runs, for the plan's information: in the order Argo CD runs them (phase, then wave,
// then kind and name as gitops-engine sorts tasks of one wave). They are never created or pruned by the
// plan; what they do happens at each sync, whatever the pull request changes.
import {
  compareKeys,
  DELETE_HOOK_PHASES,
  HOOK_PHASES,
  keyId,
  type PlanDeleteHook,
  type PlanHook,
  type ResourceKey,
} from '../model/index.js';
import { sourceRefKey, type DesiredHook } from '../sources/index.js';

function planHook({ desired, hook }: DesiredHook): PlanHook {
  const line = desired.source.location?.line;
  return { id: desired.key, hook, file: desired.source.file, ...(line ? { line } : {}) };
}

export function hooksOnSync(hooks: readonly DesiredHook[] | undefined, more: readonly PlanHook[] = []): PlanHook[] {
  // Helm runs a HelmRelease's hooks itself, at install, upgrade and uninstall: they are no Argo CD sync's.
  const declared = (hooks ?? []).filter((entry) => entry.appliedBy?.kind !== 'HelmRelease').map(planHook);
  const runs = [...declared, ...more].filter((entry) => entry.hook.phases.length > 0);
  const phase = (entry: PlanHook): number => HOOK_PHASES.indexOf(entry.hook.phases[0]!);
  return runs.sort((a, b) => phase(a) - phase(b) || a.hook.wave - b.hook.wave || compareKeys(a.id, b.id));
}

/**
 * The Argo CD delete hooks that run because the plan deletes their Application (controller/hook.go):
 * those of the Applications `deleting` names — `hooks` being head's hooks, each with the Application
 * whose render holds it — those `more` gives (of an Application its ApplicationSet deletes), and those
 * `listed` from elsewhere (base, the cluster) for Applications head does not render. PreDelete first,
 * then PostDelete; by Application, wave, kind and name.
 */
export function hooksOnDelete(
  deleting: readonly ResourceKey[],
  hooks: readonly DesiredHook[] | undefined,
  more: readonly DesiredHook[] = [],
  listed: readonly PlanDeleteHook[] = [],
): PlanDeleteHook[] {
  const ids = new Set(deleting.map(keyId));
  const owned = (hooks ?? []).filter((entry) => entry.appliedBy && ids.has(keyId(sourceRefKey(entry.appliedBy))));
  const rendered = [...owned, ...more]
    .filter((entry) => entry.appliedBy && entry.hook.onDelete.length > 0)
    .map((entry) => ({ ...planHook(entry), application: sourceRefKey(entry.appliedBy!) }));
  const runs: PlanDeleteHook[] = [...rendered, ...listed];
  const phase = (entry: PlanDeleteHook): number => DELETE_HOOK_PHASES.indexOf(entry.hook.onDelete[0]!);
  return runs.sort(
    (a, b) =>
      phase(a) - phase(b) ||
      compareKeys(a.application, b.application) ||
      a.hook.wave - b.hook.wave ||
      compareKeys(a.id, b.id),
  );
}

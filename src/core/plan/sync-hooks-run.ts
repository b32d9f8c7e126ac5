// The hooks a sync runs, for the plan's information: in the order Argo CD runs them (phase, then wave,
// then kind and name as gitops-engine sorts tasks of one wave). They are never created or pruned by the
// plan; what they do happens at each sync, whatever the pull request changes.
import { compareKeys, HOOK_PHASES, type PlanHook } from '../model/index.js';
import type { DesiredHook } from '../sources/index.js';

export function hooksOnSync(hooks: readonly DesiredHook[] | undefined, more: readonly PlanHook[] = []): PlanHook[] {
  const declared = (hooks ?? []).map(({ desired, hook }) => ({
    id: desired.key,
    hook,
    file: desired.source.file,
    ...(desired.source.location?.line ? { line: desired.source.location.line } : {}),
  }));
  const runs = [...declared, ...more].filter((entry) => entry.hook.phases.length > 0);
  const phase = (entry: PlanHook): number => HOOK_PHASES.indexOf(entry.hook.phases[0]!);
  return runs.sort((a, b) => phase(a) - phase(b) || a.hook.wave - b.hook.wave || compareKeys(a.id, b.id));
}

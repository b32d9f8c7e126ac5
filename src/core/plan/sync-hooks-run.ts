// The hooks a sync runs, for the plan's information: in the order Argo CD runs them (phase, then wave,
// then kind and name as gitops-engine sorts tasks of one wave). They are never created or pruned by the
// plan; what they do happens at each sync, whatever the pull request changes.
import { compareKeys, HOOK_PHASES, type PlanHook } from '../model/index.js';
import type { DesiredHook } from '../sources/index.js';

export function hooksOnSync(hooks: readonly DesiredHook[] | undefined): PlanHook[] {
  const runs = (hooks ?? []).filter((entry) => entry.hook.phases.length > 0);
  const phase = (entry: DesiredHook): number => HOOK_PHASES.indexOf(entry.hook.phases[0]!);
  runs.sort((a, b) => phase(a) - phase(b) || a.hook.wave - b.hook.wave || compareKeys(a.desired.key, b.desired.key));
  return runs.map(({ desired, hook }) => ({
    id: desired.key,
    hook,
    file: desired.source.file,
    ...(desired.source.location?.line ? { line: desired.source.location.line } : {}),
  }));
}

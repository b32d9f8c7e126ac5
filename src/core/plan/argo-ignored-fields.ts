// Fields an Argo CD Application's ignoreDifferences leaves out of its diff, in a plan. Argo CD's sync
// applies the desired state as it is unless the Application says `RespectIgnoreDifferences=true`
// (docs/user-guide/sync-options.md): then the sync keeps the live values and the plan lists no change
// there; without it the next sync writes Git's value over the live one, which the plan warns of.
import { compileIgnoreRules } from '../classify/ignore.js';
import type { Plan, PlanEntry, PlanWarning } from '../model/index.js';
import type { SourceIgnoreRule } from '../render/argocd-ignore.js';
import { at, field, shown } from './entry-warnings.js';

function revertWarning(entry: PlanEntry, change: PlanEntry['changes'][number], rule: SourceIgnoreRule): PlanWarning {
  const message =
    `Argo CD leaves ${field(entry.id, change)} out of its diff (ignoreDifferences of Application ` +
    `${rule.application}), but its sync applies Git's value as it is: live ${shown(change.live, 60, change.segments)} becomes ` +
    `${shown(change.desired, 60, change.segments)} at the next sync. To keep the live value, add \`RespectIgnoreDifferences=true\` ` +
    "to the Application's `syncPolicy.syncOptions`, or write the value into Git.";
  return { code: 'reverts-live-change', id: entry.id, path: change.path, ...at(entry.desired, change.path), message };
}

/** The plan with the Applications' ignored fields: dropped where the sync keeps them, warned of where it reverts them. */
export function planIgnoredFields(plan: Plan, rules: readonly SourceIgnoreRule[]): Plan {
  const argoRules = rules.filter((rule) => rule.application !== undefined);
  if (argoRules.length === 0 || plan.update.length === 0) return plan;
  const matchers = compileIgnoreRules(argoRules);
  const warnings = [...plan.warnings];
  const at = (id: unknown, path: string | undefined) => `${JSON.stringify(id)} ${path ?? ''}`;
  const reverts = new Map(
    warnings.flatMap((w, i) => (w.code === 'reverts-live-change' ? [[at(w.id, w.path), i]] : [])),
  );
  const update: PlanEntry[] = [];
  const kept = new Set<string>();
  let unchanged = plan.unchanged;
  for (const entry of plan.update) {
    const changes = entry.changes.filter((change) => {
      const owners = change.managers ?? (change.manager ? [change.manager] : []);
      const rule = matchers.find((m) => m.matches(entry.id, { ...change, object: entry.desired?.object }, owners))
        ?.rule as SourceIgnoreRule | undefined;
      if (!rule) return true;
      if (rule.respected) {
        kept.add(at(entry.id, change.path));
        return false;
      }
      if (change.live === undefined) return true;
      const warning = revertWarning(entry, change, rule);
      // One warning per field: the hand change it reverts, then why ignoreDifferences does not keep it.
      const index = reverts.get(at(entry.id, change.path));
      if (index === undefined) warnings.push(warning);
      else warnings[index] = { ...warnings[index]!, message: `${warnings[index]!.message} ${warning.message}` };
      return true;
    });
    if (changes.length === 0) unchanged += 1;
    else update.push(changes.length === entry.changes.length ? entry : { ...entry, changes });
  }
  // A field the sync keeps warns of nothing: it is not applied.
  const left = warnings.filter((w) => !(w.id && kept.has(at(w.id, w.path))));
  return { ...plan, update, unchanged, warnings: left };
}

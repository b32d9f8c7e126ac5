// A prune that will not happen: the object moves to `kept` with the reason, and no warning may still say
// that its data goes with it.
import { keyId, type Plan, type PlanKept } from '../model/index.js';

export function keepPrunes(plan: Plan, kept: readonly PlanKept[]): Plan {
  if (kept.length === 0) return plan;
  const ids = new Set(kept.map((entry) => keyId(entry.id)));
  const spared = (id: PlanKept['id'] | undefined): boolean => id !== undefined && ids.has(keyId(id));
  return {
    ...plan,
    prune: plan.prune.filter((entry) => !spared(entry.id)),
    kept: [...plan.kept, ...kept],
    warnings: plan.warnings.filter((warning) => !(warning.code === 'prune-protected' && spared(warning.id))),
  };
}

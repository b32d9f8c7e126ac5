// The explicit decisions that let risky drift be codified: a `drift.allowRisky` entry of the config
// (code, where, reason), or a person's decision on one item (its fingerprint: the object, the field
// and the live value it was made for; a new value needs a new decision).
import type { DriftConfig } from '../config/index.js';
import type { FieldChange, ResourceKey, Risk } from '../model/index.js';
import { compileIgnoreRules } from '../classify/index.js';

/** A person's decision on one risky item. */
export interface RiskDecision {
  reason: string;
  /** Who decided (a GitHub login), when known. */
  by?: string;
}

/** Fingerprint of a risky change (or of an extra object's whole-resource change) → the decision on it. */
export type RiskDecisions = ReadonlyMap<string, RiskDecision>;

/** Marks the risks an explicit decision allows; the rest stay undecided. */
export type RiskAllower = (
  key: ResourceKey,
  change: FieldChange | undefined,
  fingerprint: string,
  risk: Risk[],
) => Risk[];

export function riskAllower(entries: DriftConfig['allowRisky'], decisions: RiskDecisions = new Map()): RiskAllower {
  const matchers = compileIgnoreRules(entries);
  return (key, change, fingerprint, risk) => {
    const decision = decisions.get(fingerprint);
    const managers = change ? (change.managers ?? (change.manager ? [change.manager] : [])) : [];
    return risk.map((entry) => {
      const index = matchers.findIndex(
        (matcher, i) => entries[i]!.code === entry.code && matcher.matches(key, change ?? '', managers),
      );
      if (index >= 0) return { ...entry, allowed: `drift.allowRisky: ${entries[index]!.reason}` };
      if (decision)
        return {
          ...entry,
          allowed: `${decision.by ? `decided by ${decision.by}` : 'decided'}: ${decision.reason}`,
          decided: true as const,
        };
      return entry;
    });
  };
}

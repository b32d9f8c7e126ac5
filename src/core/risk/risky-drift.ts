// The risky drift of a diff as one list, for everything a person reads first (CLI, drift pull
// request, dashboard, check run): each item with its object, field, manager, time and risks.
import {
  isUndecided,
  RISK_CODES,
  type DiffResult,
  type FieldChange,
  type ResourceKey,
  type Risk,
  type RiskCode,
} from '../model/index.js';

export interface RiskyItem {
  key: ResourceKey;
  /** The changed field; absent when the whole object is meant (made by hand). */
  change?: FieldChange;
  manager?: string;
  time?: string;
  risk: Risk[];
}

/** Why risky drift is held back, in one sentence. */
export function heldBackReason(risk: readonly Risk[]): string {
  const codes = [...new Set(risk.filter((entry) => !entry.allowed).map((entry) => entry.code))];
  return (
    `security-relevant drift (${codes.join(', ')}): never codified without a person's decision; ` +
    'to codify it, add a drift.allowRisky entry with the reason'
  );
}

function item(
  key: ResourceKey,
  change: FieldChange | undefined,
  risk: Risk[],
  by?: { manager: string; time?: string },
): RiskyItem {
  const manager = change?.manager ?? by?.manager;
  const time = change?.time ?? by?.time;
  return { key, ...(change ? { change } : {}), ...(manager ? { manager } : {}), ...(time ? { time } : {}), risk };
}

/**
 * Every item of the diff that carries a risk. `undecided`: only those still waiting for a person's
 * decision (what alerts); otherwise allowed ones too (what reports show).
 */
export function riskyDrift(result: Pick<DiffResult, 'resources' | 'owned'>, undecided = true): RiskyItem[] {
  const keep = (risk: Risk[] | undefined): risk is Risk[] => (undecided ? isUndecided(risk) : !!risk?.length);
  const items: RiskyItem[] = [];
  for (const resource of result.resources) {
    if (keep(resource.risk)) items.push(item(resource.key, undefined, resource.risk, resource.createdBy));
    for (const change of resource.changes) if (keep(change.risk)) items.push(item(resource.key, change, change.risk));
  }
  for (const object of result.owned ?? []) {
    if (keep(object.risk))
      items.push(
        item(
          object.key,
          undefined,
          object.risk,
          object.owner.manager ? { manager: object.owner.manager, time: object.owner.time } : undefined,
        ),
      );
    for (const change of object.changes ?? []) if (keep(change.risk)) items.push(item(object.key, change, change.risk));
  }
  return items;
}

/** Undecided risky items by code: each item counts once per code it carries (the metric's figures). */
export function riskCounts(items: readonly RiskyItem[]): Record<RiskCode, number> {
  const counts = Object.fromEntries(RISK_CODES.map((code) => [code, 0])) as Record<RiskCode, number>;
  for (const entry of items)
    for (const code of new Set(entry.risk.filter((risk) => !risk.allowed).map((risk) => risk.code))) counts[code]++;
  return counts;
}

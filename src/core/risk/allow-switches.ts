// An emergency switch flipped by hand (a CronJob suspended, a Rollout paused, KEDA paused) is reported
// and never codified: written into Git it would keep the thing stopped for good. A person may decide
// that it should stay, with `/driftback allow <field> on <Kind/ns/name> because …` on the drift PR:
// that decision, recorded for the exact live value, turns the reported change back into drift the PR
// codifies, marked with who decided and why. A new value of the switch needs a new decision.
import { fingerprintChange, summarize } from '../classify/index.js';
import type { DiffResult, FieldChange, ResourceDiff } from '../model/index.js';
import type { RiskDecisions } from './allow-risky.js';

function decided(resource: ResourceDiff, decisions: RiskDecisions): ResourceDiff {
  const allowed: FieldChange[] = [];
  const reported: FieldChange[] = [];
  for (const change of resource.reported ?? []) {
    const decision =
      change.reported?.code === 'emergency-switch' ? decisions.get(fingerprintChange(resource.key, change)) : undefined;
    if (!decision) {
      reported.push(change);
      continue;
    }
    const { reported: _switch, ...rest } = change;
    allowed.push({ ...rest, decision: `${decision.by ? `decided by ${decision.by}` : 'decided'}: ${decision.reason}` });
  }
  if (allowed.length === 0) return resource;
  const { reported: _all, ...others } = resource;
  return {
    ...others,
    status: resource.status === 'in-sync' ? 'modified' : resource.status,
    changes: [...resource.changes, ...allowed],
    ...(reported.length ? { reported } : {}),
  };
}

/** The diff with every emergency switch a person decided to keep made codifiable drift again. */
export function allowDecidedSwitches(result: DiffResult, decisions: RiskDecisions | undefined): DiffResult {
  if (!decisions?.size) return result;
  const resources = result.resources.map((resource) => decided(resource, decisions));
  if (resources.every((resource, i) => resource === result.resources[i])) return result;
  return { ...result, resources, summary: summarize(resources) };
}

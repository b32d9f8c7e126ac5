// What a drift PR says in the pull request list: its title and its labels, from the drift alone, so
// an unchanged drift leaves them as they are.
import { displayKey, keyId } from '../model/index.js';
import type { EmergencyChange, Suspension } from '../emergency/index.js';
import type { DriftGroup } from '../pipeline/index.js';
import { emergencyTitle } from '../report/index.js';

/** The label an emergency drift PR carries besides the configured ones. */
export const EMERGENCY_LABEL = 'emergency';

/**
 * The label of security-relevant drift waiting for a person's decision: on the dashboard issue while
 * any cluster has some, and on a drift PR that lists some.
 */
export const SECURITY_LABEL = 'driftback:security';

/** The part of an emergency section decisions read: the suspension, and what changed under it. */
export interface EmergencyChanges {
  view: { suspension: { id: string } };
  changes: readonly EmergencyChange[];
}

/**
 * What a reviewer reads in the pull request list: where, how many live changes, and the first object
 * (`driftback: prod — 4 live changes to Deployment/shop/cart and 1 more object`).
 */
export function pullRequestTitle(cluster: string, group: Pick<DriftGroup, 'namespace' | 'codify'>): string {
  const { namespace } = group;
  const where = namespace === undefined ? cluster : `${cluster}/${namespace || 'cluster-scoped'}`;
  const codified = group.codify.codified;
  if (codified.length === 0) return `driftback: ${where} — live changes reported, none codified`;
  const objects = [...new Set(codified.map((entry) => displayKey(entry.key)))];
  const more = objects.length - 1;
  const rest = more > 0 ? ` and ${more} more object${more === 1 ? '' : 's'}` : '';
  const changes = `${codified.length} live change${codified.length === 1 ? '' : 's'}`;
  return `driftback: ${where} — ${changes} to ${objects[0]}${rest}`;
}

/** The title of a group's PR: an emergency PR says what changed under the suspension, not the generic drift title. */
export function driftTitle(
  cluster: string,
  group: Pick<DriftGroup, 'namespace' | 'codify'>,
  emergency: readonly EmergencyChanges[],
): string {
  if (emergency.length === 0) return pullRequestTitle(cluster, group);
  return emergencyTitle(
    cluster,
    emergency.flatMap((section) => section.changes),
  );
}

/** Whether the group reports security-relevant drift: its PR carries SECURITY_LABEL then, and loses it after. */
export function isRisky(group: Pick<DriftGroup, 'codify'>): boolean {
  return group.codify.reported.some((entry) => entry.risk);
}

/** The configured labels, the emergency label for an emergency PR, the security label for risky drift. */
export function driftLabels(
  configured: readonly string[],
  group: Pick<DriftGroup, 'codify'>,
  emergency: readonly EmergencyChanges[],
): string[] {
  return [
    ...configured,
    ...(emergency.length > 0 ? [EMERGENCY_LABEL] : []),
    ...(isRisky(group) ? [SECURITY_LABEL] : []),
  ];
}

/** What a group's PR says in the list: title, labels, and the labels it must lose. */
export function pullRequestFace(
  cluster: string,
  configured: readonly string[],
  group: Pick<DriftGroup, 'namespace' | 'codify'>,
  emergency: readonly EmergencyChanges[] = [],
): { title: string; labels: string[]; removeLabels: string[] } {
  return {
    title: driftTitle(cluster, group, emergency),
    labels: driftLabels(configured, group, emergency),
    removeLabels: isRisky(group) ? [] : [SECURITY_LABEL],
  };
}

/**
 * Branch → the changes its drift made under each suspension (what makes its PR an emergency PR), for a
 * caller without emergency records (the CLI); the App's sections add the checklist it follows.
 */
export function emergencyByBranch(
  emergency: ReadonlyMap<string, { suspension: Suspension; changes: EmergencyChange[] }>,
  groups: readonly Pick<DriftGroup, 'branch' | 'result'>[],
): Map<string, EmergencyChanges[]> {
  const sections = new Map<string, EmergencyChanges[]>();
  for (const group of groups) {
    const keys = new Set(group.result.resources.filter((r) => r.changes.length > 0).map((r) => keyId(r.key)));
    for (const { suspension, changes } of emergency.values()) {
      const mine = changes.filter((change) => keys.has(keyId(change.key)));
      if (mine.length > 0)
        sections.set(group.branch, [...(sections.get(group.branch) ?? []), { view: { suspension }, changes: mine }]);
    }
  }
  return sections;
}

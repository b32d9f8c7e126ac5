// What a new `.github/driftback.yml` would change, in words a reviewer reads next to the plan. A
// pull request is planned under the base branch's config (a PR cannot drop `plan.protect` to hide
// a data-loss warning, or point a cluster at its own directory); its own config is described here.
import type { ClusterConfig, Config } from './schema.js';

function shown(value: unknown): string {
  if (value === undefined) return '(unset)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isPrimitiveList(value: unknown): value is Array<string | number | boolean> {
  return Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item));
}

/** One line per changed leaf: `drift.minSnapshots: 2 → 1`, `plan.protect: adds Secret; removes Namespace`. */
function fieldChanges(prefix: string, before: unknown, after: unknown): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isPrimitiveList(before) && isPrimitiveList(after)) {
    const added = after.filter((item) => !before.includes(item));
    const removed = before.filter((item) => !after.includes(item));
    const parts = [
      ...(added.length ? [`adds ${added.map(shown).join(', ')}`] : []),
      ...(removed.length ? [`removes ${removed.map(shown).join(', ')}`] : []),
    ];
    return [`${prefix}: ${parts.length ? parts.join('; ') : `${shown(before)} → ${shown(after)}`}`];
  }
  const isMap = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isMap(before) && isMap(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) =>
      fieldChanges(prefix.endsWith(', ') ? `${prefix}${key}` : `${prefix}.${key}`, before[key], after[key]),
    );
  }
  return [`${prefix}: ${shown(before)} → ${shown(after)}`];
}

function clusterChanges(before: readonly ClusterConfig[], after: readonly ClusterConfig[]): string[] {
  const lines: string[] = [];
  const byName = (list: readonly ClusterConfig[]) => new Map(list.map((cluster) => [cluster.name, cluster]));
  const old = byName(before);
  const now = byName(after);
  for (const [name, cluster] of now) {
    const was = old.get(name);
    if (!was) {
      const where =
        cluster.path !== undefined
          ? `path ${cluster.path}`
          : `paths from its ${cluster.controller ?? 'controller'} objects`;
      lines.push(`adds cluster ${name} (${where})`);
    } else lines.push(...fieldChanges(`cluster ${name}, `, was, cluster));
  }
  for (const name of old.keys()) if (!now.has(name)) lines.push(`removes cluster ${name}`);
  return lines;
}

/** Every difference between the base and the proposed config, one line each; [] when none. */
export function describeConfigChange(base: Config, proposed: Config): string[] {
  return [
    ...clusterChanges(base.clusters ?? [], proposed.clusters ?? []),
    ...fieldChanges('drift', base.drift, proposed.drift),
    ...fieldChanges('plan', base.plan, proposed.plan),
    ...fieldChanges('pullRequests', base.pullRequests, proposed.pullRequests),
    ...fieldChanges('emergency', base.emergency, proposed.emergency),
  ];
}

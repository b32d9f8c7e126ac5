// Warnings about one resource that head creates or updates: each has a stable code, the resource,
// what to do, and the line in head that declares the field.
import {
  envAssignment,
  shortValue,
  type PathSegment,
  showTime,
  type DesiredObject,
  type FieldChange,
  type Conflict,
  type KubeObject,
  type PlanWarning,
  type ResourceKey,
} from '../model/index.js';
import { fieldPath, immutableReason } from '../k8s/index.js';
import { sourceOf } from './source-line.js';

export function at(desired: DesiredObject | undefined, path?: string): Pick<PlanWarning, 'file' | 'line'> {
  const place = sourceOf(desired, path);
  return place ? { file: place.file, ...(place.line ? { line: place.line } : {}) } : {};
}

/**
 * A value in a message: short YAML in backticks (the comment shows it as code); a whole env entry at
 * `segments` as the shell writes it (`LEVEL=debug`).
 */
export function shown(value: unknown, width = 60, segments?: readonly PathSegment[]): string {
  if (value === undefined) return 'unset';
  const text = envAssignment(value, segments) ?? shortValue(value, width);
  return `\`${text.replace(/`/g, "'")}\``;
}

/** A field in a message, as people read it (`spec.template.spec.containers[api].image`), in backticks. */
export function field(id: ResourceKey, change: Pick<FieldChange, 'path' | 'segments'>): string {
  return `\`${fieldPath(change.segments.length ? change.segments : change.path, id)}\``;
}

export function changeWarnings(
  id: ResourceKey,
  changes: FieldChange[],
  desired: DesiredObject | undefined,
  live: KubeObject,
): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  const liveImmutable = live.immutable === true;
  let claimTemplatesWarned = false;
  for (const change of changes) {
    if (id.group === 'apps' && id.kind === 'StatefulSet' && change.path.startsWith('/spec/volumeClaimTemplates')) {
      if (!claimTemplatesWarned) {
        // apps/v1 validation: updates to a StatefulSet's spec outside replicas, ordinals, template,
        // updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds are forbidden.
        const message =
          '`spec.volumeClaimTemplates` cannot be changed in place: the API server rejects the update, and the ' +
          'sync fails until the StatefulSet is recreated — `kubectl delete statefulset ' +
          `${id.name} -n ${id.namespace} --cascade=orphan\` keeps its Pods and claims, and the next sync creates it ` +
          'again. Existing claims keep their old spec (resize them one by one); only new claims get the new template.';
        warnings.push({ code: 'immutable', id, path: change.path, ...at(desired, change.path), message });
        claimTemplatesWarned = true;
      }
      continue;
    }
    const reason = immutableReason(id, change.path, liveImmutable);
    if (reason && !(change.op === 'replace' && change.live === undefined && !liveImmutable)) {
      const message =
        `${field(id, change)} cannot be changed (${reason}); the apply will be rejected. Revert it, or ` +
        'delete and recreate the resource on purpose (Flux `force: true`, Argo CD `Replace=true`).';
      warnings.push({ code: 'immutable', id, path: change.path, ...at(desired, change.path), message });
    }
    if (change.cause === 'human' && change.manager && change.live !== undefined) {
      // "Back to" would claim Git held the value before: head may set a value that was never live.
      const when = change.time ? ` (${showTime(change.time)})` : '';
      const live = `${change.manager}'s live ${shown(change.live, 60, change.segments)}${when}`;
      const verb =
        change.op === 'remove'
          ? `removes ${field(id, change)}, ${live}`
          : `replaces ${live} in ${field(id, change)} with ${shown(change.desired, 60, change.segments)}`;
      const advice =
        "If the live value should stay, write it into Git first (merge driftback's drift pull request for " +
        'this cluster, or run `driftback codify`), then rebase.';
      const message = `Applying this ${verb}. ${advice}`;
      const place = at(desired, change.path);
      warnings.push({ code: 'reverts-live-change', id, path: change.path, ...place, message, advice });
    }
  }
  return warnings;
}

export function conflictWarnings(
  id: ResourceKey,
  conflicts: Conflict[],
  desired: DesiredObject | undefined,
): PlanWarning[] {
  return conflicts.map((conflict) => ({
    code: 'conflict' as const,
    id,
    path: conflict.path,
    ...at(desired, conflict.path),
    message:
      `Git declares ${field(id, conflict)} (${shown(conflict.desired, 60, conflict.segments)}) but ${conflict.manager} owns it in the cluster ` +
      `(live ${shown(conflict.live, 60, conflict.segments)}${conflict.time ? `, written ${showTime(conflict.time)}` : ''}); ` +
      `the two will overwrite each other. Fix: ${conflict.fix}.`,
  }));
}

export function healthWarning(
  id: ResourceKey,
  health: { status: string; message?: string } | undefined,
  desired: DesiredObject | undefined,
): PlanWarning[] {
  if (health?.status !== 'Degraded') return [];
  const message = `It is Degraded now${health.message ? `: ${health.message}` : ''}. Find out why before this change lands on it.`;
  return [{ code: 'unhealthy', id, ...at(desired), message }];
}

export function namespaceWarning(id: ResourceKey, desired: DesiredObject | undefined): PlanWarning {
  const message =
    `Namespace \`${id.namespace}\` does not exist in the cluster and this commit does not create it, so the ` +
    'apply will fail. Add a Namespace manifest for it, or create it first.';
  return { code: 'namespace-missing', id, ...at(desired, '/metadata/namespace'), message };
}

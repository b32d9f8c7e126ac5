// Warnings about one resource that head creates or updates: each has a stable code, the resource,
// what to do, and the line in head that declares the field.
import { displayKey, type DesiredObject, type FieldChange, type Conflict, type KubeObject, type PlanWarning, type ResourceKey } from '../model/index.js';
import { immutableReason } from '../k8s/index.js';
import { sourceOf } from './source-line.js';

function at(desired: DesiredObject | undefined, path?: string): Pick<PlanWarning, 'file' | 'line'> {
  const place = sourceOf(desired, path);
  return place ? { file: place.file, ...(place.line ? { line: place.line } : {}) } : {};
}

function shown(value: unknown): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value);
  return text.length > 60 ? text.slice(0, 57) + '…' : text;
}

export function changeWarnings(id: ResourceKey, changes: FieldChange[], desired: DesiredObject | undefined, live: KubeObject): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  const who = displayKey(id);
  const liveImmutable = live.immutable === true;
  let claimTemplatesWarned = false;
  for (const change of changes) {
    if (id.group === 'apps' && id.kind === 'StatefulSet' && change.path.startsWith('/spec/volumeClaimTemplates')) {
      if (!claimTemplatesWarned) {
        warnings.push({ code: 'prune-protected', id, path: change.path, ...at(desired, change.path), message: `${who}: this changes volumeClaimTemplates. The API server rejects it in place, and recreating the StatefulSet to apply it risks the volumes' data (existing claims keep their old spec). Revert the change, or migrate the claims on purpose.` });
        claimTemplatesWarned = true;
      }
      continue;
    }
    const reason = immutableReason(id, change.path, liveImmutable);
    if (reason && !(change.op === 'replace' && change.live === undefined && !liveImmutable)) {
      warnings.push({ code: 'immutable', id, path: change.path, ...at(desired, change.path), message: `${who}: ${change.path} cannot be changed (${reason}); the apply will be rejected. Revert ${change.path}, or delete and recreate the resource on purpose (Flux \`force: true\`, Argo CD \`Replace=true\`).` });
    }
    if (change.cause === 'human' && change.manager && change.live !== undefined) {
      const verb = change.op === 'remove' ? `removes ${change.path}` : `sets ${change.path} back to ${shown(change.desired)}`;
      warnings.push({ code: 'reverts-live-change', id, path: change.path, ...at(desired, change.path), message: `${who}: applying this ${verb}, undoing ${change.manager}'s live change to ${shown(change.live)}${change.time ? ` at ${change.time}` : ''}. If that change should stay, codify it first (\`driftback codify\`) and rebase.` });
    }
  }
  return warnings;
}

export function conflictWarnings(id: ResourceKey, conflicts: Conflict[], desired: DesiredObject | undefined): PlanWarning[] {
  return conflicts.map((conflict) => ({
    code: 'conflict' as const,
    id,
    path: conflict.path,
    ...at(desired, conflict.path),
    message: `${displayKey(id)}: Git declares ${conflict.path} (${shown(conflict.desired)}) but ${conflict.manager} owns it in the cluster (live ${shown(conflict.live)}${conflict.time ? `, written ${conflict.time}` : ''}); the two will overwrite each other. Fix: ${conflict.fix}.`,
  }));
}

export function healthWarning(id: ResourceKey, health: { status: string; message?: string } | undefined, desired: DesiredObject | undefined): PlanWarning[] {
  if (health?.status !== 'Degraded') return [];
  return [{ code: 'unhealthy', id, ...at(desired), message: `${displayKey(id)} is Degraded now${health.message ? `: ${health.message}` : ''}. Find out why before this change lands on it.` }];
}

export function namespaceWarning(id: ResourceKey, desired: DesiredObject | undefined): PlanWarning {
  return { code: 'namespace-missing', id, ...at(desired, '/metadata/namespace'), message: `${displayKey(id)}: namespace "${id.namespace}" does not exist in the cluster and this commit does not create it, so the apply will fail. Add a Namespace manifest for it, or create it first.` };
}


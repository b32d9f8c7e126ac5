// The emergency procedure a drift PR walks when its drift happened under a suspension: what changed,
// who and when, which source is suspended and the exact step that resumes it, and a checklist the
// App ticks as it sees each step in the snapshots that follow (merged, resumed, applied, in sync).
import { stableJson } from '../classify/index.js';
import { parseDuration } from '../config/index.js';
import { fieldPath } from '../k8s/index.js';
import {
  fromPointer,
  getAt,
  keyId,
  type DiffResult,
  type KubeObject,
  type PathSegment,
  type ResourceKey,
} from '../model/index.js';
import type { SuspensionIndex } from './covered.js';
import { sourceRefText } from '../sources/index.js';
import {
  ARGO_SKIP_RECONCILE_ANNOTATION,
  FLUX_RECONCILE_ANNOTATION,
  suspendedSource,
  type Suspension,
} from './suspensions.js';

export interface Checklist {
  merged: boolean;
  resumed: boolean;
  /** The controller applied a revision that includes the merge commit. */
  applied: boolean;
  /** Resumed, applied, and no drift left on anything the suspended source applies. */
  inSync: boolean;
}

export const NOTHING_DONE: Checklist = { merged: false, resumed: false, applied: false, inSync: false };

/** One field changed under a suspension, with the value the fix set. */
export interface EmergencyChange {
  key: ResourceKey;
  /** JSON pointer into the live object. */
  pointer: string;
  segments: PathSegment[];
  /** How a person reads the field (`spec.template.spec.containers[podinfo].resources.limits.memory`). */
  field: string;
  value: unknown;
  manager?: string;
  time?: string;
}

/** The steps that end a suspension, as a person runs them. */
export function resumeStep(suspension: Suspension): { text: string; command: string } {
  const { name, namespace, kind } = suspension.object;
  switch (suspension.method) {
    case 'suspend': {
      const what = suspension.kind === 'flux-helmrelease' ? 'helmrelease' : 'kustomization';
      return { text: 'resume it', command: `flux resume ${what} ${name} -n ${namespace}` };
    }
    case 'automated-sync-off':
      return {
        text: 're-enable automated sync',
        command: `argocd app set ${name} --sync-policy automated`,
      };
    case 'skip-reconcile':
      return {
        text: 'remove the skip-reconcile annotation',
        command: `kubectl -n ${namespace} annotate application ${name} ${ARGO_SKIP_RECONCILE_ANNOTATION}-`,
      };
    case 'reconcile-disabled':
      return {
        text: 'remove the reconcile: disabled annotation',
        command:
          `kubectl${namespace ? ` -n ${namespace}` : ''} annotate ${kind.toLowerCase()} ${name} ` +
          `${FLUX_RECONCILE_ANNOTATION}-`,
      };
  }
}

/**
 * By when a suspension must be resumed: its time plus `emergency.resumeWithin` (after that the App
 * opens the "still suspended" alert). Undefined for a time or duration it cannot read.
 */
export function resumeDeadline(since: string, resumeWithin: string): string | undefined {
  const start = Date.parse(since);
  const seconds = parseDuration(resumeWithin);
  if (!Number.isFinite(start) || seconds === undefined) return undefined;
  return new Date(start + seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** `Kustomization/flux-system/apps` for people: the source's text form, or the excluded object's key. */
export function suspensionLabel(suspension: Suspension): string {
  const source = suspendedSource(suspension);
  return source ? sourceRefText(source) : suspension.id;
}

/** The drift under a suspension: every changed field of a resource the suspension covers, by source id. */
export function emergencyChanges(
  drift: DiffResult,
  index: SuspensionIndex,
): Map<string, { suspension: Suspension; changes: EmergencyChange[] }> {
  const bySource = new Map<string, { suspension: Suspension; changes: EmergencyChange[] }>();
  for (const resource of drift.resources) {
    const suspension = index.coveringKey(resource.key);
    if (!suspension || resource.changes.length === 0) continue;
    const entry = bySource.get(suspension.id) ?? { suspension, changes: [] };
    bySource.set(suspension.id, entry);
    const { group, kind } = resource.key;
    const of = { group, kind, ...(resource.live ? { object: resource.live } : {}) };
    for (const change of resource.changes) {
      entry.changes.push({
        key: resource.key,
        pointer: change.path,
        segments: change.segments,
        field: fieldPath(change.path, of),
        value: change.live,
        ...(change.manager ? { manager: change.manager } : {}),
        ...(change.time ? { time: change.time } : {}),
      });
    }
  }
  return bySource;
}

/** Whether the live object (live objects by key id) still holds the value the fix set (false when it is gone). */
export function stillHolds(
  change: Pick<EmergencyChange, 'key' | 'pointer' | 'value'>,
  live: ReadonlyMap<string, KubeObject>,
): boolean {
  const object = live.get(keyId(change.key));
  if (!object) return false;
  return stableJson(getAt(object, fromPointer(change.pointer)) ?? null) === stableJson(change.value ?? null);
}

/** The commit a controller's applied revision names: Flux `main@sha1:<sha>`, Argo CD the bare sha. */
export function revisionCommit(revision: string | undefined): string | undefined {
  return revision ? /(?:^|@sha1:)([0-9a-f]{40})$/.exec(revision)?.[1] : undefined;
}

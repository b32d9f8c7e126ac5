// A suspension's own switch (Flux spec.suspend, Argo CD's automated sync, the skip annotations) is the
// suspension, not drift: it is never codified (Git would then keep the source suspended for good) and
// is set aside with the step that ends it.
import { summarize } from '../classify/summary.js';
import type { DiffResult, FieldChange, ResourceDiff, ResourceKey } from '../model/index.js';
import { groupOf, keyId } from '../model/index.js';
import { resumeStep } from './procedure.js';
import {
  ARGO_SKIP_RECONCILE_ANNOTATION,
  FLUX_RECONCILE_ANNOTATION,
  suspendedObjectKey,
  type Suspension,
} from './suspensions.js';

const SWITCHES: Record<Suspension['method'], string> = {
  suspend: '/spec/suspend',
  'automated-sync-off': '/spec/syncPolicy/automated',
  'skip-reconcile': `/metadata/annotations/${ARGO_SKIP_RECONCILE_ANNOTATION.replace('/', '~1')}`,
  'reconcile-disabled': `/metadata/annotations/${FLUX_RECONCILE_ANNOTATION.replace('/', '~1')}`,
};

function isSwitch(change: FieldChange, pointer: string): boolean {
  return change.path === pointer || change.path.startsWith(`${pointer}/`);
}

/** Whether `pointer` of the object `key` is the suspension's own switch (Flux spec.suspend, …). */
export function isSuspensionSwitch(suspension: Suspension, key: ResourceKey, pointer: string | undefined): boolean {
  if (pointer === undefined || keyId(key) !== keyId(suspendedObjectKey(suspension))) return false;
  const switchAt = SWITCHES[suspension.method];
  return pointer === switchAt || pointer.startsWith(`${switchAt}/`);
}

/** The diff with every suspension's switch moved to the ignored changes of its object. */
export function setSuspensionSwitchesAside(diff: DiffResult, suspensions: readonly Suspension[]): DiffResult {
  if (suspensions.length === 0) return diff;
  const byObject = new Map(suspensions.map((s) => [keyId({ ...s.object, group: groupOf(s.object.apiVersion) }), s]));
  let moved = false;
  const resources = diff.resources.map((resource): ResourceDiff => {
    const suspension = byObject.get(keyId(resource.key));
    if (!suspension) return resource;
    const pointer = SWITCHES[suspension.method];
    const switches = resource.changes.filter((change) => isSwitch(change, pointer));
    if (switches.length === 0) return resource;
    moved = true;
    const step = resumeStep(suspension);
    const reason = `the suspension itself, never codified: ${step.text} with ${step.command}`;
    const changes = resource.changes.filter((change) => !isSwitch(change, pointer));
    return {
      ...resource,
      changes,
      ignored: [...resource.ignored, ...switches.map((change) => ({ ...change, ignored: { reason } }))],
      status: resource.status === 'modified' && changes.length === 0 ? 'in-sync' : resource.status,
    };
  });
  return moved ? { ...diff, resources, summary: summarize(resources) } : diff;
}

// The note a plan opens with when the source that applies what a pull request changes is suspended:
// merging changes nothing in the cluster until the source is resumed.
import type { KubeObject, PlanWarning } from '../model/index.js';
import { displayKey, keyOf, SUSPENDED_DRIFT } from '../model/index.js';
import { showTime } from '../model/show.js';
import { resumeStep, suspensionLabel } from './procedure.js';
import type { Suspension } from './suspensions.js';

function touches(path: string, changed: readonly string[]): boolean {
  return path === '' || changed.some((file) => file === path || file.startsWith(`${path}/`));
}

function normalized(path: string): string {
  return path.replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
}

function applies(suspension: Suspension, input: { changed?: readonly string[]; path?: string }): boolean {
  if (suspension.path === undefined) return false;
  const path = normalized(suspension.path);
  if (input.changed) return touches(path, input.changed);
  return input.path === undefined || normalized(input.path) === path;
}

/**
 * One warning per suspended source of this repository (suspensionsByRepository's `own`) whose path the pull request changes (`changed`), or, without the
 * changed files (the CLI), whose path is the cluster's (`path`; any when undefined).
 */
export function suspendedSourceWarnings(
  live: readonly KubeObject[],
  suspensions: readonly Suspension[],
  input: { changed?: readonly string[]; path?: string },
): PlanWarning[] {
  const objects = new Map(live.map((object) => [displayKey(keyOf(object)), object]));
  return suspensions
    .filter((suspension) => applies(suspension, input))
    .map((suspension) => {
      const { kind, namespace, name } = suspension.object;
      const object = objects.get(displayKey({ group: '', kind, namespace, name }));
      const since = suspension.since ? ` since ${showTime(suspension.since)}` : ' (since an unrecorded time)';
      const who = suspension.who ? ` by \`${suspension.who}\`` : '';
      const step = resumeStep(suspension);
      const named = object ? '' : ` (\`${suspensionLabel(suspension)}\`)`;
      const message =
        `This source${named} has been suspended${since}${who}: ` +
        `merging changes nothing in the cluster until it is resumed, and ${SUSPENDED_DRIFT} ` +
        `(${step.text}: \`${step.command}\`).`;
      return { code: 'suspended-source' as const, ...(object ? { id: keyOf(object) } : {}), message };
    });
}
